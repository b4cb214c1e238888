"""Node and GPU inventory, read from the nodes and reported to the control plane.

For each node: readiness, cordon state, the labels and annotations GPU plug-ins publish
(`gshare.io/`, `nvidia.com/` and `amd.com/` labels, HAMi's `gpu` node selector, HAMi's
`hami.io/node-nvidia-register` and `hami.io/node-handshake`), capacity and allocatable of
every GPU resource (plus cpu, memory and ephemeral-storage), the sharing mode the node serves
now (a live HAMi registration, time-sliced resources, or neither; `gshare.io/sharing-mode`
only says what was asked for) and *stale resources*: GPU resources still listed in
capacity/allocatable that the served mode does not use (left behind by a mode change until
removed through the node status API). The control plane reads the cards from these
(`infra/cluster/publications.py`); the operator passes them on as published.

Report (`POST {callback}/inventory`)::

    {"type": "inventory", "cluster": "c1", "reportedAt": "…Z", "fingerprint": "…",
     "nodes": [{"name": "gpu-1", "ready": true, "unschedulable": false,
                "sharingMode": "hami", "sharingModeLabelled": false,
                "gpu": {"product": "NVIDIA-A100-SXM4-80GB", "count": 8, "memoryMiB": 81920,
                        "replicas": null},
                "mig": {"config": "all-disabled", "state": "success", "strategy": "mixed",
                        "instances": {"nvidia.com/mig-1g.10gb": 7}},
                "capacity": {"nvidia.com/gpu": "80", …}, "allocatable": {…},
                "staleResources": ["nvidia.com/gpu.shared"],
                "labels": {"gpu": "on", "nvidia.com/…": "…"},
                "annotations": {"hami.io/node-nvidia-register": "GPU-…,10,81559,100,…:",
                                "hami.io/node-handshake": "Reported …"}}]}

With them, the phase of every volume's PersistentVolumeClaim in the sessions namespace (the
claims the control plane labels `gshare.io/volume-id`)::

     "volumes": [{"volumeId": "…", "claim": "vol-…", "phase": "Bound"}]

Sent when the fingerprint (everything but `reportedAt`) changes, and every `interval` seconds;
node and claim changes are watched.
The handshake is left out of the fingerprint: HAMi's scheduler and device plugin rewrite it
every 30 s without anything else changing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from kubernetes_asyncio import client, watch
from kubernetes_asyncio.client.exceptions import ApiException

from gshare_operator.callbacks import CallbackClient, CallbackError
from gshare_operator.constants import GROUP, PLURAL, SHARING_MODE_LABEL, VERSION

log = logging.getLogger(__name__)
JSON = dict[str, Any]

HAMI_RESOURCES = frozenset(
    {"nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpucores", "nvidia.com/gpumem-percentage"}
)
SERVED: dict[str, frozenset[str]] = {
    "hami": HAMI_RESOURCES,
    "timeslicing": frozenset({"nvidia.com/gpu.shared"}),
    "exclusive": frozenset({"nvidia.com/gpu"}),
}
MIG_PREFIX = "nvidia.com/mig-"
HAMI_REGISTER = "hami.io/node-nvidia-register"
HAMI_HANDSHAKE = "hami.io/node-handshake"
REPORTED_ANNOTATIONS = (HAMI_REGISTER, HAMI_HANDSHAKE)
REPORTED_LABEL_PREFIXES = ("gshare.io/", "nvidia.com/", "amd.com/")
REPORTED_LABELS = frozenset({"gpu"})
# Labels that change without the inventory changing (they would defeat "send on change").
VOLATILE_LABELS = frozenset({"nvidia.com/gfd.timestamp"})


def is_gpu_resource(name: str) -> bool:
    return name.startswith(("nvidia.com/", "amd.com/")) or name.endswith("/gpu")


def _int_label(labels: dict[str, str], key: str) -> int | None:
    try:
        return int(labels[key])
    except (KeyError, ValueError):
        return None


def served_sharing_mode(labels: dict[str, str], annotations: dict[str, str], allocatable: dict[str, str]) -> str:
    """What the node serves: HAMi when its registration is live (not given up by the
    scheduler, its `nvidia.com/gpu` allocatable), time slicing when the shared resource or
    GFD's time-slicing strategy shows, otherwise exclusive."""
    handshake = annotations.get(HAMI_HANDSHAKE, "")
    if (
        annotations.get(HAMI_REGISTER)
        and not handshake.startswith("Deleted")
        and _to_int(allocatable.get("nvidia.com/gpu")) > 0
    ):
        return "hami"
    if (
        _to_int(allocatable.get("nvidia.com/gpu.shared")) > 0
        or labels.get("nvidia.com/gpu.sharing-strategy") == "time-slicing"
    ):
        return "timeslicing"
    return "exclusive"


