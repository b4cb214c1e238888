"""Issue 15, Must show 1: the node agent on a fake node.

The node: a cgroup v2 tree in a temp dir laid out as the kubelet makes it (systemd and cgroupfs
drivers, every QoS class, a kind-style nested kubelet root; containerd and CRI-O children),
HAMi's vGPU monitor and dcgm-exporter serving recorded text (tests/support/telemetry), the pods
in the Kubernetes API test server. The control plane: the real app on a socket, its
`POST /callbacks/usage` verifying the cluster's signature. The agent ticks twice (a CPU baseline,
then the numbers) and posts: exactly this node's session pods of this cluster arrive in the
UsageStore with the numbers the node shows."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from gshare_agent.agent import Agent
from gshare_agent.kube import KubeClient
from gshare_agent.sender import UsagePoster
from gshare_agent.settings import AgentSettings
from gshare_agent.transport import Origin
from gshare_operator.signing import CallbackSigner

from tests.k8s.apiserver import KubeApiServer
from tests.support.api import World
from tests.support.telemetry import (
    MIB,
    NS,
    MetricsServer,
    add_cluster,
    cgroup_root,
    forget,
    recorded,
    running_session,
    serving,
    session_pod,
    set_counters,
    write_pod_cgroup,
)

GIB = 1024 * MIB

# pod name → (cgroup driver, QoS class, runtime)
LAYOUT = {
    "s-hami-a": ("systemd", "guaranteed", "containerd"),
    "s-hami-b": ("systemd", "burstable", "crio"),
    "s-dcgm-c": ("cgroupfs", "besteffort", "containerd"),
    "s-cpu-d": ("kind", "burstable", "containerd"),
    "s-other-cluster": ("cgroupfs", "guaranteed", "crio"),
    "s-no-label": ("systemd", "besteffort", "containerd"),
    "s-other-ns": ("systemd", "burstable", "containerd"),
    "s-other-node": ("systemd", "guaranteed", "containerd"),
}
# what each pod uses during the second between the two ticks
CPU_USEC = {"s-hami-a": 250_000, "s-hami-b": 1_500_000, "s-dcgm-c": 3_000, "s-cpu-d": 999_500}
MEMORY = {
    "s-hami-a": (3 * GIB, GIB),
    "s-hami-b": (512 * MIB, 0),
    "s-dcgm-c": (6 * GIB, 5 * GIB),
    "s-cpu-d": (GIB, 100 * MIB),
}


async def test_samples_of_exactly_this_nodes_session_pods_arrive_with_the_nodes_numbers(
    kube_api: KubeApiServer, container: Any, world: World, app: Any, tmp_path: Path
) -> None:
    c = container
    cluster_id, key = await add_cluster(c)
    other_cluster, other_key = await add_cluster(c)
    sessions = {
        "s-hami-a": await running_session(c, world, cluster_id),
        "s-hami-b": await running_session(c, world, cluster_id),
        "s-dcgm-c": await running_session(c, world, cluster_id),
        "s-cpu-d": await running_session(c, world, cluster_id, gpu=False),
        "s-other-ns": await running_session(c, world, cluster_id),
        "s-other-node": await running_session(c, world, cluster_id),
        "s-other-cluster": await running_session(c, world, other_cluster),
    }
    made = [s.id for s in sessions.values()]
    root = cgroup_root(tmp_path)
    uids: dict[str, str] = {}
    for name, (driver, qos, runtime) in LAYOUT.items():
        session = sessions.get(name)
        seeded = kube_api.seed(
            session_pod(
                name,
                "",
                "gpu-node-2" if name == "s-other-node" else "gpu-node-1",
                None if name == "s-no-label" else str(session.id if session else uuid.uuid4()),
                namespace="default" if name == "s-other-ns" else NS,
            )
        )
        uids[name] = seeded["metadata"]["uid"]  # the API server gives pods their UID
        write_pod_cgroup(
            root,
            uids[name],
            driver=driver,
            qos=qos,
            runtime=runtime,
            usage_usec=10_000_000,
            memory_current=GIB,
            inactive_file=0,
        )
    kubeconfig = kube_api.write_kubeconfig(tmp_path / "agent.kubeconfig", token="agent-token", user="gshare-agent")
    hami_text = recorded("hami_vgpu_monitor_legacy.prom") + recorded("hami_vgpu_monitor.prom")
    try:
        with MetricsServer({"/hami": hami_text, "/dcgm": recorded("dcgm_exporter.prom")}) as exporters:
            async with serving(app) as cp_url:
                settings = AgentSettings(
                    cluster_id=cluster_id,
                    node_name="gpu-node-1",
                    callback_url=f"{cp_url}/callbacks",
                    private_key_path="unused",
                    kubeconfig=str(kubeconfig),
                    cgroup_root=str(root),
                    hami_metrics_url=f"{exporters.url}/hami",
                    dcgm_metrics_url=f"{exporters.url}/dcgm",
                )
                now = [1000.0]
                poster = UsagePoster(Origin(settings.callback_url), CallbackSigner(cluster_id, key), "gpu-node-1")
                agent = Agent(settings, KubeClient.from_kubeconfig(str(kubeconfig)), poster, monotonic=lambda: now[0])

                assert await asyncio.to_thread(agent.tick) == []  # the CPU baseline
                now[0] += 2.0
                for name, (driver, qos, _runtime) in LAYOUT.items():
                    d = root / _dir(root, uids[name], driver, qos)
                    current, inactive = MEMORY.get(name, (GIB, 0))
                    set_counters(
                        d,
                        usage_usec=10_000_000 + 2 * CPU_USEC.get(name, 0),
                        memory_current=current,
                        inactive_file=inactive,
                    )
                batch = await asyncio.to_thread(agent.tick)
                # the agent saw this node's labelled pods of its namespace only
                assert sorted(s["pod"] for s in batch) == [
                    "s-cpu-d",
                    "s-dcgm-c",
                    "s-hami-a",
                    "s-hami-b",
                    "s-other-cluster",
                ]
                assert await asyncio.to_thread(poster.send_waiting)
                assert poster.waiting == 0 and poster.sent_batches == 1

                got = {name: await c.usage.recent(s.id) for name, s in sessions.items()}
                assert {n for n, v in got.items() if v} == {"s-hami-a", "s-hami-b", "s-dcgm-c", "s-cpu-d"}
                numbers = {
                    n: (v[-1].cpu_millicores, v[-1].memory_mib, v[-1].gpu_util_percent, v[-1].gpu_memory_mib)
                    for n, v in got.items()
                    if v
                }
                assert numbers == {
                    # HAMi legacy names (recorded): util 99, vGPU memory 2109867008 B
                    "s-hami-a": (250, 2048, 99.0, 2012),
                    # HAMi current names: mean of 42 and 0 over two vGPUs, memory summed
                    "s-hami-b": (1500, 512, 21.0, 4000),
                    # dcgm-exporter (recorded): GPU_UTIL 78, FB_USED 12792 MiB
                    "s-dcgm-c": (3, 1024, 78.0, 12792),
                    # no GPU: zeros; 999.5 millicores rounds to 1000
                    "s-cpu-d": (1000, 924, 0.0, 0),
                }
                assert all(len(v) == 1 for v in got.values() if v)
                # the agent listed with the node's field selector and the session label
                listed = [r for r in kube_api.requests if r.path.endswith("/pods")]
                assert [(r.method, r.path, r.query, r.user) for r in listed] == [
                    (
                        "GET",
                        f"/api/v1/namespaces/{NS}/pods",
                        {
                            "fieldSelector": "spec.nodeName=gpu-node-1",
                            "labelSelector": "gshare.io/session-id,app.kubernetes.io/managed-by=gshare-operator",
                            "resourceVersion": "0",
                        },
                        "gshare-agent",
                    )
                ]  # once: the pod list is refreshed every 10 s, not every tick

                # a forged signature (a key that is not the cluster's) and another cluster's
                # key are refused before anything is read: nothing more is stored
                body = poster.body(batch)
                async with httpx.AsyncClient(base_url=cp_url) as h:
                    for signer, code in (
                        (CallbackSigner(cluster_id, Ed25519PrivateKey.generate()), "CALLBACK_BAD_SIGNATURE"),
                        (CallbackSigner(other_cluster, other_key), "CALLBACK_CLUSTER_MISMATCH"),
                    ):
                        r = await h.post(
                            "/callbacks/usage", content=body, headers={"Authorization": f"Bearer {signer.sign(body)}"}
                        )
                        assert r.status_code == 401 and r.json()["code"] == code, r.text
                    # the other cluster speaking for itself about this cluster's sessions: taken
                    # as its report, and every sample ignored (only its own sessions count)
                    other = UsagePoster(Origin(settings.callback_url), CallbackSigner(other_cluster, other_key), "n")
                    own_body = other.body(batch)
                    r = await h.post(
                        "/callbacks/usage",
                        content=own_body,
                        headers={"Authorization": f"Bearer {CallbackSigner(other_cluster, other_key).sign(own_body)}"},
                    )
                    assert r.status_code == 202 and r.json() == {"accepted": 1, "ignored": 4, "invalid": 0}, r.text
                for name, s in sessions.items():
                    assert len(await c.usage.recent(s.id)) == (1 if name in numbers or name == "s-other-cluster" else 0)
    finally:
        await forget(c, cluster_id, made)
        await forget(c, other_cluster, [])


def _dir(root: Path, uid: str, driver: str, qos: str) -> Path:
    from tests.support.telemetry import pod_cgroup_dir

    return pod_cgroup_dir(root, uid, driver=driver, qos=qos).relative_to(root)
