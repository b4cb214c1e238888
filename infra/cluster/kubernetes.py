"""The Kubernetes `ClusterPort`: GShareSession custom resources applied through kubernetes-asyncio.

`apply` server-side-applies one `GShareSession` per session (field manager
`gshare-control-plane`, namespace `gshare-sessions`, name `s-<session uuid>`), so applying the
same spec twice changes nothing; `pause` and `delete` delete it (the operator's finalizer
removes every child first and then reports `Deleted`). Progress does not come back through
this adapter: the cluster's operator POSTs signed reports, which the control plane verifies
(`infra.callbacks.CallbackVerifier`) and turns into `StatusReport`s (`infra.callbacks.reports`).

`read_inventory` reads the nodes: sharing mode from `gshare.io/sharing-mode` (inferred from the
resources when unlabelled), cards from HAMi's `hami.io/node-nvidia-register` annotation (real
UUIDs, VRAM, cores) or else from NVIDIA GPU feature discovery labels (`nvidia.com/gpu.count`,
`.product`, `.memory`; UUIDs then are placeholders `GPU-<node>-<i>`), MIG instances from the
`nvidia.com/mig-<profile>` allocatable counts (Kubernetes does not say which card holds which
instance, so they are assigned to cards in order, at most 7 compute slices each), time-slice
replicas from `nvidia.com/gpu.replicas`, and every GPU resource in capacity/allocatable as
`advertised_resources` (the domain flags the stale ones). Node ids are `<cluster>/<node name>`.

Building the client: `await KubernetesCluster.from_kubeconfig(cluster_id, kubeconfig_text)`
takes the kubeconfig as decrypted text (clusters keep it encrypted at rest; decrypting is the
caller's business), or pass a ready `ApiClient`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from uuid import UUID

import yaml
from kubernetes_asyncio import client, config
from kubernetes_asyncio.client.exceptions import ApiException

from domain.inventory.model import (
    MIG_COMPUTE_SLICES,
    MIG_RESOURCE_PREFIX,
    RESOURCE_GPU_CORES,
    RESOURCE_GPU_MEM,
    RESOURCE_GPU_SHARED,
    Card,
    Cluster,
    GpuKind,
    Inventory,
    MigInstance,
    MigProfile,
    Node,
    Placement,
    SharingMode,
)
from domain.inventory.ports import WorkloadSpec

log = logging.getLogger(__name__)

GROUP, VERSION, PLURAL, KIND = "gshare.io", "v1alpha1", "gsharesessions", "GShareSession"
FIELD_MANAGER = "gshare-control-plane"
SESSIONS_NAMESPACE = "gshare-sessions"
HAMI_REGISTER = "hami.io/node-nvidia-register"
SHARING_MODE_LABEL = "gshare.io/sharing-mode"
# The node labels an inventory keeps (the operator reports the same ones); the GFD timestamp
# changes on every relabel pass without anything else changing.
INVENTORY_LABEL_PREFIXES = ("gshare.io/", "nvidia.com/")
VOLATILE_LABELS = frozenset({"nvidia.com/gfd.timestamp"})
ENDPOINT_NAMES = frozenset({"vscode", "jupyterlab", "terminal", "ssh"})
_KIND_TO_CR = {
    GpuKind.HAMI: "hami",
    GpuKind.SHARED: "timeslice",
    GpuKind.MIG: "mig",
    GpuKind.EXCLUSIVE: "exclusive",
}
_NOT_LABEL = re.compile(r"[^a-z0-9-]+")


class ClusterUnavailable(Exception):
    """The cluster's API could not be reached or refused the request; try again later."""


class WorkloadRefused(Exception):
    """The workload cannot be expressed as a GShareSession (retrying will not help)."""


def resource_name(session_id: UUID) -> str:
    return f"s-{session_id}"


def node_id_for(cluster_id: str, node_name: str) -> str:
    return f"{cluster_id}/{node_name}"


