"""The test API server behaves like Kubernetes for the real kubernetes-asyncio client."""

from __future__ import annotations

import asyncio

import pytest
from kubernetes_asyncio import client, watch
from kubernetes_asyncio.client.exceptions import ApiException

from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet

NS = "gshare-sessions"


def pod(name: str, **labels: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": labels},
        "spec": {"containers": [{"name": "main", "image": "busybox:1.36"}]},
    }


def session(name: str, **spec: object) -> dict:
    body = {
        "apiVersion": "gshare.io/v1alpha1",
        "kind": "GShareSession",
        "metadata": {"name": name},
        "spec": {
            "sessionId": f"id-{name}",
            "owner": {"userId": "u1", "username": "alice"},
            "image": "jupyter/base-notebook:latest",
            "resources": {"cpu": "2", "memory": "4Gi"},
        },
    }
    body["spec"].update(spec)
    return body


async def test_discovery_and_version(kube_client: client.ApiClient) -> None:
    version = await client.VersionApi(kube_client).get_code()
    assert version.major == "1"
    groups = await client.ApisApi(kube_client).get_api_versions()
    assert "gshare.io" in {g.name for g in groups.groups}
    resources = await client.CoreV1Api(kube_client).get_api_resources()
    assert {"pods", "pods/status", "nodes"} <= {r.name for r in resources.resources}


