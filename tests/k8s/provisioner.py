"""A dynamic volume provisioner and the PV controller's binding, for the test API server.

In a real cluster a claim of a StorageClass is provisioned by the class's provisioner (e.g. an
NFS CSI driver, rancher's local-path-provisioner), the PV controller binds it and sets
`status.phase: Bound`, `status.accessModes` and `status.capacity.storage`; a claim its class
cannot serve (unknown class, an access mode the provisioner does not offer) stays `Pending`
with a `ProvisioningFailed` event; a bound claim whose volume disappears becomes `Lost`
(Kubernetes' PersistentVolumeClaim phases: Pending, Bound, Lost).

`Provisioner(api_client, {"nfs": ("ReadWriteMany", "ReadWriteOnce"), "local": ("ReadWriteOnce",)})`
plays that for the classes given: it watches the claims of the namespace and binds each one it
can, at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from kubernetes_asyncio import client, watch
from kubernetes_asyncio.client.exceptions import ApiException

log = logging.getLogger(__name__)


class Provisioner:
    __test__ = False

    def __init__(
        self,
        api_client: client.ApiClient,
        classes: Mapping[str, tuple[str, ...]],
        namespace: str = "gshare-sessions",
    ) -> None:
        self.core = client.CoreV1Api(api_client)
        self.api_client = api_client
        self.classes = dict(classes)
        self.namespace = namespace
        self.refused: dict[str, str] = {}
        self._task: asyncio.Task[None] | None = None

    async def handle(self, pvc: dict[str, Any]) -> None:
        meta, spec = pvc["metadata"], pvc.get("spec") or {}
        if meta.get("deletionTimestamp") or (pvc.get("status") or {}).get("phase") in ("Bound", "Lost"):
            return
        name, cls = meta["name"], spec.get("storageClassName")
        modes = list(spec.get("accessModes") or [])
        offered = self.classes.get(str(cls))
        if offered is None:
            reason = f'storageclass.storage.k8s.io "{cls}" not found'
        elif not modes or any(m not in offered for m in modes):
            reason = f"the provisioner of {cls} does not support access modes {modes}"
        else:
            storage = ((spec.get("resources") or {}).get("requests") or {}).get("storage")
            await self.core.patch_namespaced_persistent_volume_claim_status(
                name,
                self.namespace,
                {"status": {"phase": "Bound", "accessModes": modes, "capacity": {"storage": storage}}},
            )
            return
        if self.refused.get(name) != reason:
            self.refused[name] = reason
            await self._event(name, reason)
            await self.core.patch_namespaced_persistent_volume_claim_status(
                name, self.namespace, {"status": {"phase": "Pending"}}
            )

    async def mark_lost(self, name: str) -> None:
        """The claim's volume is gone (the PV controller marks the claim Lost)."""
        await self.core.patch_namespaced_persistent_volume_claim_status(
            name, self.namespace, {"status": {"phase": "Lost"}}
        )

    async def _event(self, claim: str, message: str) -> None:
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        await self.core.create_namespaced_event(
            self.namespace,
            {
                "apiVersion": "v1",
                "kind": "Event",
                "metadata": {"generateName": f"{claim}.", "namespace": self.namespace},
                "involvedObject": {"kind": "PersistentVolumeClaim", "name": claim, "namespace": self.namespace},
                "reason": "ProvisioningFailed",
                "message": message,
                "type": "Warning",
                "firstTimestamp": now,
                "lastTimestamp": now,
            },
        )

    async def run(self) -> None:
        while True:
            w = watch.Watch()
            try:
                async for event in w.stream(self.core.list_namespaced_persistent_volume_claim, self.namespace):
                    if event["type"] in ("ADDED", "MODIFIED"):
                        try:
                            await self.handle(event["raw_object"])
                        except ApiException as exc:
                            if exc.status not in (404, 409):
                                raise
            except ApiException as exc:
                log.warning("test provisioner watch ended: %s", exc.status)
                await asyncio.sleep(0.05)
            finally:
                await w.close()

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name="test-provisioner")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