def node_name_of(cluster_id: str, node_id: str) -> str:
    prefix = f"{cluster_id}/"
    return node_id[len(prefix) :] if node_id.startswith(prefix) else node_id


def mig_instance_id(card_uuid: str, profile: str, index: int) -> str:
    return f"{card_uuid}/mig-{profile}/{index}"


def mig_profile_of(instance_id: str) -> str | None:
    match = re.search(r"/mig-([^/]+)/\d+$", instance_id)
    return match.group(1) if match else None


def _volume_name(volume_id: str, index: int, used: set[str]) -> str:
    name = _NOT_LABEL.sub("-", volume_id.lower()).strip("-")[:50] or "volume"
    if not name[0].isalpha():
        name = f"v-{name}"[:50]
    if name in used:
        name = f"{name[:45]}-{index}"
    used.add(name)
    return name


def session_resource(spec: WorkloadSpec, cluster_id: str, *, run_as_user: int | None = None) -> dict[str, Any]:
    """The GShareSession manifest for a workload (see deploy/crds/gshare.io_gsharesessions.yaml)."""
    if spec.is_job:
        raise WorkloadRefused("batch jobs are not run through GShareSession resources yet")
    body: dict[str, Any] = {
        "sessionId": str(spec.session_id),
        "owner": {"userId": spec.owner, "username": spec.owner},
        "image": spec.image,
        "resources": {"cpu": f"{spec.cpu_millicores}m", "memory": f"{spec.memory_mib}Mi"},
    }
    if spec.command:
        body["command"] = list(spec.command)
    if spec.env:
        body["env"] = [{"name": k, "value": v} for k, v in sorted(spec.env.items())]
    if spec.shm_mib:
        body["resources"]["shm"] = f"{spec.shm_mib}Mi"
    if run_as_user is not None:
        body["runAsUser"] = run_as_user
    if spec.placement is not None:
        body["gpu"] = gpu_request(spec.placement, cluster_id)
    if spec.volumes:
        used: set[str] = set()
        body["volumes"] = [
            {
                "name": _volume_name(v.volume_id, i, used),
                "claimName": v.claim_name,
                "mountPath": v.mount_path,
                "readOnly": v.read_only,
            }
            for i, v in enumerate(spec.volumes)
        ]
    endpoints = [{"name": e.name, "port": e.port} for e in spec.endpoints if e.name in ENDPOINT_NAMES]
    if endpoints:
        body["endpoints"] = endpoints
    return {
        "apiVersion": f"{GROUP}/{VERSION}",
        "kind": KIND,
        "metadata": {
            "name": resource_name(spec.session_id),
            "namespace": SESSIONS_NAMESPACE,
            "labels": {"gshare.io/session-id": str(spec.session_id), "app.kubernetes.io/part-of": "gshare"},
        },
        "spec": body,
    }


def gpu_request(placement: Placement, cluster_id: str) -> dict[str, Any]:
    if placement.cluster_id != cluster_id:
        raise WorkloadRefused(f"placement is on cluster {placement.cluster_id!r}, not {cluster_id!r}")
    kind = _KIND_TO_CR[placement.kind]
    request: dict[str, Any] = {
        "kind": kind,
        "placement": {"node": node_name_of(cluster_id, placement.node_id)},
    }
    if placement.kind is GpuKind.HAMI:
        if len(placement.shares) != 1:
            raise WorkloadRefused("a HAMi placement takes a share of exactly one card")
        request["vramMiB"] = placement.vram_mib
        request["cores"] = placement.cores
        request["placement"]["cardUuids"] = list(placement.card_uuids)
    elif placement.kind is GpuKind.MIG:
        instance = placement.mig_instance_id
        profile = mig_profile_of(instance) if instance else None
        if profile is None:
            raise WorkloadRefused(f"MIG instance {instance!r} does not name its profile")
        request["migProfile"] = profile
    elif placement.kind is GpuKind.EXCLUSIVE:
        request["count"] = len(placement.shares)
        request["placement"]["cardUuids"] = list(placement.card_uuids)
    return request