async def test_create_get_list_delete_pod(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    created = await core.create_namespaced_pod(NS, pod("p1", app="x"))
    assert created.metadata.uid and created.metadata.resource_version
    assert created.status.phase == "Pending"
    assert created.metadata.generation == 1
    with pytest.raises(ApiException) as info:
        await core.create_namespaced_pod(NS, pod("p1"))
    assert info.value.status == 409
    got = await core.read_namespaced_pod("p1", NS)
    assert got.metadata.uid == created.metadata.uid
    await core.create_namespaced_pod(NS, pod("p2", app="y"))
    listed = await core.list_namespaced_pod(NS, label_selector="app=x")
    assert [p.metadata.name for p in listed.items] == ["p1"]
    listed = await core.list_namespaced_pod(NS, label_selector="app in (x,y),app!=y")
    assert [p.metadata.name for p in listed.items] == ["p1"]
    everywhere = await core.list_pod_for_all_namespaces(field_selector="metadata.name=p2")
    assert [p.metadata.name for p in everywhere.items] == ["p2"]
    await core.delete_namespaced_pod("p1", NS)
    with pytest.raises(ApiException) as info:
        await core.read_namespaced_pod("p1", NS)
    assert info.value.status == 404


async def test_namespace_must_exist(kube_client: client.ApiClient) -> None:
    with pytest.raises(ApiException) as info:
        await client.CoreV1Api(kube_client).create_namespaced_pod("nowhere", pod("p"))
    assert info.value.status == 404


async def test_stale_update_conflicts_and_noop_keeps_version(
    kube_client: client.ApiClient,
) -> None:
    core = client.CoreV1Api(kube_client)
    svc = await core.create_namespaced_service(NS, {"metadata": {"name": "s1"}, "spec": {"ports": [{"port": 80}]}})
    assert svc.spec.cluster_ip
    fresh = await core.read_namespaced_service("s1", NS)
    fresh.metadata.labels = {"a": "b"}
    updated = await core.replace_namespaced_service("s1", NS, fresh)
    assert int(updated.metadata.resource_version) > int(svc.metadata.resource_version)
    svc.metadata.labels = {"a": "c"}
    with pytest.raises(ApiException) as info:
        await core.replace_namespaced_service("s1", NS, svc)
    assert info.value.status == 409
    again = await core.patch_namespaced_service("s1", NS, {"metadata": {"labels": {"a": "b"}}})
    assert again.metadata.resource_version == updated.metadata.resource_version


async def test_generation_bumps_on_spec_change_only(kube_client: client.ApiClient) -> None:
    custom = client.CustomObjectsApi(kube_client)
    args = ("gshare.io", "v1alpha1", NS, "gsharesessions")
    created = await custom.create_namespaced_custom_object(*args, session("s1"))
    assert created["metadata"]["generation"] == 1
    labelled = await custom.patch_namespaced_custom_object(
        *args,
        "s1",
        {"metadata": {"labels": {"x": "1"}}},
        _content_type="application/merge-patch+json",
    )
    assert labelled["metadata"]["generation"] == 1
    changed = await custom.patch_namespaced_custom_object(
        *args, "s1", {"spec": {"image": "other:1"}}, _content_type="application/merge-patch+json"
    )
    assert changed["metadata"]["generation"] == 2
    status = await custom.patch_namespaced_custom_object_status(
        *args,
        "s1",
        {"status": {"phase": "Running"}, "spec": {"image": "ignored"}},
        _content_type="application/merge-patch+json",
    )
    assert status["status"]["phase"] == "Running"
    assert status["spec"]["image"] == "other:1"
    assert status["metadata"]["generation"] == 2
    ignored = await custom.patch_namespaced_custom_object(
        *args, "s1", {"status": {"phase": "Failed"}}, _content_type="application/merge-patch+json"
    )
    assert ignored["status"]["phase"] == "Running"


async def test_custom_resource_is_validated_against_its_crd(
    kube_client: client.ApiClient,
) -> None:
    custom = client.CustomObjectsApi(kube_client)
    bad = session("bad", gpu={"kind": "quantum", "placement": {"node": "n1"}})
    with pytest.raises(ApiException) as info:
        await custom.create_namespaced_custom_object("gshare.io", "v1alpha1", NS, "gsharesessions", bad)
    assert info.value.status == 422


async def test_strategic_merge_is_refused_for_custom_resources(
    kube_client: client.ApiClient,
) -> None:
    custom = client.CustomObjectsApi(kube_client)
    args = ("gshare.io", "v1alpha1", NS, "gsharesessions")
    await custom.create_namespaced_custom_object(*args, session("s2"))
    with pytest.raises(ApiException) as info:
        await custom.patch_namespaced_custom_object(
            *args, "s2", {"spec": {}}, _content_type="application/strategic-merge-patch+json"
        )
    assert info.value.status == 415
    # kubernetes-asyncio's default for a dict body here is JSON patch, which a map is not.
    with pytest.raises(ApiException) as info:
        await custom.patch_namespaced_custom_object(*args, "s2", {"spec": {}})
    assert info.value.status == 400


async def test_json_patch_and_strategic_merge(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    await core.create_namespaced_pod(NS, pod("p3"))
    patched = await core.patch_namespaced_pod(
        "p3", NS, [{"op": "add", "path": "/metadata/labels", "value": {"k": "v"}}]
    )
    assert patched.metadata.labels == {"k": "v"}
    await core.patch_namespaced_pod("p3", NS, {"metadata": {"finalizers": ["a/b"]}})
    both = await core.patch_namespaced_pod("p3", NS, {"metadata": {"finalizers": ["c/d"]}})
    assert both.metadata.finalizers == ["a/b", "c/d"]
    one = await core.patch_namespaced_pod("p3", NS, {"metadata": {"$deleteFromPrimitiveList/finalizers": ["a/b"]}})
    assert one.metadata.finalizers == ["c/d"]
    with pytest.raises(ApiException) as info:
        await core.patch_namespaced_pod("p3", NS, [{"op": "test", "path": "/metadata/labels/k", "value": "nope"}])
    assert info.value.status == 422


async def test_pod_spec_is_immutable(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    await core.create_namespaced_pod(NS, pod("p4"))
    with pytest.raises(ApiException) as info:
        await core.patch_namespaced_pod("p4", NS, {"spec": {"nodeSelector": {"a": "b"}}})
    assert info.value.status == 422


async def test_server_side_apply_ownership(kube_client: client.ApiClient) -> None:
    custom = client.CustomObjectsApi(kube_client)
    args = ("gshare.io", "v1alpha1", NS, "gsharesessions")
    apply = "application/apply-patch+yaml"
    body = session("s3", env=[{"name": "A", "value": "1"}])
    created = await custom.patch_namespaced_custom_object(*args, "s3", body, field_manager="cp", _content_type=apply)
    assert created["metadata"]["generation"] == 1
    assert created["metadata"]["managedFields"][0]["manager"] == "cp"
    same = await custom.patch_namespaced_custom_object(*args, "s3", body, field_manager="cp", _content_type=apply)
    assert same["metadata"]["resourceVersion"] == created["metadata"]["resourceVersion"]
    # Another manager changing a field "cp" owns conflicts, unless forced.
    other = session("s3", image="theirs:1")
    with pytest.raises(ApiException) as info:
        await custom.patch_namespaced_custom_object(*args, "s3", other, field_manager="intruder", _content_type=apply)
    assert info.value.status == 409
    # A field the manager stops applying is removed.
    del body["spec"]["env"]
    pruned = await custom.patch_namespaced_custom_object(*args, "s3", body, field_manager="cp", _content_type=apply)
    assert "env" not in pruned["spec"]
    assert pruned["metadata"]["generation"] == 2
    forced = await custom.patch_namespaced_custom_object(
        *args, "s3", other, field_manager="intruder", force=True, _content_type=apply
    )
    assert forced["spec"]["image"] == "theirs:1"


async def test_finalizers_hold_deletion(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    await core.create_namespaced_config_map(
        NS, {"metadata": {"name": "c1", "finalizers": ["gshare.io/cleanup"]}, "data": {"a": "b"}}
    )
    await core.delete_namespaced_config_map("c1", NS)
    still = await core.read_namespaced_config_map("c1", NS)
    assert still.metadata.deletion_timestamp is not None
    with pytest.raises(ApiException) as info:
        await core.patch_namespaced_config_map("c1", NS, {"metadata": {"finalizers": ["gshare.io/cleanup", "new/one"]}})
    assert info.value.status == 422
    await core.patch_namespaced_config_map("c1", NS, [{"op": "remove", "path": "/metadata/finalizers"}])
    with pytest.raises(ApiException) as info:
        await core.read_namespaced_config_map("c1", NS)
    assert info.value.status == 404


async def test_owner_references_are_garbage_collected(kube_api: KubeApiServer, kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    owner = await core.create_namespaced_config_map(NS, {"metadata": {"name": "owner"}})
    ref = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "name": "owner",
        "uid": owner.metadata.uid,
        "controller": True,
    }
    await core.create_namespaced_secret(
        NS, {"metadata": {"name": "child", "ownerReferences": [ref]}, "stringData": {"k": "v"}}
    )
    await core.create_namespaced_pod(
        NS, {**pod("child-pod"), "metadata": {"name": "child-pod", "ownerReferences": [ref]}}
    )
    secret = await core.read_namespaced_secret("child", NS)
    assert secret.data == {"k": "dg=="}
    await core.delete_namespaced_config_map("owner", NS)
    assert kube_api.get("secrets", "child", NS) is None
    assert kube_api.get("pods", "child-pod", NS) is None


async def test_watch_streams_changes_and_resumes(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    start = await core.list_namespaced_pod(NS)
    rv = start.metadata.resource_version
    events: list[tuple[str, str]] = []

    async def consume() -> None:
        w = watch.Watch()
        async for event in w.stream(
            core.list_namespaced_pod,
            NS,
            resource_version=rv,
            label_selector="w=1",
            timeout_seconds=5,
        ):
            events.append((event["type"], event["object"].metadata.name))
            if len(events) == 4:
                w.stop()

    task = asyncio.create_task(consume())
    await asyncio.sleep(0.05)
    await core.create_namespaced_pod(NS, pod("w1", w="1"))
    await core.create_namespaced_pod(NS, pod("w2", w="0"))
    await core.patch_namespaced_pod("w1", NS, {"metadata": {"annotations": {"a": "b"}}})
    await core.patch_namespaced_pod("w2", NS, {"metadata": {"labels": {"w": "1"}}})
    await core.delete_namespaced_pod("w1", NS)
    await asyncio.wait_for(task, 5)
    assert events == [("ADDED", "w1"), ("MODIFIED", "w1"), ("ADDED", "w2"), ("DELETED", "w1")]

    # Resuming from the first list's version replays the same history.
    replay = []
    async for event in watch.Watch().stream(core.list_namespaced_pod, NS, resource_version=rv, timeout_seconds=0.2):
        replay.append(event["type"])
    assert replay[:2] == ["ADDED", "ADDED"] and replay[-1] == "DELETED"


async def test_watch_of_compacted_version_is_gone(kube_client: client.ApiClient) -> None:
    server = KubeApiServer(event_log_size=2)
    await server.start()
    try:
        async with client.ApiClient(server.configuration()) as api:
            core = client.CoreV1Api(api)
            for i in range(5):
                await core.create_namespaced_pod(NS, pod(f"g{i}"))
            with pytest.raises(ApiException) as info:
                async for _ in watch.Watch().stream(
                    core.list_namespaced_pod, NS, resource_version="1", timeout_seconds=1
                ):
                    pass
            assert info.value.status == 410
    finally:
        await server.stop()


async def test_leases_and_optimistic_concurrency(kube_client: client.ApiClient) -> None:
    coordination = client.CoordinationV1Api(kube_client)
    lease = await coordination.create_namespaced_lease(
        "gshare-system",
        {"metadata": {"name": "op"}, "spec": {"holderIdentity": "a", "leaseDurationSeconds": 5}},
    )
    lease.spec.holder_identity = "b"
    await coordination.replace_namespaced_lease("op", "gshare-system", lease)
    lease.spec.holder_identity = "c"
    with pytest.raises(ApiException) as info:
        await coordination.replace_namespaced_lease("op", "gshare-system", lease)
    assert info.value.status == 409
    assert (await coordination.read_namespaced_lease("op", "gshare-system")).spec.holder_identity == "b"


async def test_node_status_subresource(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    node = await core.create_node({"metadata": {"name": "n1"}, "status": {"capacity": {"nvidia.com/gpu": "4"}}})
    assert node.status.capacity == {"nvidia.com/gpu": "4"}
    patched = await core.patch_node_status("n1", [{"op": "remove", "path": "/status/capacity/nvidia.com~1gpu"}])
    assert not patched.status.capacity


async def test_kubelet_binds_and_starts_pods(kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    await core.create_node({"metadata": {"name": "gpu-1"}, "status": {"allocatable": {"nvidia.com/gpu": "1"}}})
    body = pod("k1")
    body["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "gpu-1"}
    body["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "1"}}
    await core.create_namespaced_pod(NS, body)
    too_big = pod("k2")
    too_big["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "gpu-1"}
    too_big["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "2"}}
    await core.create_namespaced_pod(NS, too_big)
    kubelet = Kubelet(kube_client)
    assert await kubelet.sync_once() == ["k1"]
    running = await core.read_namespaced_pod("k1", NS)
    assert running.status.phase == "Running"
    assert running.spec.node_name == "gpu-1"
    assert running.status.pod_ip
    assert {c.type for c in running.status.conditions} >= {"Ready", "PodScheduled"}
    pending = await core.read_namespaced_pod("k2", NS)
    assert pending.status.phase == "Pending"
    assert pending.status.conditions[0].reason == "Unschedulable"


async def test_injected_faults(kube_api: KubeApiServer, kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    kube_api.fail_next("/pods", status=503, times=1)
    with pytest.raises(ApiException) as info:
        await core.list_namespaced_pod(NS)
    assert info.value.status == 503
    await core.list_namespaced_pod(NS)


async def test_admission_hook_and_tokens(kube_api: KubeApiServer, kube_client: client.ApiClient, tmp_path) -> None:
    from kubernetes_asyncio import config

    kube_api.admission.append(
        lambda user, rt, obj: (
            None if user == "operator" else "only the operator creates pods" if rt.plural == "pods" else None
        )
    )
    with pytest.raises(ApiException) as info:
        await client.CoreV1Api(kube_client).create_namespaced_pod(NS, pod("a1"))
    assert info.value.status == 403
    path = kube_api.write_kubeconfig(tmp_path / "kubeconfig", token="op-token", user="operator")
    configuration = client.Configuration()
    await config.load_kube_config(config_file=str(path), client_configuration=configuration)
    async with client.ApiClient(configuration) as api:
        created = await client.CoreV1Api(api).create_namespaced_pod(NS, pod("a1"))
    assert created.metadata.name == "a1"


async def test_watch_bookmarks(kube_client: client.ApiClient) -> None:
    server_types = []
    async for event in watch.Watch().stream(
        client.CoreV1Api(kube_client).list_namespaced_pod,
        NS,
        resource_version="1",
        allow_watch_bookmarks=True,
        timeout_seconds=1.2,
    ):
        server_types.append(event["type"])
    assert "BOOKMARK" in server_types


async def test_deleting_a_namespace_deletes_its_content(kube_api: KubeApiServer, kube_client: client.ApiClient) -> None:
    core = client.CoreV1Api(kube_client)
    await core.create_namespace({"metadata": {"name": "scratch"}})
    await core.create_namespaced_pod("scratch", pod("p"))
    await core.create_namespaced_config_map("scratch", {"metadata": {"name": "c", "labels": {"x": "1"}}})
    await core.create_namespaced_config_map("scratch", {"metadata": {"name": "d", "labels": {"x": "2"}}})
    await core.delete_collection_namespaced_config_map("scratch", label_selector="x=1")
    assert [c["metadata"]["name"] for c in kube_api.list("configmaps", "scratch")] == ["d"]
    await core.delete_namespace("scratch")
    assert kube_api.list("pods", "scratch") == [] and kube_api.list("configmaps", "scratch") == []
    assert kube_api.get("namespaces", "scratch") is None