def _mig_enabled(labels: dict[str, str]) -> bool:
    config = labels.get("nvidia.com/mig.config")
    return bool(config) and config != "all-disabled"


def stale_resources(mode: str, labels: dict[str, str], resources: set[str]) -> list[str]:
    served = SERVED.get(mode, frozenset())
    stale = []
    for name in sorted(resources):
        if not name.startswith("nvidia.com/"):
            continue  # other vendors' whole devices are not governed by the sharing mode
        if name.startswith(MIG_PREFIX):
            if not _mig_enabled(labels):
                stale.append(name)
        elif name not in served:
            stale.append(name)
    return stale


def _to_int(value: Any) -> int:
    try:
        return int(float(str(value)))
    except (TypeError, ValueError):
        return 0


def node_inventory(node: JSON) -> JSON:
    meta, spec, status = node.get("metadata") or {}, node.get("spec") or {}, node.get("status") or {}
    labels: dict[str, str] = meta.get("labels") or {}
    capacity: dict[str, str] = {k: str(v) for k, v in (status.get("capacity") or {}).items()}
    allocatable: dict[str, str] = {k: str(v) for k, v in (status.get("allocatable") or {}).items()}
    annotations: dict[str, str] = {
        k: str(v) for k, v in (meta.get("annotations") or {}).items() if k in REPORTED_ANNOTATIONS
    }
    keep = {"cpu", "memory", "ephemeral-storage"}
    gpu_names = {k for k in set(capacity) | set(allocatable) if is_gpu_resource(k)}
    labelled = labels.get(SHARING_MODE_LABEL)
    mode = served_sharing_mode(labels, annotations, allocatable)
    ready = any(c.get("type") == "Ready" and c.get("status") == "True" for c in status.get("conditions") or [])
    return {
        "name": meta.get("name"),
        "ready": ready,
        "unschedulable": bool(spec.get("unschedulable", False)),
        "sharingMode": mode,
        "sharingModeLabelled": labelled is not None,
        "sharingModeAsked": labelled,
        "gpu": {
            "product": labels.get("nvidia.com/gpu.product"),
            "count": _int_label(labels, "nvidia.com/gpu.count"),
            "memoryMiB": _int_label(labels, "nvidia.com/gpu.memory"),
            "replicas": _int_label(labels, "nvidia.com/gpu.replicas"),
        },
        "mig": {
            "config": labels.get("nvidia.com/mig.config"),
            "state": labels.get("nvidia.com/mig.config.state"),
            "strategy": labels.get("nvidia.com/mig.strategy"),
            "instances": {k: int(float(v)) for k, v in sorted(allocatable.items()) if k.startswith(MIG_PREFIX)},
        },
        "capacity": {k: v for k, v in sorted(capacity.items()) if k in gpu_names or k in keep},
        "allocatable": {k: v for k, v in sorted(allocatable.items()) if k in gpu_names or k in keep},
        "staleResources": stale_resources(mode, labels, gpu_names),
        "labels": {
            k: v
            for k, v in sorted(labels.items())
            if (k.startswith(REPORTED_LABEL_PREFIXES) or k in REPORTED_LABELS) and k not in VOLATILE_LABELS
        },
        "annotations": annotations,
    }


VOLUME_LABEL = "gshare.io/volume-id"


def claim_phases(claims: list[JSON]) -> list[JSON]:
    """The volumes' claims as reported: volume id, claim name, phase (`Pending` until the
    claim has a status)."""
    entries = []
    for pvc in claims:
        meta = pvc.get("metadata") or {}
        volume_id = (meta.get("labels") or {}).get(VOLUME_LABEL)
        if not volume_id or meta.get("deletionTimestamp"):
            continue
        phase = (pvc.get("status") or {}).get("phase") or "Pending"
        entries.append({"volumeId": str(volume_id), "claim": str(meta.get("name")), "phase": str(phase)})
    return sorted(entries, key=lambda e: e["claim"])