# --- inventory ----------------------------------------------------------------------------------


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(float(str(value)))
    except (TypeError, ValueError):
        return default


def parse_quantity(value: Any) -> float:
    text = str(value).strip()
    factors = {
        "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50,
        "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "m": 10**-3,
    }  # fmt: skip
    for suffix in sorted(factors, key=len, reverse=True):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factors[suffix]
    return float(text)


def hami_devices(annotation: str | None) -> list[dict[str, Any]]:
    """HAMi's device registration: `uuid,count,devmem,devcore,type,numa,healthy:` entries (or,
    in newer HAMi, a JSON list of objects with the same fields)."""
    if not annotation:
        return []
    text = annotation.strip()
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            return []
        return [
            {
                "uuid": str(d.get("id") or d.get("uuid")),
                "vram_mib": _int(d.get("devmem")),
                "cores": _int(d.get("devcore"), 100) or 100,
                "type": str(d.get("type", "")),
                "healthy": bool(d.get("health", True)),
            }
            for d in items
            if isinstance(d, dict) and (d.get("id") or d.get("uuid"))
        ]
    devices = []
    for entry in text.split(":"):
        fields = entry.split(",")
        if len(fields) < 5 or not fields[0]:
            continue
        devices.append(
            {
                "uuid": fields[0],
                "vram_mib": _int(fields[2]),
                "cores": _int(fields[3], 100) or 100,
                "type": fields[4],
                "healthy": len(fields) < 7 or fields[6].strip().lower() == "true",
            }
        )
    return devices


def _model_name(product: str | None, models: Mapping[str, str]) -> str:
    if product and product in models:
        return models[product]
    if not product:
        return "unknown"
    return product.removeprefix("NVIDIA-").removeprefix("NVIDIA ").replace(" ", "-")


def infer_sharing_mode(resources: Mapping[str, Any]) -> SharingMode:
    if RESOURCE_GPU_SHARED in resources and _int(resources[RESOURCE_GPU_SHARED]) > 0:
        return SharingMode.TIMESLICING
    if RESOURCE_GPU_MEM in resources or RESOURCE_GPU_CORES in resources:
        return SharingMode.HAMI
    return SharingMode.EXCLUSIVE


def node_from_kubernetes(cluster_id: str, node: Mapping[str, Any], *, models: Mapping[str, str] | None = None) -> Node:
    """A domain `Node` from a Kubernetes Node object (its JSON form)."""
    meta, spec, status = node.get("metadata") or {}, node.get("spec") or {}, node.get("status") or {}
    return build_node(
        cluster_id,
        str(meta["name"]),
        labels=meta.get("labels") or {},
        capacity=status.get("capacity") or {},
        allocatable=status.get("allocatable") or {},
        hami=hami_devices((meta.get("annotations") or {}).get(HAMI_REGISTER)),
        unschedulable=bool(spec.get("unschedulable", False)),
        ready=any(c.get("type") == "Ready" and c.get("status") == "True" for c in status.get("conditions") or []),
        models=models,
    )


