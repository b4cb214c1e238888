"""End to end on the API test server: GShareSession → children → Running → signed callback."""

from __future__ import annotations

import asyncio
import base64
from datetime import UTC, datetime
from typing import Any

import pytest
from kubernetes_asyncio import client

from tests.integration.operator.conftest import (
    CLUSTER,
    GPU_NODE_NAMES,
    HAMI_CARDS,
    NS,
    OperatorFactory,
    Receiver,
    eventually,
)
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet

GPU_REQUESTS: dict[str, dict[str, Any]] = {
    "hami": {
        "kind": "hami",
        "vramMiB": 20480,
        "cores": 25,
        "placement": {"node": "hami-1", "cardUuids": [HAMI_CARDS[0]]},
    },
    "timeslice": {"kind": "timeslice", "placement": {"node": "ts-1"}},
    "mig": {"kind": "mig", "migProfile": "1g.10gb", "placement": {"node": "mig-1"}},
    "exclusive": {"kind": "exclusive", "count": 2, "placement": {"node": "ex-1"}},
}
EXPECTED_LIMITS = {
    "hami": {"nvidia.com/gpu": "1", "nvidia.com/gpumem": "20480", "nvidia.com/gpucores": "25"},
    "timeslice": {"nvidia.com/gpu.shared": "1"},
    "mig": {"nvidia.com/mig-1g.10gb": "1"},
    "exclusive": {"nvidia.com/gpu": "2"},
}


def session(name: str, gpu: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": "gshare.io/v1alpha1",
        "kind": "GShareSession",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "sessionId": f"id-{name}",
            "owner": {"userId": "u-1", "username": "alice", "organization": "acme"},
            "image": "quay.io/jupyter/pytorch-notebook:cuda12-latest",
            "command": ["start-notebook.py"],
            "env": [{"name": "TZ", "value": "UTC"}],
            "resources": {"cpu": "4", "memory": "16Gi", "shm": "2Gi"},
            "volumes": [
                {"name": "home", "claimName": "home-alice", "mountPath": "/home/jovyan"},
                {"name": "datasets", "claimName": "datasets", "mountPath": "/data", "readOnly": True},
            ],
            "endpoints": [
                {"name": "jupyterlab", "port": 8888},
                {"name": "vscode", "port": 8080},
                {"name": "terminal", "port": 7681},
                {"name": "ssh", "port": 2222},
            ],
            "expiresAt": "2030-01-01T00:00:00Z",
        },
    }
    if gpu is not None:
        body["spec"]["gpu"] = gpu
    body["spec"].update(spec)
    return body


async def apply_session(api: client.ApiClient, body: dict[str, Any]) -> dict[str, Any]:
    """What the control plane's adapter does: server-side apply as gshare-control-plane."""
    return await client.CustomObjectsApi(api).patch_namespaced_custom_object(
        "gshare.io",
        "v1alpha1",
        NS,
        "gsharesessions",
        body["metadata"]["name"],
        body,
        field_manager="gshare-control-plane",
        force=True,
        _content_type="application/apply-patch+yaml",
    )


async def delete_session(api: client.ApiClient, name: str) -> None:
    await client.CustomObjectsApi(api).delete_namespaced_custom_object(
        "gshare.io", "v1alpha1", NS, "gsharesessions", name
    )


def restricted_violations(pod: dict[str, Any]) -> list[str]:
    """The Pod Security Standards `restricted` checks that apply to our pods."""
    spec = pod["spec"]
    problems = []
    pod_sc = spec.get("securityContext") or {}
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        if spec.get(key):
            problems.append(key)
    for volume in spec.get("volumes") or []:
        kinds = set(volume) - {"name"}
        if not kinds <= {
            "emptyDir",
            "persistentVolumeClaim",
            "secret",
            "configMap",
            "projected",
            "downwardAPI",
            "ephemeral",
            "csi",
        }:
            problems.append(f"volume type {kinds}")
    for c in spec["containers"]:
        sc = c.get("securityContext") or {}
        if sc.get("privileged"):
            problems.append("privileged")
        if sc.get("allowPrivilegeEscalation") is not False:
            problems.append("allowPrivilegeEscalation")
        if "ALL" not in ((sc.get("capabilities") or {}).get("drop") or []):
            problems.append("capabilities.drop ALL")
        if set((sc.get("capabilities") or {}).get("add") or []) - {"NET_BIND_SERVICE"}:
            problems.append("capabilities.add")
        if not (sc.get("runAsNonRoot") or pod_sc.get("runAsNonRoot")):
            problems.append("runAsNonRoot")
        if (sc.get("runAsUser", pod_sc.get("runAsUser")) or 1) == 0:
            problems.append("runAsUser 0")
        seccomp = (sc.get("seccompProfile") or pod_sc.get("seccompProfile") or {}).get("type")
        if seccomp not in ("RuntimeDefault", "Localhost"):
            problems.append("seccompProfile")
        for port in c.get("ports") or []:
            if port.get("hostPort"):
                problems.append("hostPort")
    return problems


