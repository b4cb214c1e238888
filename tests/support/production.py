"""The production shape on this machine (issue 14): two `gshare serve` replicas, one `gshare
worker` and one `gshare operator`, each a real process started the way the Helm chart starts it
(the args and env of its rendered Deployment; the Secret the chart's `envFrom` names filled in
with this machine's PostgreSQL, Redis and a secret key), against the in-process Kubernetes API
test server with recorded HAMi nodes (tests/k8s/nodes.py), the chart's rendered RBAC enforced
for the control plane's and the operator's service accounts, and the test kubelet running pods.

What is changed from the rendered values, and why, is listed in `chart_processes`: listen
addresses (each replica its own port on 127.0.0.1 instead of 0.0.0.0:8000), the operator's
in-cluster service account (a kubeconfig with that account's token instead), its mounted
callback key (a file under a temp dir standing for the Secret's mount path) and the downward
API's pod name. Short job periods come through the settings (GSHARE_WORKER_JOB_PERIODS)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.k8s.apiserver import KubeApiServer
from tests.k8s.rbac import manifest_authorizer
from tests.support.serve import free_port

ROOT = Path(__file__).resolve().parents[2]
NS = "gshare-sessions"
CONTROL_PLANE_USER = "system:serviceaccount:gshare-system:gshare-control-plane"
OPERATOR_USER = "system:serviceaccount:gshare-system:gshare-operator"
KEY_MOUNT = "/var/run/gshare/callback-key"  # the operator's callback-key volumeMount in the chart


class Proc:
    """One process of the shape, its output in a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.args, self.env, self.log = name, args, env, log
        self._out = log.open("ab")
        self.p = subprocess.Popen(args, env=env, stdout=self._out, stderr=subprocess.STDOUT, cwd=ROOT)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def tail(self, chars: int = 4000) -> str:
        return self.text()[-chars:]

    def alive(self) -> bool:
        return self.p.poll() is None

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15) -> int | None:
        if self.p.poll() is None:
            self.p.send_signal(sig)
            try:
                self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self._out.close()
        return self.p.returncode

    async def astop(self, sig: int = signal.SIGTERM) -> int | None:
        """`stop` without blocking the event loop: the test's Kubernetes API server runs on it,
        and a process that calls the API while it stops (the operator giving its lease up)
        would otherwise wait on a loop that waits on it, until killed 15 s later."""
        return await asyncio.to_thread(self.stop, sig)


async def until(check: Callable[[], Any], within: float, what: str, every: float = 0.1) -> Any:
    """The first truthy value of `check()` (sync or async), or an AssertionError after `within` s."""
    deadline = time.monotonic() + within
    while True:
        got = check()
        if isinstance(got, Awaitable):
            got = await got
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within} s: {what}")
        await asyncio.sleep(every)