def build_node(
    cluster_id: str,
    name: str,
    *,
    labels: Mapping[str, Any],
    capacity: Mapping[str, Any],
    allocatable: Mapping[str, Any],
    hami: list[dict[str, Any]],
    unschedulable: bool,
    ready: bool,
    models: Mapping[str, str] | None = None,
) -> Node:
    """A domain `Node` from what Kubernetes says about it (also used for operator reports)."""
    models = models or {}
    str_labels = {
        str(k): str(v)
        for k, v in sorted(labels.items())
        if str(k).startswith(INVENTORY_LABEL_PREFIXES) and k not in VOLATILE_LABELS
    }
    advertised: dict[str, int] = {}
    for source in (capacity, allocatable):
        for resource, amount in source.items():
            if resource.startswith("nvidia.com/"):
                advertised[resource] = max(advertised.get(resource, 0), _int(amount))
    labelled = str_labels.get(SHARING_MODE_LABEL)
    modes = {m.value for m in SharingMode}
    mode = SharingMode(labelled) if labelled in modes else infer_sharing_mode(allocatable)

    product = str_labels.get("nvidia.com/gpu.product")
    healthy = [d for d in hami if d.get("healthy", True)]
    replicas = max(1, _int(str_labels.get("nvidia.com/gpu.replicas"), 1))
    card_specs: list[dict[str, Any]]
    if healthy:
        card_specs = [
            {
                "uuid": str(d["uuid"]),
                "model": _model_name(str(d.get("type") or "") or product, models),
                "vram_mib": _int(d.get("vram_mib")),
                "cores": _int(d.get("cores"), 100) or 100,
            }
            for d in healthy
        ]
    else:
        count = _int(str_labels.get("nvidia.com/gpu.count"))
        vram = _int(str_labels.get("nvidia.com/gpu.memory"))
        card_specs = [
            {"uuid": f"GPU-{name}-{i}", "model": _model_name(product, models), "vram_mib": vram, "cores": 100}
            for i in range(count)
            if vram > 0
        ]
    if mode is SharingMode.TIMESLICING and "nvidia.com/gpu.replicas" not in str_labels and card_specs:
        replicas = max(1, _int(allocatable.get(RESOURCE_GPU_SHARED)) // len(card_specs))
    mig: list[MigProfile] = []
    for resource, amount in sorted(allocatable.items()):
        if resource.startswith(MIG_RESOURCE_PREFIX):
            profile = MigProfile.parse(resource.removeprefix(MIG_RESOURCE_PREFIX))
            mig.extend([profile] * _int(amount))
    slices = [0] * len(card_specs)
    per_card: list[list[MigInstance]] = [[] for _ in card_specs]
    for index, profile in enumerate(mig):
        target = next((i for i, used in enumerate(slices) if used + profile.compute_slices <= MIG_COMPUTE_SLICES), None)
        if target is None:
            log.warning("node %s lists more MIG instances than its cards hold", name)
            break
        slices[target] += profile.compute_slices
        per_card[target].append(MigInstance(mig_instance_id(card_specs[target]["uuid"], profile.name, index), profile))
    cards = tuple(
        Card(
            uuid=card_spec["uuid"],
            model=card_spec["model"],
            vram_mib=card_spec["vram_mib"],
            cores=card_spec["cores"],
            mig_instances=tuple(instances),
            timeslice_replicas=replicas if mode is SharingMode.TIMESLICING and not instances else 1,
        )
        for card_spec, instances in zip(card_specs, per_card, strict=True)
    )
    return Node(
        id=node_id_for(cluster_id, name),
        name=name,
        cluster_id=cluster_id,
        sharing_mode=mode,
        cpu_millicores=int(parse_quantity(allocatable.get("cpu", 0)) * 1000),
        memory_mib=int(parse_quantity(allocatable.get("memory", 0)) / 2**20),
        cards=cards,
        labels=str_labels,
        cordoned=unschedulable,
        schedulable=ready,
        advertised_resources=advertised,
    )


class KubernetesCluster:
    """One Kubernetes cluster behind the `ClusterPort` protocol."""

    def __init__(
        self,
        cluster_id: str,
        api_client: client.ApiClient,
        *,
        name: str | None = None,
        namespace: str = SESSIONS_NAMESPACE,
        node_selector: str | None = None,
        models: Mapping[str, str] | None = None,
        run_as_user: int | None = None,
    ) -> None:
        self._cluster_id = cluster_id
        self._name = name or cluster_id
        self._api_client = api_client
        self._custom = client.CustomObjectsApi(api_client)
        self._core = client.CoreV1Api(api_client)
        self._namespace = namespace
        self._node_selector = node_selector
        self._models = dict(models or {})
        self._run_as_user = run_as_user

    @classmethod
    async def from_kubeconfig(cls, cluster_id: str, kubeconfig: str, **kwargs: Any) -> KubernetesCluster:
        """Connect with a kubeconfig given as (decrypted) YAML text."""
        configuration = client.Configuration()
        await config.load_kube_config_from_dict(yaml.safe_load(kubeconfig), client_configuration=configuration)
        return cls(cluster_id, client.ApiClient(configuration), **kwargs)

    @property
    def cluster_id(self) -> str:
        return self._cluster_id

    async def close(self) -> None:
        await self._api_client.close()

    async def apply(self, spec: WorkloadSpec) -> None:
        manifest = session_resource(spec, self._cluster_id, run_as_user=self._run_as_user)
        manifest["metadata"]["namespace"] = self._namespace
        try:
            await self._custom.patch_namespaced_custom_object(
                GROUP,
                VERSION,
                self._namespace,
                PLURAL,
                manifest["metadata"]["name"],
                manifest,
                field_manager=FIELD_MANAGER,
                force=True,
                _content_type="application/apply-patch+yaml",  # type: ignore[call-arg]
            )
        except ApiException as exc:
            if exc.status in (400, 403, 422):
                raise WorkloadRefused(
                    f"cluster {self._cluster_id} refused the session: {exc.status} {exc.reason}"
                ) from exc
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {exc!r}") from exc

    async def pause(self, session_id: UUID) -> None:
        await self._delete(session_id)

    async def delete(self, session_id: UUID) -> None:
        await self._delete(session_id)

    async def _delete(self, session_id: UUID) -> None:
        try:
            await self._custom.delete_namespaced_custom_object(
                GROUP, VERSION, self._namespace, PLURAL, resource_name(session_id)
            )
        except ApiException as exc:
            if exc.status == 404:
                return  # already gone: deleting is idempotent
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {exc!r}") from exc

    async def read_inventory(self) -> Inventory:
        try:
            if self._node_selector:
                listing = await self._core.list_node(label_selector=self._node_selector)
            else:
                listing = await self._core.list_node()
        except ApiException as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {exc!r}") from exc
        nodes = [
            node_from_kubernetes(
                self._cluster_id, self._api_client.sanitize_for_serialization(item), models=self._models
            )
            for item in listing.items
        ]
        return Inventory((Cluster(self._cluster_id, self._name),), tuple(sorted(nodes, key=lambda n: n.id)))


# --- node sharing-mode change (BRICK's procedures A–C) -------------------------------------------


class NodeStep(StrEnum):
    PRECHECK = "precheck"
    CORDON = "cordon"
    DRAIN = "drain"
    RELABEL = "relabel"
    WAIT_FOR_RESOURCE = "wait-for-resource"
    REMOVE_STALE = "remove-stale"
    UNCORDON = "uncordon"


class NodeOperationFailed(Exception):
    """A node operation stopped at `step`; the node is left cordoned if it got that far."""

    def __init__(self, step: NodeStep, message: str) -> None:
        super().__init__(f"{step.value}: {message}")
        self.step = step
        self.message = message


@dataclass(frozen=True)
class SharingModeLabels:
    """How a sharing mode is selected on a node. gshare's own label always; with the NVIDIA GPU
    operator the device plugin's per-node config (`time-slicing-<replicas>` for time slicing,
    none otherwise), and HAMi's `gpu=on` node label for HAMi nodes. A None value removes the
    label."""

    mode_label: str = SHARING_MODE_LABEL
    device_plugin_config_label: str | None = "nvidia.com/device-plugin.config"
    timeslicing_config: str = "time-slicing-{replicas}"
    hami_label: str | None = "gpu"

    def labels_for(self, mode: SharingMode, replicas: int | None) -> dict[str, str | None]:
        labels: dict[str, str | None] = {self.mode_label: mode.value}
        if self.device_plugin_config_label:
            labels[self.device_plugin_config_label] = (
                self.timeslicing_config.format(replicas=replicas) if mode is SharingMode.TIMESLICING else None
            )
        if self.hami_label:
            labels[self.hami_label] = "on" if mode is SharingMode.HAMI else None
        return labels


# The resource whose appearance shows that the node serves a mode.
MODE_RESOURCE = {
    SharingMode.HAMI: RESOURCE_GPU_MEM,
    SharingMode.TIMESLICING: RESOURCE_GPU_SHARED,
    SharingMode.EXCLUSIVE: "nvidia.com/gpu",
}
SERVED_BY_MODE = {
    SharingMode.HAMI: frozenset(
        {"nvidia.com/gpu", RESOURCE_GPU_MEM, RESOURCE_GPU_CORES, "nvidia.com/gpumem-percentage"}
    ),
    SharingMode.TIMESLICING: frozenset({RESOURCE_GPU_SHARED}),
    SharingMode.EXCLUSIVE: frozenset({"nvidia.com/gpu"}),
}

Progress = Callable[[NodeStep, str], Awaitable[None]]


def _json_pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class NodeOperations:
    """The Kubernetes half of guarded node operations (the control plane decides, this acts)."""

    def __init__(
        self,
        api_client: client.ApiClient,
        *,
        namespace: str = SESSIONS_NAMESPACE,
        labels: SharingModeLabels | None = None,
        poll_interval: float = 1.0,
    ) -> None:
        self._core = client.CoreV1Api(api_client)
        self._api_client = api_client
        self._namespace = namespace
        self._labels = labels or SharingModeLabels()
        self._poll = poll_interval

    async def read(self, node_name: str) -> dict[str, Any]:
        node = await self._core.read_node(node_name)
        result: dict[str, Any] = self._api_client.sanitize_for_serialization(node)
        return result

    async def cordon(self, node_name: str, cordoned: bool = True) -> None:
        await self._core.patch_node(node_name, {"spec": {"unschedulable": cordoned or None}})

    async def session_ids_on(self, node_name: str) -> list[UUID]:
        pods = await self._core.list_namespaced_pod(
            self._namespace,
            label_selector="app.kubernetes.io/managed-by=gshare-operator",
            field_selector=f"spec.nodeName={node_name}",
        )
        ids = []
        for pod in pods.items:
            value = (pod.metadata.labels or {}).get("gshare.io/session-id")
            try:
                ids.append(UUID(str(value)))
            except ValueError:
                log.warning("pod %s on %s has no session id label", pod.metadata.name, node_name)
        return ids

    async def wait_until_drained(self, node_name: str, within: float) -> None:
        deadline = asyncio.get_running_loop().time() + within
        while await self.session_ids_on(node_name):
            if asyncio.get_running_loop().time() > deadline:
                raise NodeOperationFailed(NodeStep.DRAIN, f"session pods are still on {node_name}")
            await asyncio.sleep(self._poll)

    async def relabel(self, node_name: str, mode: SharingMode, replicas: int | None) -> None:
        await self._core.patch_node(node_name, {"metadata": {"labels": self._labels.labels_for(mode, replicas)}})

    async def wait_for_resource(self, node_name: str, resource: str, within: float) -> None:
        deadline = asyncio.get_running_loop().time() + within
        while True:
            node = await self.read(node_name)
            if _int(((node.get("status") or {}).get("allocatable") or {}).get(resource)) > 0:
                return
            if asyncio.get_running_loop().time() > deadline:
                raise NodeOperationFailed(NodeStep.WAIT_FOR_RESOURCE, f"{node_name} does not expose {resource}")
            await asyncio.sleep(self._poll)

    async def remove_stale_resources(self, node_name: str, mode: SharingMode, *, keep_mig: bool) -> list[str]:
        """Remove GPU resources the mode does not serve from capacity and allocatable (node
        status API), as BRICK's runbook does by hand; returns what was removed."""
        node = await self.read(node_name)
        status = node.get("status") or {}
        served = SERVED_BY_MODE[mode]
        operations: list[dict[str, Any]] = []
        removed: set[str] = set()
        for field_name in ("capacity", "allocatable"):
            for resource in sorted((status.get(field_name) or {}).keys()):
                if not resource.startswith("nvidia.com/") or resource in served:
                    continue
                if keep_mig and resource.startswith(MIG_RESOURCE_PREFIX):
                    continue
                operations.append({"op": "remove", "path": f"/status/{field_name}/{_json_pointer(resource)}"})
                removed.add(resource)
        if operations:
            await self._core.patch_node_status(node_name, operations)
        return sorted(removed)


async def change_sharing_mode(
    nodes: NodeOperations,
    node_name: str,
    mode: SharingMode,
    *,
    replicas: int | None = None,
    precheck: Callable[[], Awaitable[None]],
    drain: Callable[[list[UUID]], Awaitable[None]],
    progress: Progress | None = None,
    drain_within: float = 300.0,
    expose_within: float = 300.0,
) -> list[str]:
    """Change a node's sharing mode (or its time-slice replicas): pre-check, cordon, drain,
    relabel, wait for the new resource, remove the stale ones, uncordon. Returns the stale
    resources removed.

    `precheck` raises (e.g. the domain's refusal that the remaining shared capacity would not
    cover allocated shared quota) before anything is touched; `drain(session_ids)` pauses and
    re-queues the sessions on the node (the control plane's use case). A failure after the
    cordon leaves the node cordoned and raises `NodeOperationFailed` naming the step.
    """
    if mode is SharingMode.TIMESLICING and (replicas is None or replicas < 1):
        raise ValueError("time slicing needs replicas >= 1")

    current = [NodeStep.PRECHECK]

    async def step(name: NodeStep, message: str) -> None:
        current[0] = name
        log.info("node %s: %s (%s)", node_name, name.value, message)
        if progress is not None:
            await progress(name, message)

    await step(NodeStep.PRECHECK, f"checking that {node_name} can become {mode.value}")
    await precheck()
    try:
        await step(NodeStep.CORDON, "no new sessions are placed on the node")
        await nodes.cordon(node_name)
        sessions = await nodes.session_ids_on(node_name)
        await step(NodeStep.DRAIN, f"pausing {len(sessions)} session(s)")
        if sessions:
            await drain(sessions)
        await nodes.wait_until_drained(node_name, drain_within)
        await step(NodeStep.RELABEL, f"sharing mode {mode.value}" + (f", {replicas} replicas" if replicas else ""))
        await nodes.relabel(node_name, mode, replicas)
        resource = MODE_RESOURCE[mode]
        await step(NodeStep.WAIT_FOR_RESOURCE, f"waiting for {resource}")
        await nodes.wait_for_resource(node_name, resource, expose_within)
        node = await nodes.read(node_name)
        keep_mig = (
            ((node.get("metadata") or {}).get("labels") or {}).get("nvidia.com/mig.config") or "all-disabled"
        ) != "all-disabled"
        await step(NodeStep.REMOVE_STALE, "removing capacity of resources the node no longer serves")
        removed = await nodes.remove_stale_resources(node_name, mode, keep_mig=keep_mig)
        await step(NodeStep.UNCORDON, f"removed {', '.join(removed) or 'nothing'}; accepting sessions again")
        await nodes.cordon(node_name, cordoned=False)
        return removed
    except ApiException as exc:
        raise NodeOperationFailed(current[0], f"API error {exc.status} {exc.reason}") from exc