@pytest.mark.parametrize("kind", ["hami", "timeslice", "mig", "exclusive"])
async def test_session_of_each_gpu_kind_runs_and_is_reported(
    kind: str,
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    await operators.start()
    name = f"s-{kind}"
    await apply_session(kube_client, session(name, GPU_REQUESTS[kind]))

    await eventually(lambda: "Running" in receiver.phases(name), message="Running report")
    pod = cluster.get("pods", name, NS)
    assert pod is not None and pod["status"]["phase"] == "Running"
    container = pod["spec"]["containers"][0]
    limits = container["resources"]["limits"]
    assert {k: v for k, v in limits.items() if k.startswith("nvidia.com/")} == EXPECTED_LIMITS[kind]
    node = GPU_REQUESTS[kind]["placement"]["node"]
    assert pod["spec"]["nodeSelector"] == {"kubernetes.io/hostname": node}
    assert pod["spec"]["nodeName"] == node
    annotations = pod["metadata"].get("annotations") or {}
    if kind == "hami":
        assert annotations["nvidia.com/use-gpuuuid"] == HAMI_CARDS[0]
    else:
        assert "nvidia.com/use-gpuuuid" not in annotations
    assert restricted_violations(pod) == []
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    assert mounts["/data"]["readOnly"] is True
    assert mounts["/home/jovyan"]["readOnly"] is False
    assert mounts["/dev/shm"]["name"] == "shm"
    claims = {
        v["persistentVolumeClaim"]["claimName"]: v["persistentVolumeClaim"]["readOnly"]
        for v in pod["spec"]["volumes"]
        if "persistentVolumeClaim" in v
    }
    assert claims == {"home-alice": False, "datasets": True}

    service = cluster.get("services", name, NS)
    assert service is not None
    assert {p["name"]: p["port"] for p in service["spec"]["ports"]} == {
        "jupyterlab": 8888,
        "vscode": 8080,
        "terminal": 7681,
        "ssh": 2222,
    }
    ingress = cluster.get("ingresses", name, NS)
    assert ingress is not None
    assert ingress["spec"]["ingressClassName"] == "nginx"
    assert {r["host"] for r in ingress["spec"]["rules"]} == {
        f"{e}-{name}.sessions.example.test" for e in ("jupyterlab", "vscode", "terminal")
    }
    secret = cluster.get("secrets", f"{name}-access", NS)
    assert secret is not None and len(base64.b64decode(secret["data"]["token"])) >= 32
    for child in (pod, service, ingress, secret):
        assert child["metadata"]["ownerReferences"][0]["kind"] == "GShareSession"

    # The report goes out first, then the status is written (at-least-once reporting).
    cr = await eventually(
        lambda: (c := cluster.get("gsharesessions", name, NS)) and c.get("status", {}).get("phase") == "Running" and c
    )
    status = cr["status"]
    assert status["phase"] == "Running"
    assert status["observedGeneration"] == cr["metadata"]["generation"]
    assert status["node"] == node
    assert "gshare.io/cleanup" in cr["metadata"]["finalizers"]
    urls = {e["name"]: e["url"] for e in status["endpoints"]}
    assert urls["jupyterlab"] == f"http://jupyterlab-{name}.sessions.example.test/"
    assert urls["ssh"].startswith("ssh://")
    ready = next(c for c in status["conditions"] if c["type"] == "Ready")
    assert ready["status"] == "True"

    report = receiver.session_reports(name)[-1]
    assert report["cluster"] == CLUSTER
    assert report["sessionId"] == f"id-{name}"
    assert report["node"] == node
    assert report["endpoints"] == status["endpoints"]
    assert receiver.refusals == []


async def test_deleting_the_session_removes_every_child_and_reports_it(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    await operators.start()
    await apply_session(kube_client, session("s-del", GPU_REQUESTS["hami"]))
    await eventually(lambda: "Running" in receiver.phases("s-del"))

    await delete_session(kube_client, "s-del")
    await eventually(lambda: cluster.get("gsharesessions", "s-del", NS) is None)
    for plural, child in (
        ("pods", "s-del"),
        ("services", "s-del"),
        ("ingresses", "s-del"),
        ("secrets", "s-del-access"),
    ):
        assert cluster.get(plural, child, NS) is None, plural
    assert receiver.phases("s-del")[-1] == "Deleted"


async def test_deleted_pod_is_reported_lost_not_silently_recreated(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    operator = await operators.start()
    await apply_session(kube_client, session("s-lost", GPU_REQUESTS["timeslice"]))
    await eventually(lambda: "Running" in receiver.phases("s-lost"))

    await client.CoreV1Api(kube_client).delete_namespaced_pod("s-lost", NS)
    await eventually(lambda: receiver.phases("s-lost")[-1] == "Failed")
    report = receiver.session_reports("s-lost")[-1]
    assert report["reason"] == "PodLost"
    await operator.controller.wait_idle()
    assert cluster.get("pods", "s-lost", NS) is None
    assert cluster.get("gsharesessions", "s-lost", NS)["status"]["phase"] == "Failed"


async def test_restarting_the_operator_changes_nothing(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    first = await operators.start("op-first")
    for kind in ("hami", "mig"):
        await apply_session(kube_client, session(f"s-keep-{kind}", GPU_REQUESTS[kind]))
    for kind in ("hami", "mig"):
        await eventually(lambda k=kind: "Running" in receiver.phases(f"s-keep-{k}"))
    await first.controller.wait_idle()
    await operators.stop(first)

    def versions() -> dict[tuple[str, str], str]:
        result = {}
        for plural in ("gsharesessions", "pods", "services", "ingresses", "secrets"):
            for obj in cluster.list(plural, NS):
                result[(plural, obj["metadata"]["name"])] = obj["metadata"]["resourceVersion"]
        return result

    before = versions()
    reports_before = len(receiver.session_reports())
    mark = len(cluster.requests)
    second = await operators.start("op-second")
    await eventually(lambda: second.controller.reconciles >= 2)
    await second.controller.wait_idle()
    assert versions() == before
    writes = [(w.method, w.path) for w in cluster.writes(mark) if "/leases" not in w.path]
    assert writes == []
    assert len(receiver.session_reports()) == reports_before


async def test_only_the_leader_reconciles_and_a_follower_takes_over(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    a = await operators.start("op-a")
    await eventually(lambda: a.is_leader, message="first operator leads")
    b = await operators.start("op-b")
    await asyncio.sleep(0.3)
    assert not b.is_leader

    await apply_session(kube_client, session("s-lead", GPU_REQUESTS["exclusive"]))
    await eventually(lambda: "Running" in receiver.phases("s-lead"))
    assert a.controller.reconciles > 0
    assert b.controller.reconciles == 0
    lease = await client.CoordinationV1Api(kube_client).read_namespaced_lease("gshare-operator", "gshare-system")
    assert lease.spec.holder_identity == "op-a"

    await operators.stop(a)  # releases the lease on the way out
    await eventually(lambda: b.is_leader, message="follower takes over")
    await apply_session(kube_client, session("s-after", GPU_REQUESTS["timeslice"]))
    await eventually(lambda: "Running" in receiver.phases("s-after"))
    assert b.controller.reconciles > 0


async def test_temporary_api_failures_are_retried(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    cluster.fail_next("/namespaces/gshare-sessions/pods", method="POST", status=500, times=2)
    cluster.fail_next("/gsharesessions/s-retry/status", method="PATCH", status=429, times=1)
    await operators.start()
    await apply_session(kube_client, session("s-retry", GPU_REQUESTS["mig"]))
    await eventually(lambda: "Running" in receiver.phases("s-retry"))
    posts = [r for r in cluster.requests if r.method == "POST" and r.path.endswith("/pods")]
    assert len(posts) == 3


async def test_unavailable_control_plane_is_retried_until_it_answers(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    receiver.fail_with = 503
    operator = await operators.start()
    await apply_session(kube_client, session("s-cp-down", GPU_REQUESTS["timeslice"]))
    await eventually(lambda: cluster.get("pods", "s-cp-down", NS) is not None)
    await asyncio.sleep(0.3)
    cr = cluster.get("gsharesessions", "s-cp-down", NS)
    reported = next(c for c in cr["status"]["conditions"] if c["type"] == "Reported")
    assert reported["status"] == "False"
    receiver.fail_with = None
    await eventually(lambda: "Running" in receiver.phases("s-cp-down"), within=8)
    await operator.controller.wait_idle()


async def test_invalid_session_is_failed_and_reported_once(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    operator = await operators.start()
    bad = dict(GPU_REQUESTS["hami"], placement={"node": "hami-1", "cardUuids": ["not-a-uuid"]})
    await apply_session(kube_client, session("s-bad", bad))
    await eventually(lambda: receiver.phases("s-bad") == ["Failed"])
    await operator.controller.wait_idle()
    assert receiver.session_reports("s-bad")[0]["reason"] == "InvalidSpec"
    assert cluster.get("pods", "s-bad", NS) is None
    # A corrected spec (new generation) recovers.
    await apply_session(kube_client, session("s-bad", GPU_REQUESTS["hami"]))
    await eventually(lambda: "Running" in receiver.phases("s-bad"))


async def test_inventory_is_reported_with_stale_resources_and_on_change(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    receiver: Receiver,
) -> None:
    await operators.start()
    await eventually(lambda: receiver.inventories(), message="first inventory")
    nodes = {n["name"]: n for n in receiver.inventories()[0]["nodes"]}
    assert set(nodes) == set(GPU_NODE_NAMES)
    assert nodes["hami-1"]["sharingMode"] == "hami"
    # real HAMi lists no gpumem: the cards come from its registration annotation
    assert "nvidia.com/gpumem" not in nodes["hami-1"]["allocatable"]
    assert nodes["hami-1"]["annotations"]["hami.io/node-nvidia-register"].startswith(HAMI_CARDS[0])
    assert nodes["ts-1"]["gpu"]["replicas"] == 4
    assert nodes["mig-1"]["mig"]["instances"] == {
        "nvidia.com/mig-1g.10gb": 6,
        "nvidia.com/mig-2g.20gb": 4,
        "nvidia.com/mig-3g.40gb": 0,
    }
    assert nodes["ex-1"]["staleResources"] == ["nvidia.com/gpu.shared"]
    assert all(not n["staleResources"] for name, n in nodes.items() if name != "ex-1")
    assert receiver.inventories()[0]["cluster"] == CLUSTER

    # Removing the stale resource through the node status API is reported.
    await client.CoreV1Api(kube_client).patch_node_status(
        "ex-1",
        [
            {"op": "remove", "path": "/status/capacity/nvidia.com~1gpu.shared"},
            {"op": "remove", "path": "/status/allocatable/nvidia.com~1gpu.shared"},
        ],
    )
    await eventually(lambda: len(receiver.inventories()) >= 2, message="inventory on change")
    latest = {n["name"]: n for n in receiver.inventories()[-1]["nodes"]}
    assert latest["ex-1"]["staleResources"] == []


async def test_only_the_operators_account_may_create_session_pods(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    from tests.k8s.admission import policy_hook

    cluster.admission.append(policy_hook())
    cluster.tokens["operator-token"] = "system:serviceaccount:gshare-system:gshare-operator"
    await operators.start(token="operator-token")
    await apply_session(kube_client, session("s-guarded", GPU_REQUESTS["mig"]))
    await eventually(lambda: "Running" in receiver.phases("s-guarded"))

    pushed = {"metadata": {"name": "pushed"}, "spec": {"containers": [{"name": "x", "image": "busybox"}]}}
    with pytest.raises(client.ApiException) as info:
        await client.CoreV1Api(kube_client).create_namespaced_pod(NS, pushed)
    assert info.value.status == 403
    await client.CoreV1Api(kube_client).create_namespaced_pod("default", pushed)


async def test_a_changed_spec_replaces_the_pod(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    operator = await operators.start()
    await apply_session(kube_client, session("s-change", GPU_REQUESTS["hami"]))
    await eventually(lambda: "Running" in receiver.phases("s-change"))
    first = cluster.get("pods", "s-change", NS)
    token = cluster.get("secrets", "s-change-access", NS)["data"]["token"]

    await apply_session(
        kube_client, session("s-change", GPU_REQUESTS["hami"], image="quay.io/jupyter/base-notebook:2026")
    )
    await eventually(
        lambda: (
            (p := cluster.get("pods", "s-change", NS)) is not None
            and p["metadata"]["uid"] != first["metadata"]["uid"]
            and p["status"]["phase"] == "Running"
        )
    )
    await eventually(lambda: cluster.get("gsharesessions", "s-change", NS)["status"]["phase"] == "Running")
    await operator.controller.wait_idle()
    pod = cluster.get("pods", "s-change", NS)
    assert pod["spec"]["containers"][0]["image"] == "quay.io/jupyter/base-notebook:2026"
    cr = cluster.get("gsharesessions", "s-change", NS)
    assert cr["metadata"]["generation"] == 2
    assert cr["status"]["observedGeneration"] == 2
    assert cluster.get("secrets", "s-change-access", NS)["data"]["token"] == token  # credentials are stable
    assert receiver.phases("s-change")[-1] == "Running"


async def test_sessions_on_a_lost_node_are_reported_failed(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    await operators.start(node_lost_after=0.5)
    await apply_session(kube_client, session("s-node", GPU_REQUESTS["timeslice"]))
    await eventually(lambda: "Running" in receiver.phases("s-node"))
    core = client.CoreV1Api(kube_client)

    def ready(value: str) -> dict[str, Any]:
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return {"status": {"conditions": [{"type": "Ready", "status": value, "lastTransitionTime": now}]}}

    await core.patch_node_status("ts-1", ready("Unknown"))  # the kubelet stopped posting status
    await eventually(lambda: receiver.phases("s-node")[-1] == "Failed", within=5)
    assert receiver.session_reports("s-node")[-1]["reason"] == "NodeLost"

    await core.patch_node_status("ts-1", ready("True"))  # back before the control plane acted
    await eventually(lambda: receiver.phases("s-node")[-1] == "Running", within=5)


async def test_a_new_operator_rendering_does_not_restart_running_sessions(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    first = await operators.start("op-old")
    await apply_session(kube_client, session("s-upgrade", GPU_REQUESTS["mig"]))
    await eventually(lambda: "Running" in receiver.phases("s-upgrade"))
    await first.controller.wait_idle()
    await operators.stop(first)
    # As if the pod had been built by an older operator that rendered pods differently.
    await client.CoreV1Api(kube_client).patch_namespaced_pod(
        "s-upgrade", NS, {"metadata": {"annotations": {"gshare.io/spec-hash": "0123456789abcdef"}}}
    )
    uid = cluster.get("pods", "s-upgrade", NS)["metadata"]["uid"]
    reports = len(receiver.session_reports("s-upgrade"))

    second = await operators.start("op-new")
    await eventually(lambda: second.controller.reconciles >= 1)
    await second.controller.wait_idle()
    assert cluster.get("pods", "s-upgrade", NS)["metadata"]["uid"] == uid
    assert len(receiver.session_reports("s-upgrade")) == reports


async def test_inventory_is_also_sent_periodically(operators: OperatorFactory, receiver: Receiver) -> None:
    await operators.start(inventory_interval=0.3)
    await eventually(lambda: len(receiver.inventories()) >= 3, message="periodic inventory")
    fingerprints = {r["fingerprint"] for r in receiver.inventories()}
    assert len(fingerprints) == 1  # nothing changed: sent because of the interval
