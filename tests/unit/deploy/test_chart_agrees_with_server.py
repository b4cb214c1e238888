"""The chart and the server agree (issue 14, "The chart and the server disagree"): every
container the chart renders runs a `gshare` command that exists, with arguments its parser
accepts and only environment variables that command's process reads; every URL it hands a
process (the operator's and the agents' callback base) leads to a route the API serves, asked
the way the process asks it; every probe path is served, on the port the command listens on;
the Service and the Ingress point at ports that exist. The plain operator manifest in deploy/
is held to the same callback routes.

The processes' own loaders read the rendered values (`gshare_operator.settings.load_settings`,
`gshare_agent.settings.load_settings`, `infra.settings.Settings`, the `gshare` parser), and the
API answering is the real app (`api.app.create_app`) over ASGI: a callback route answers an
unsigned post with 401 (the route is there and refuses), a missing one would answer 404."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from tests.unit.deploy.test_chart_render import DEPLOY, EVERYTHING_ON, render

_OPERATOR_DIR = str(Path(__file__).resolve().parents[3] / "operator")
if _OPERATOR_DIR not in sys.path:
    sys.path.insert(0, _OPERATOR_DIR)

# what a Secret named by envFrom holds (the values.yaml comment of controlPlane.existingSecret)
SECRET_VARIABLES = {
    "GSHARE_DATABASE_URL": "postgresql://gshare@db.example:5432/gshare",
    "GSHARE_REDIS_URL": "redis://redis.example:6379/0",
    "GSHARE_SECRET_KEY": "k" * 48,
    "GSHARE_METRICS_TOKEN": "t" * 32,
}
# Kubernetes fills these in from the downward API
DOWNWARD = {
    "spec.nodeName": "gpu-node-1",
    "status.hostIP": "10.0.0.7",
    "metadata.name": "gshare-operator-0",
    "metadata.namespace": "gshare-system",
}
# the callback kinds each process posts (operator/gshare_operator/callbacks.py, gshare_agent/sender.py)
OPERATOR_CALLBACKS = ("session-status", "inventory")
AGENT_CALLBACKS = ("usage",)


def containers(docs: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    found = []
    for doc in docs:
        if doc["kind"] in ("Deployment", "DaemonSet", "StatefulSet"):
            for c in doc["spec"]["template"]["spec"]["containers"]:
                found.append((doc["metadata"]["name"], doc, c))
    return found


def environment(container: dict[str, Any]) -> dict[str, str]:
    env: dict[str, str] = {}
    for source in container.get("envFrom") or []:
        assert "secretRef" in source, source
        env.update(SECRET_VARIABLES)
    for item in container.get("env") or []:
        if "value" in item:
            env[item["name"]] = str(item["value"])
        else:
            ref = item["valueFrom"]["fieldRef"]["fieldPath"]
            env[item["name"]] = DOWNWARD[ref]
    return env


def _declared_env(command: str) -> set[str]:
    if command in ("serve", "worker"):
        from infra.settings import Settings

        prefix = Settings.model_config.get("env_prefix", "")
        return {f"{prefix}{name}".upper() for name in Settings.model_fields}
    if command == "operator":
        from gshare_operator.settings import ENV

        return set(ENV.values())
    if command == "agent":
        from gshare_agent.settings import ENV as AGENT_ENV

        return set(AGENT_ENV.values())
    raise AssertionError(f"no process reads the environment of `gshare {command}`")


@pytest.fixture(scope="module")
def app() -> Any:
    """The real API app; nothing asked here reaches the (unreachable) database."""
    from api.app import create_app
    from infra.bootstrap import build_container
    from infra.settings import Settings

    url = "postgresql://gshare@127.0.0.1:9/unreachable"
    return create_app(build_container(Settings(database_url=url, demo=False, secret_key="s" * 48), url))


async def _post(app: Any, url: str) -> int:
    parts = urlsplit(url)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=f"{parts.scheme}://{parts.netloc}"
    ) as client:
        response = await client.post(parts.path, content=b"{}", headers={"content-type": "application/json"})
    return response.status_code


async def _get(app: Any, path: str) -> int:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://api.test") as client:
        return (await client.get(path)).status_code


def _rendered() -> list[tuple[str, list[dict[str, Any]]]]:
    return [("defaults", render({})), ("everything-on", render(EVERYTHING_ON))]


@pytest.mark.parametrize("values", [{}, EVERYTHING_ON], ids=["defaults", "everything-on"])
async def test_every_container_runs_a_command_that_exists_with_what_it_reads(values: dict[str, Any], app: Any) -> None:
    from cli.main import PASSTHROUGH, build_parser

    docs = render(values)
    commands: set[str] = set()
    for workload, _doc, container in containers(docs):
        args = list(container.get("command") or []) + list(container.get("args") or [])
        assert "command" not in container, f"{workload}: the image's entry point is `gshare`; only args are set"
        command = args[0]
        commands.add(command)
        parsed = build_parser().parse_args(args[:1] if command in PASSTHROUGH else args)
        assert parsed.command == command, workload
        env = environment(container)
        undeclared = sorted(set(env) - _declared_env(command))
        assert undeclared == [], f"{workload}: `gshare {command}` reads none of {undeclared}"

        if command == "operator":
            from gshare_operator.settings import load_settings as operator_settings

            settings = operator_settings(args[1:], env)
            assert settings.cluster_id == env["GSHARE_CLUSTER_ID"]
            for kind in OPERATOR_CALLBACKS:
                url = settings.callback_url.rstrip("/") + "/" + kind
                assert await _post(app, url) == 401, f"{workload}: POST {url} is not a callback route"
        elif command == "agent":
            from gshare_agent.settings import load_settings as agent_settings

            settings = agent_settings(args[1:], env)
            assert settings.node_name == DOWNWARD["spec.nodeName"]
            for kind in AGENT_CALLBACKS:
                url = settings.callback_url.rstrip("/") + "/" + kind
                assert await _post(app, url) == 401, f"{workload}: POST {url} is not a callback route"
        elif command == "serve":
            ports = {p["name"]: p["containerPort"] for p in container.get("ports") or []}
            assert [parsed.host, parsed.port] == ["0.0.0.0", ports["http"]], workload
            for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
                get = (container.get(probe) or {}).get("httpGet")
                if get is None:
                    continue
                assert get["port"] in ports or get["port"] in ports.values(), (workload, probe)
                status = await _get(app, get["path"])
                # /readyz answers 503 here: the database of this test is unreachable on purpose
                assert status in (200, 503) and status != 404, (workload, probe, get["path"], status)
            from infra.settings import Settings

            with pytest.MonkeyPatch.context() as mp:
                for name, value in env.items():
                    mp.setenv(name, value)
                served = Settings()
            assert served.public_url == values.get("controlPlane", {}).get("url", "https://gshare.example.com")
    assert {"serve", "worker", "operator"} <= commands
    if values.get("agent", {}).get("enabled"):
        assert "agent" in commands


def test_the_api_service_and_ingress_point_at_the_api_port() -> None:
    docs = render({})
    api = next(c for name, _, c in containers(docs) if name == "gshare-api")
    port_names = {p["name"] for p in api["ports"]}
    service = next(d for d in docs if d["kind"] == "Service" and d["metadata"]["name"] == "gshare-api")
    assert {p["targetPort"] for p in service["spec"]["ports"]} <= port_names
    ingress = next(d for d in docs if d["kind"] == "Ingress" and d["metadata"]["name"] == "gshare-api")
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] == "gshare-api"
            assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}


def test_the_callback_url_follows_the_control_plane_url_unless_set() -> None:
    for values, expected in (
        ({"controlPlane": {"url": "https://cp.example.org/"}}, "https://cp.example.org/callbacks"),
        ({"operator": {"callbackUrl": "https://edge.example.org/gshare/callbacks"}}, None),
    ):
        docs = render({**EVERYTHING_ON, **values})
        for name, _, container in containers(docs):
            env = environment(container)
            if "GSHARE_CALLBACK_URL" in env:
                wanted = expected or values["operator"]["callbackUrl"]  # type: ignore[index]
                assert env["GSHARE_CALLBACK_URL"] == wanted, name


async def test_the_plain_operator_manifest_posts_to_callback_routes(app: Any) -> None:
    docs = [d for d in yaml.safe_load_all((DEPLOY / "operator" / "deployment.yaml").read_text()) if d]
    config = next(d for d in docs if d["kind"] == "ConfigMap")
    base = config["data"]["GSHARE_CALLBACK_URL"]
    for kind in OPERATOR_CALLBACKS:
        assert await _post(app, f"{base}/{kind}") == 401, f"POST {base}/{kind} is not a callback route"
    deployment = next(d for d in docs if d["kind"] == "Deployment")
    args = deployment["spec"]["template"]["spec"]["containers"][0].get("args") or []
    assert args[:1] == ["operator"]