def cluster_inventory(nodes: list[JSON], claims: list[JSON] | None = None) -> JSON:
    entries = sorted((node_inventory(n) for n in nodes), key=lambda n: n["name"] or "")
    volumes = claim_phases(claims or [])
    steady = [{**e, "annotations": {k: v for k, v in e["annotations"].items() if k != HAMI_HANDSHAKE}} for e in entries]
    fingerprint = hashlib.sha256(
        json.dumps({"nodes": steady, "volumes": volumes}, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    return {"nodes": entries, "volumes": volumes, "fingerprint": fingerprint}


class InventoryReporter:
    """Watches nodes; sends the inventory when it changes and every `interval` seconds."""

    def __init__(
        self,
        api_client: client.ApiClient,
        callbacks: CallbackClient,
        *,
        interval: float = 300.0,
        debounce: float = 0.2,
        label_selector: str | None = None,
        namespace: str = "gshare-sessions",
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._core = client.CoreV1Api(api_client)
        self._custom = client.CustomObjectsApi(api_client)
        self._api_client = api_client
        self._callbacks = callbacks
        self._interval = interval
        self._debounce = debounce
        self._selector = label_selector
        self._namespace = namespace
        self._clock = clock
        self._changed = asyncio.Event()
        self.last_sent: str | None = None
        self.sent = 0

    async def snapshot(self) -> JSON:
        if self._selector:
            nodes = await self._core.list_node(label_selector=self._selector)
        else:
            nodes = await self._core.list_node()
        raw = [self._api_client.sanitize_for_serialization(n) for n in nodes.items]
        pvcs = await self._core.list_namespaced_persistent_volume_claim(self._namespace, label_selector=VOLUME_LABEL)
        claims = [self._api_client.sanitize_for_serialization(c) for c in pvcs.items]
        return cluster_inventory(raw, claims)

    async def report_once(self, *, force: bool = False) -> bool:
        inventory = await self.snapshot()
        if not force and inventory["fingerprint"] == self.last_sent:
            return False
        # the sessions this cluster has (as of `sessionsListedAt`): the control plane re-places
        # a session it believes running that is not among them (its GShareSession vanished)
        listed_at = self._clock().strftime("%Y-%m-%dT%H:%M:%SZ")
        listing = await self._custom.list_namespaced_custom_object(GROUP, VERSION, self._namespace, PLURAL)
        present = sorted(
            str(spec["sessionId"])
            for item in listing.get("items", [])
            if (spec := item.get("spec") or {}).get("sessionId")
        )
        await self._callbacks.inventory(
            {
                **inventory,
                "reportedAt": self._clock().strftime("%Y-%m-%dT%H:%M:%SZ"),
                "sessions": present,
                "sessionsListedAt": listed_at,
            }
        )
        self.last_sent = inventory["fingerprint"]
        self.sent += 1
        return True

    async def run(self) -> None:
        watchers = [
            asyncio.create_task(self._watch_nodes(), name="inventory-node-watch"),
            asyncio.create_task(self._watch_claims(), name="inventory-claim-watch"),
        ]
        failures = 0
        loop = asyncio.get_running_loop()
        next_periodic = loop.time()
        try:
            while True:
                force = loop.time() >= next_periodic
                try:
                    await self.report_once(force=force)
                    failures = 0
                    if force:
                        next_periodic = loop.time() + self._interval
                    wait = max(0.0, next_periodic - loop.time())
                except (CallbackError, ApiException, OSError) as exc:
                    failures += 1
                    wait = min(60.0, 0.5 * 2 ** min(failures, 7)) * random.uniform(0.8, 1.2)
                    log.warning("inventory report failed (%s); retrying in %.1fs", exc, wait)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), wait)
                    await asyncio.sleep(self._debounce)  # coalesce bursts of node updates
                self._changed.clear()
        finally:
            for watcher in watchers:
                watcher.cancel()
            for watcher in watchers:
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher

    async def _watch_nodes(self) -> None:
        kwargs: JSON = {"label_selector": self._selector} if self._selector else {}
        await self._watch(self._core.list_node, "node", **kwargs)

    async def _watch_claims(self) -> None:
        await self._watch(
            self._core.list_namespaced_persistent_volume_claim, "claim", self._namespace, label_selector=VOLUME_LABEL
        )

    async def _watch(self, lister: Any, what: str, *args: Any, **extra: Any) -> None:
        resource_version: str | None = None
        while True:
            w = watch.Watch()
            try:
                kwargs: JSON = {"allow_watch_bookmarks": True, **extra}
                if resource_version:
                    kwargs["resource_version"] = resource_version
                async for event in w.stream(lister, *args, **kwargs):
                    if event["type"] != "BOOKMARK":
                        self._changed.set()
                    resource_version = w.resource_version
            except ApiException as exc:
                if exc.status == 410:
                    resource_version = None
                else:
                    log.warning("%s watch failed: %s", what, exc.status)
                    await asyncio.sleep(1.0)
            except (TimeoutError, OSError) as exc:
                log.warning("%s watch interrupted: %r", what, exc)
                await asyncio.sleep(1.0)
            finally:
                await w.close()
