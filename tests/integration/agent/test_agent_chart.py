"""The chart's agent DaemonSet (issue 15): on by default, it runs `gshare agent` with the host's
cgroup v2 tree mounted where its settings say, as a service account whose rendered RBAC lets
exactly the agent's pod list through (the Kubernetes API test server enforcing it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from gshare_agent.kube import KubeClient, KubeError
from gshare_agent.settings import load_settings

from tests.k8s.apiserver import KubeApiServer
from tests.k8s.rbac import manifest_authorizer
from tests.support.telemetry import NS, session_pod
from tests.unit.deploy.test_chart_render import of_kind, render

SA = "system:serviceaccount:gshare-infra:gshare-agent"


def _agent(docs: list[dict[str, Any]]) -> dict[str, Any]:
    (ds,) = [d for d in of_kind(docs, "DaemonSet") if d["metadata"]["name"] == "gshare-agent"]
    return ds


def test_the_daemonset_runs_the_agent_command_with_the_hosts_cgroups_and_gpu_sources() -> None:
    docs = render({"agent": {"hamiMetricsUrl": "http://$(HOST_IP):9394/metrics"}})
    ds = _agent(docs)
    pod = ds["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["args"][0] == "agent" and pod["serviceAccountName"] == "gshare-agent"
    env = {e["name"]: e.get("value") for e in container["env"]}
    # the options and variables parse with the agent's own loader (the key file is the mounted secret's)
    settings = load_settings(
        container["args"][1:], {k: v for k, v in env.items() if v is not None} | {"NODE_NAME": "n1"}
    )
    assert settings.hami_metrics_url == "http://$(HOST_IP):9394/metrics" and settings.namespace == NS
    mounts = {m["name"]: m for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    cgroup = next(n for n, m in mounts.items() if m["mountPath"] == settings.cgroup_root)
    assert volumes[cgroup]["hostPath"]["path"] == "/sys/fs/cgroup" and mounts[cgroup]["readOnly"] is True
    key_dir = str(Path(settings.private_key_path).parent)
    key = next(n for n, m in mounts.items() if m["mountPath"] == key_dir)
    assert "secret" in volumes[key]
    # HOST_IP comes before the URLs that expand it
    names = [e["name"] for e in container["env"]]
    assert names.index("HOST_IP") < names.index("GSHARE_AGENT_HAMI_METRICS_URL")
    assert "GSHARE_AGENT_DCGM_METRICS_URL" not in names  # left empty: not set


def test_the_agent_is_off_only_when_asked() -> None:
    assert [d["metadata"]["name"] for d in of_kind(render(), "DaemonSet")] == ["gshare-agent"]
    assert of_kind(render({"agent": {"enabled": False}}), "DaemonSet") == []


@pytest.mark.parametrize("namespace", [NS, "default"])
async def test_the_rendered_rbac_lets_the_agent_list_its_nodes_session_pods_and_nothing_else(
    kube_api: KubeApiServer, tmp_path: Path, namespace: str
) -> None:
    rbac = [d for d in render() if d["kind"] in ("Role", "RoleBinding") and d["metadata"]["name"] == "gshare-agent"]
    path = tmp_path / "agent-rbac.yaml"
    path.write_text(yaml.safe_dump_all(rbac))
    kube_api.authorizer = manifest_authorizer([path])
    kube_api.seed(session_pod("s-a", "", "n1", "00000000-0000-0000-0000-00000000000a"))
    kubeconfig = kube_api.write_kubeconfig(tmp_path / "kc", token="agent-sa", user=SA)
    client = KubeClient.from_kubeconfig(str(kubeconfig))
    if namespace == NS:
        pods = await asyncio.to_thread(client.session_pods, namespace, "n1")
        assert [p.name for p in pods] == ["s-a"]
    else:
        with pytest.raises(KubeError, match="403"):
            await asyncio.to_thread(client.session_pods, namespace, "n1")
