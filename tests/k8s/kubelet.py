"""A test kubelet (and scheduler) for the test API server.

It plays the parts a cluster would: binds each pending pod to the node its `nodeName` or
`nodeSelector["kubernetes.io/hostname"]` names (through the `pods/binding` subresource, as
kube-scheduler does), refuses nodes that do not exist or do not offer the extended resources
(`nvidia.com/...`) the pod asks for, and then reports the pod Running through the status
subresource (phase, conditions, podIP, hostIP, startTime, containerStatuses), so an operator
watching pods sees them start. Everything goes through kubernetes-asyncio over HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from kubernetes_asyncio import client, watch
from kubernetes_asyncio.client.exceptions import ApiException

log = logging.getLogger(__name__)
HOSTNAME_LABEL = "kubernetes.io/hostname"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _quantity(value: Any) -> float:
    text = str(value)
    units = {
        "Ki": 2**10,
        "Mi": 2**20,
        "Gi": 2**30,
        "Ti": 2**40,
        "k": 1e3,
        "M": 1e6,
        "G": 1e9,
        "m": 1e-3,
    }
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


class Kubelet:
    __test__ = False

    def __init__(
        self,
        api_client: client.ApiClient,
        namespace: str = "gshare-sessions",
        *,
        start: bool = True,
    ) -> None:
        self.api_client = api_client
        self.core = client.CoreV1Api(api_client)
        self.namespace = namespace
        self.start_pods = start
        self._task: asyncio.Task[None] | None = None
        self._ip = 10
        self.started: list[str] = []

    # --- one-shot -------------------------------------------------------------------------

    async def sync_once(self) -> list[str]:
        """Schedule and start every pending pod; return the names of pods started."""
        pods = await self.core.list_namespaced_pod(self.namespace)
        started = []
        for pod in pods.items:
            if await self.handle(self.api_client.sanitize_for_serialization(pod)):
                started.append(pod.metadata.name)
        return started

    async def handle(self, pod: dict[str, Any]) -> bool:
        """Schedule and start one pod given as its JSON form; True if it was started."""
        meta, spec, status = pod["metadata"], pod.get("spec") or {}, pod.get("status") or {}
        if meta.get("deletionTimestamp") or status.get("phase") not in (None, "Pending"):
            return False
        node_name = spec.get("nodeName")
        if not node_name:
            target = (spec.get("nodeSelector") or {}).get(HOSTNAME_LABEL)
            if not target or not await self._fits(pod, target):
                return False
            await self.core.create_namespaced_pod_binding(
                meta["name"],
                self.namespace,
                client.V1Binding(
                    metadata=client.V1ObjectMeta(name=meta["name"]),
                    target=client.V1ObjectReference(kind="Node", name=target),
                ),
                # The API answers with a Status, which the generated V1Binding model refuses.
                _preload_content=False,
            )
            node_name = target
        if self.start_pods:
            await self.mark_running(meta["name"], node_name)
            return True
        return False

    async def _fits(self, pod: dict[str, Any], node_name: str) -> bool:
        try:
            node = await self.core.read_node(node_name)
        except ApiException as exc:
            if exc.status == 404:
                await self._unschedulable(pod, f'node "{node_name}" not found')
                return False
            raise
        allocatable = (node.status.allocatable if node.status else None) or {}
        for container in pod["spec"].get("containers") or []:
            limits = (container.get("resources") or {}).get("limits") or {}
            for resource, amount in limits.items():
                if "/" not in resource:
                    continue
                if _quantity(allocatable.get(resource, 0)) < _quantity(amount):
                    await self._unschedulable(pod, f"Insufficient {resource}")
                    return False
        return True

    async def _unschedulable(self, pod: dict[str, Any], message: str) -> None:
        await self.core.patch_namespaced_pod_status(
            pod["metadata"]["name"],
            self.namespace,
            {
                "status": {
                    "conditions": [
                        {
                            "type": "PodScheduled",
                            "status": "False",
                            "reason": "Unschedulable",
                            "message": message,
                            "lastTransitionTime": _now(),
                        }
                    ]
                }
            },
        )

    async def mark_running(self, name: str, node_name: str | None = None) -> None:
        pod = await self.core.read_namespaced_pod(name, self.namespace)
        node_name = node_name or pod.spec.node_name
        self._ip += 1
        now = _now()
        await self.core.patch_namespaced_pod_status(
            name,
            self.namespace,
            {
                "status": {
                    "phase": "Running",
                    "hostIP": "192.168.0.1",
                    "podIP": f"10.244.0.{self._ip}",
                    "podIPs": [{"ip": f"10.244.0.{self._ip}"}],
                    "startTime": now,
                    "conditions": [
                        {"type": t, "status": "True", "lastTransitionTime": now}
                        for t in ("PodScheduled", "Initialized", "ContainersReady", "Ready")
                    ],
                    "containerStatuses": [
                        {
                            "name": c.name,
                            "image": c.image,
                            "imageID": f"{c.image}@sha256:{'0' * 64}",
                            "ready": True,
                            "started": True,
                            "restartCount": 0,
                            "state": {"running": {"startedAt": now}},
                        }
                        for c in pod.spec.containers
                    ],
                }
            },
        )
        self.started.append(name)
        log.debug("pod %s running on %s", name, node_name)

    async def mark_failed(self, name: str, reason: str = "Error", message: str = "") -> None:
        await self.core.patch_namespaced_pod_status(
            name,
            self.namespace,
            {"status": {"phase": "Failed", "reason": reason, "message": message}},
        )

    # --- background -----------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            w = watch.Watch()
            try:
                async for event in w.stream(self.core.list_namespaced_pod, self.namespace):
                    if event["type"] in ("ADDED", "MODIFIED"):
                        try:
                            await self.handle(event["raw_object"])
                        except ApiException as exc:
                            if exc.status not in (404, 409):
                                raise
            except ApiException as exc:
                log.warning("test kubelet watch ended: %s", exc.status)
                await asyncio.sleep(0.05)
            finally:
                await w.close()

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name="test-kubelet")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