def public_pem(key: Ed25519PrivateKey) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _container(docs: list[dict[str, Any]], workload: str) -> dict[str, Any]:
    doc = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == workload)
    containers = doc["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1, workload
    return dict(containers[0])


def _rendered_env(container: dict[str, Any], secret: dict[str, str], downward: dict[str, str]) -> dict[str, str]:
    env: dict[str, str] = {}
    for source in container.get("envFrom") or []:
        assert "secretRef" in source, source
        env.update(secret)
    for item in container.get("env") or []:
        if "value" in item:
            env[item["name"]] = str(item["value"])
        else:
            env[item["name"]] = downward[item["valueFrom"]["fieldRef"]["fieldPath"]]
    return env


def _base_env() -> dict[str, str]:
    """This machine's environment without any GSHARE_* (the processes get only the chart's)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GSHARE_") and k != "KUBECONFIG"}


@dataclass
class ChartProcesses:
    """What the rendered chart says to run, adapted to this machine (see the module docstring)."""

    serve: list[tuple[list[str], dict[str, str]]]
    worker: tuple[list[str], dict[str, str]]
    operator: tuple[list[str], dict[str, str]]
    rbac: list[dict[str, Any]]


def chart_processes(
    *,
    ports: tuple[int, int],
    public_url: str,
    cluster_id: str,
    secret: dict[str, str],
    operator_kubeconfig: Path,
    key_dir: Path,
    tuning: dict[str, str],
    operator_env: dict[str, str],
) -> ChartProcesses:
    from tests.unit.deploy.test_chart_render import render

    docs = render(
        {
            "controlPlane": {"url": public_url},
            "operator": {"clusterId": cluster_id, "replicas": 1, "inventoryInterval": 2, "env": operator_env},
        }
    )
    api = _container(docs, "gshare-api")
    args = list(api["args"])
    port_name = {p["containerPort"]: p["name"] for p in api["ports"]}
    assert args[:2] == ["serve", "--host"] and args[3] == "--port" and int(args[4]) in port_name, args
    serve = []
    for port in ports:
        env = {**_base_env(), **_rendered_env(api, secret, {}), **tuning}
        serve.append(([*args[:2], "127.0.0.1", "--port", str(port), *args[5:]], env))

    worker = _container(docs, "gshare-worker")
    worker_env = {**_base_env(), **_rendered_env(worker, secret, {}), **tuning, "GSHARE_WORKER_METRICS_PORT": "0"}

    op = _container(docs, "gshare-operator")
    op_env = _rendered_env(op, secret, {"metadata.name": f"gshare-operator-{uuid.uuid4().hex[:5]}"})
    mount = next(m for m in op["volumeMounts"] if m["name"] == "callback-key")
    assert mount["mountPath"] == KEY_MOUNT and op_env["GSHARE_CALLBACK_KEY_PATH"].startswith(KEY_MOUNT + "/")
    op_env["GSHARE_CALLBACK_KEY_PATH"] = str(key_dir / op_env["GSHARE_CALLBACK_KEY_PATH"].removeprefix(KEY_MOUNT + "/"))
    # in a pod the service account's token; here a kubeconfig carrying that account's token
    op_env["KUBECONFIG"] = str(operator_kubeconfig)
    rbac = [d for d in docs if d["kind"] in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")]
    return ChartProcesses(
        serve=serve,
        worker=(list(worker["args"]), worker_env),
        operator=(list(op["args"]), {**_base_env(), **op_env}),
        rbac=rbac,
    )


@dataclass
class Production:
    api: KubeApiServer
    cluster_id: str
    key: Ed25519PrivateKey
    urls: list[str]
    replicas: list[Proc]
    worker: Proc
    operator: Proc
    control_plane_kubeconfig: Path
    procs: list[Proc] = field(default_factory=list)
    tmp: Path = Path()

    def logs(self) -> str:
        return "\n".join(f"===== {p.name}\n{p.tail(3000)}" for p in self.procs)

    async def restart_replica(self, i: int, *, without: tuple[str, ...] = ()) -> Proc:
        """Start replica `i` again (after it died) with the same command, less the env `without`."""
        old = self.replicas[i]
        await old.astop()
        env = {k: v for k, v in old.env.items() if k not in without}
        new = Proc(old.name, old.args, env, old.log)
        self.procs[self.procs.index(old)] = new
        self.replicas[i] = new
        await _ready(new, self.urls[i], 180)
        return new


async def _ready(proc: Proc, url: str, within: float) -> None:
    async def answers() -> bool:
        assert proc.alive(), f"{proc.name} exited:\n{proc.tail()}"
        with contextlib.suppress(httpx.HTTPError):
            async with httpx.AsyncClient() as h:
                return (await h.get(url + "/readyz", timeout=1)).status_code == 200
        return False

    await until(answers, within, f"{proc.name} ready", every=0.2)


@contextlib.asynccontextmanager
async def production(
    tmp: Path,
    *,
    database_url: str,
    redis_url: str,
    nodes: list[dict[str, Any]],
    job_periods: str,
    settings: dict[str, str] | None = None,
    operator_env: dict[str, str] | None = None,
    replica_env: tuple[dict[str, str], dict[str, str]] = ({}, {}),
) -> AsyncIterator[Production]:
    """Start the shape; the cluster is not registered yet (see `register`)."""
    api = KubeApiServer()
    await api.start()
    procs: list[Proc] = []
    try:
        for node in nodes:
            api.seed(node)
        cluster_id = f"prod-{uuid.uuid4().hex[:8]}"
        key = Ed25519PrivateKey.generate()
        key_dir = tmp / "callback-key"
        key_dir.mkdir()
        ports = (free_port(), free_port())
        urls = [f"http://127.0.0.1:{p}" for p in ports]
        op_kubeconfig = api.write_kubeconfig(tmp / "operator.kubeconfig", token="sa-operator", user=OPERATOR_USER)
        cp_kubeconfig = api.write_kubeconfig(tmp / "cp.kubeconfig", token="sa-control-plane", user=CONTROL_PLANE_USER)
        secret = {  # the Secret `controlPlane.existingSecret` names (values.yaml)
            "GSHARE_DATABASE_URL": database_url,
            "GSHARE_REDIS_URL": redis_url,
            "GSHARE_SECRET_KEY": "production-shape-" + "k" * 40,
        }
        tuning = {
            "GSHARE_WORKER_JOB_PERIODS": job_periods,
            # this test's broker keys, apart from other tests sharing the Redis database
            "GSHARE_WORKER_NAMESPACE": f"gshare-{cluster_id}",
            "GSHARE_LOG_LEVEL": "info",
            "PYTHONUNBUFFERED": "1",
            **(settings or {}),
        }
        # the operator calls back to replica A, as it would to the load balancer's address
        shape = chart_processes(
            ports=ports,
            public_url=urls[0],
            cluster_id=cluster_id,
            secret=secret,
            operator_kubeconfig=op_kubeconfig,
            key_dir=key_dir,
            tuning=tuning,
            operator_env={"GSHARE_NODE_LOST_AFTER": "1", "GSHARE_OPERATOR_RESYNC": "5", **(operator_env or {})},
        )
        (key_dir / Path(shape.operator[1]["GSHARE_CALLBACK_KEY_PATH"]).name).write_bytes(private_pem(key))
        rbac_file = tmp / "rbac.yaml"
        rbac_file.write_text(yaml.safe_dump_all(shape.rbac))
        api.authorizer = manifest_authorizer([rbac_file])

        for name, (args, env) in zip(("serve-a", "serve-b"), shape.serve, strict=True):
            extra = replica_env[len(procs)]
            procs.append(Proc(name, [sys.executable, "-m", "cli", *args], {**env, **extra}, tmp / f"{name}.log"))
        worker = Proc("worker", [sys.executable, "-m", "cli", *shape.worker[0]], shape.worker[1], tmp / "worker.log")
        procs.append(worker)
        await asyncio.gather(*(_ready(p, u, 180) for p, u in zip(procs[:2], urls, strict=True)))
        await until(lambda: worker.alive() and "running (" in worker.text(), 180, "worker running")
        operator = Proc(
            "operator", [sys.executable, "-m", "cli", *shape.operator[0]], shape.operator[1], tmp / "operator.log"
        )
        procs.append(operator)
        yield Production(api, cluster_id, key, urls, procs[:2], worker, operator, cp_kubeconfig, procs, tmp)
    finally:
        for p in reversed(procs):
            await p.astop()
        await api.stop()
