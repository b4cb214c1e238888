"""The Kubernetes `ClusterPort`: GShareSession custom resources applied through kubernetes-asyncio.

`apply` server-side-applies one `GShareSession` per session (field manager
`gshare-control-plane`, namespace `gshare-sessions`, name `s-<session uuid>`), so applying the
same spec twice changes nothing; `pause` and `delete` delete it (the operator's finalizer
removes every child first and then reports `Deleted`). Progress does not come back through
this adapter: the cluster's operator POSTs signed reports, which the control plane verifies
(`infra.callbacks.CallbackVerifier`) and turns into `StatusReport`s (`infra.callbacks.reports`).

`read_inventory` reads what the nodes publish (`infra.cluster.publications`: HAMi's device
registration, GPU feature discovery labels, the device plugins' resources, AMD's labeller);
node ids are `<cluster>/<node name>`. The node sharing-mode change at the end of the module
waits, for each mode, for what that mode's plug-in really publishes, and rolls back if it
never does.

Volumes: `apply_volume` server-side-applies the volume's PersistentVolumeClaim in the sessions
namespace (name `vol-<volume uuid>`, label `gshare.io/volume-id`, the admin's storage class,
one access mode, `resources.requests.storage` the size asked) and the namespace's ResourceQuota
`gshare-storage` (`requests.storage` = the deployment's storage quota; removed when there is
none); `apply` makes sure of the claims of the volumes a session mounts before the session's
resource; `delete_volume` deletes the claim (Kubernetes' `pvc-protection` finalizer keeps it
while a pod still uses it). The claims' phases come back in the operator's inventory reports.

Registries with pull credentials: `apply` first server-side-applies the registry's
`kubernetes.io/dockerconfigjson` Secret (`registry-<registry uuid>`, `{"auths": {<server>:
{"username", "password", "auth"}}}` as `kubectl create secret docker-registry` writes it) in the
sessions namespace, opening the sealed password with the `open_sealed` it was given; the
GShareSession names it in `imagePullSecrets` (the operator puts it on the pod). No error or log
line of that path carries the Secret's content.

Building the client: `await KubernetesCluster.from_kubeconfig(cluster_id, kubeconfig_text)`
takes the kubeconfig as decrypted text (clusters keep it encrypted at rest; decrypting is the
caller's business), or pass a ready `ApiClient`.
"""

from __future__ import annotations

import asyncio
import base64
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
    Cluster,
    GpuKind,
    Inventory,
    MigProfile,
    Node,
    Placement,
    SharingMode,
)
from domain.inventory.ports import PullSecret, VolumeClaimSpec, WorkloadSpec
from infra.cluster.publications import (
    HAMI_REGISTER,
    SHARING_MODE_LABEL,
    hami_devices,
    is_placeholder,
    mig_profile_of,
    node_from_publication,
    publication_of,
    to_int,
)

log = logging.getLogger(__name__)

GROUP, VERSION, PLURAL, KIND = "gshare.io", "v1alpha1", "gsharesessions", "GShareSession"
FIELD_MANAGER = "gshare-control-plane"
SESSIONS_NAMESPACE = "gshare-sessions"
VOLUME_LABEL = "gshare.io/volume-id"
STORAGE_QUOTA_NAME = "gshare-storage"
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


def node_name_of(cluster_id: str, node_id: str) -> str:
    prefix = f"{cluster_id}/"
    return node_id[len(prefix) :] if node_id.startswith(prefix) else node_id


def _volume_name(volume_id: str, index: int, used: set[str]) -> str:
    name = _NOT_LABEL.sub("-", volume_id.lower()).strip("-")[:50] or "volume"
    if not name[0].isalpha():
        name = f"v-{name}"[:50]
    if name in used:
        name = f"{name[:45]}-{index}"
    used.add(name)
    return name


def session_resource(spec: WorkloadSpec, cluster_id: str, *, run_as_user: int | None = None) -> dict[str, Any]:
    """The GShareSession manifest for a workload (see deploy/crds/gshare.io_gsharesessions.yaml).

    A batch job carries `job.backoffLimit` (its pod runs once to completion, `restartPolicy:
    Never`, and is retried at most that often) and no endpoints; the preset's disk becomes the
    container's `ephemeral-storage` request and limit."""
    if spec.is_job and spec.placement is not None and spec.placement.kind not in (GpuKind.EXCLUSIVE, None):
        raise WorkloadRefused("batch jobs run on exclusive cards only")
    body: dict[str, Any] = {
        "sessionId": str(spec.session_id),
        "owner": {"userId": spec.owner, "username": spec.owner},
        "image": spec.image,
        "resources": {"cpu": f"{spec.cpu_millicores}m", "memory": f"{spec.memory_mib}Mi"},
    }
    if spec.command:
        body["command"] = list(spec.command)
    if spec.args:
        body["args"] = list(spec.args)
    if spec.is_job:
        body["job"] = {"backoffLimit": spec.backoff_limit}
    if spec.disk_gib:
        body["resources"]["ephemeralStorage"] = f"{spec.disk_gib}Gi"
    if spec.env:
        body["env"] = [{"name": k, "value": v} for k, v in sorted(spec.env.items())]
    if spec.shm_mib:
        body["resources"]["shm"] = f"{spec.shm_mib}Mi"
    if run_as_user is not None:
        body["runAsUser"] = run_as_user
    if spec.placement is not None and spec.placement.kind is None:
        if spec.placement.cluster_id != cluster_id:
            raise WorkloadRefused(f"placement is on cluster {spec.placement.cluster_id!r}, not {cluster_id!r}")
        body["node"] = node_name_of(cluster_id, spec.placement.node_id)
    elif spec.placement is not None:
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
    if spec.pull_secret is not None:
        body["imagePullSecrets"] = [spec.pull_secret.name]
    endpoints = [{"name": e.name, "port": e.port} for e in spec.endpoints if e.name in ENDPOINT_NAMES]
    if endpoints and not spec.is_job:
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


def claim_resource(claim: VolumeClaimSpec, namespace: str = SESSIONS_NAMESPACE) -> dict[str, Any]:
    """A volume's PersistentVolumeClaim."""
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {
            "name": claim.claim_name,
            "namespace": namespace,
            "labels": {VOLUME_LABEL: claim.volume_id, "app.kubernetes.io/part-of": "gshare"},
        },
        "spec": {
            "accessModes": [claim.access_mode],
            "storageClassName": claim.storage_class,
            "volumeMode": "Filesystem",
            "resources": {"requests": {"storage": f"{claim.size_mib}Mi"}},
        },
    }


def pull_secret_resource(secret: PullSecret, password: str, namespace: str = SESSIONS_NAMESPACE) -> dict[str, Any]:
    """The registry's pull credentials as a `kubernetes.io/dockerconfigjson` Secret."""
    auth = base64.b64encode(f"{secret.username}:{password}".encode()).decode()
    config = {"auths": {secret.server: {"username": secret.username, "password": password, "auth": auth}}}
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {
            "name": secret.name,
            "namespace": namespace,
            "labels": {"app.kubernetes.io/part-of": "gshare", "gshare.io/component": "registry-credentials"},
        },
        "type": "kubernetes.io/dockerconfigjson",
        "data": {".dockerconfigjson": base64.b64encode(json.dumps(config, separators=(",", ":")).encode()).decode()},
    }


def storage_quota_resource(quota_mib: int, namespace: str = SESSIONS_NAMESPACE) -> dict[str, Any]:
    """The deployment's storage quota as the sessions namespace's ResourceQuota: the sum of
    every claim's `requests.storage` (Kubernetes refuses a claim that would pass it)."""
    return {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": {
            "name": STORAGE_QUOTA_NAME,
            "namespace": namespace,
            "labels": {"app.kubernetes.io/part-of": "gshare"},
        },
        "spec": {"hard": {"requests.storage": f"{quota_mib}Mi"}},
    }


def gpu_request(placement: Placement, cluster_id: str) -> dict[str, Any]:
    if placement.cluster_id != cluster_id:
        raise WorkloadRefused(f"placement is on cluster {placement.cluster_id!r}, not {cluster_id!r}")
    if placement.kind is None:
        raise WorkloadRefused("a CPU-only placement has no GPU request")
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
        _pin(request, placement)
    elif placement.kind is GpuKind.MIG:
        instance = placement.mig_instance_id
        profile = mig_profile_of(instance) if instance else None
        if profile is None:
            raise WorkloadRefused(f"MIG instance {instance!r} does not name its profile")
        request["migProfile"] = profile
    elif placement.kind is GpuKind.EXCLUSIVE:
        request["count"] = len(placement.shares)
        _pin(request, placement)
    return request


def _pin(request: dict[str, Any], placement: Placement) -> None:
    """Name the chosen cards, when they are known by their real UUIDs (HAMi's registration);
    cards known only by count are left to the device plugin to pick."""
    uuids = list(placement.card_uuids)
    if uuids and not any(is_placeholder(u) for u in uuids):
        request["placement"]["cardUuids"] = uuids


# --- inventory: what the nodes publish (infra.cluster.publications) ----------------------------


def node_from_kubernetes(cluster_id: str, node: Mapping[str, Any], *, models: Mapping[str, str] | None = None) -> Node:
    """A domain `Node` from a Kubernetes Node object (its JSON form)."""
    return node_from_publication(cluster_id, publication_of(node), models=models)


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
        open_sealed: Callable[[bytes], str] | None = None,
    ) -> None:
        self._cluster_id = cluster_id
        self._open_sealed = open_sealed
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
        for mount in spec.volumes:
            if mount.claim is not None:
                await self._apply_claim(mount.claim)
        if spec.pull_secret is not None:
            await self._apply_pull_secret(spec.pull_secret)
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

    async def _calling(self, what: str, call: Awaitable[Any]) -> Any:
        try:
            return await call
        except ApiException as exc:
            if exc.status in (400, 403, 422):
                raise WorkloadRefused(f"cluster {self._cluster_id} refused {what}: {exc.status} {exc.reason}") from exc
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {exc!r}") from exc

    async def _apply_pull_secret(self, secret: PullSecret) -> None:
        """Never chained to the API's error, whose body could quote what was sent."""
        if self._open_sealed is None:
            raise WorkloadRefused(f"cluster {self._cluster_id} cannot write registry credentials (no secret box)")
        try:
            body = pull_secret_resource(secret, self._open_sealed(secret.password_sealed), self._namespace)
        except Exception:
            raise WorkloadRefused(f"the credentials of registry secret {secret.name} cannot be opened") from None
        try:
            response = await self._core.patch_namespaced_secret(
                secret.name,
                self._namespace,
                body,
                field_manager=FIELD_MANAGER,
                force=True,
                _content_type="application/apply-patch+yaml",  # type: ignore[call-arg]
                _preload_content=False,  # the answer carries the Secret: not decoded, not kept
            )
            response.release()
        except ApiException as exc:
            status, reason = exc.status, exc.reason
            if status in (400, 403, 422):
                raise WorkloadRefused(
                    f"cluster {self._cluster_id} refused the registry secret {secret.name}: {status} {reason}"
                ) from None
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {status} {reason}") from None
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {type(exc).__name__}") from None

    async def _apply_claim(self, claim: VolumeClaimSpec) -> str | None:
        body = claim_resource(claim, self._namespace)
        pvc = await self._calling(
            f"the claim of volume {claim.volume_id}",
            self._core.patch_namespaced_persistent_volume_claim(
                claim.claim_name,
                self._namespace,
                body,
                field_manager=FIELD_MANAGER,
                force=True,
                _content_type="application/apply-patch+yaml",  # type: ignore[call-arg]
            ),
        )
        phase = pvc.status.phase if pvc.status is not None else None
        return str(phase) if phase else None

    async def apply_volume(self, claim: VolumeClaimSpec, storage_quota_mib: int | None) -> str | None:
        if storage_quota_mib is None:
            try:
                await self._core.delete_namespaced_resource_quota(STORAGE_QUOTA_NAME, self._namespace)
            except ApiException as exc:
                if exc.status != 404:
                    raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        else:
            await self._calling(
                "the storage quota",
                self._core.patch_namespaced_resource_quota(
                    STORAGE_QUOTA_NAME,
                    self._namespace,
                    storage_quota_resource(storage_quota_mib, self._namespace),
                    field_manager=FIELD_MANAGER,
                    force=True,
                    _content_type="application/apply-patch+yaml",  # type: ignore[call-arg]
                ),
            )
        return await self._apply_claim(claim)

    async def delete_pull_secret(self, name: str) -> None:
        try:
            await self._core.delete_namespaced_secret(name, self._namespace, _preload_content=False)
        except ApiException as exc:
            if exc.status == 404:
                return
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from None
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {type(exc).__name__}") from None

    async def delete_volume(self, claim_name: str) -> None:
        try:
            await self._core.delete_namespaced_persistent_volume_claim(claim_name, self._namespace)
        except ApiException as exc:
            if exc.status == 404:
                return
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {exc!r}") from exc

    async def log_tail(self, session_id: UUID, lines: int) -> str | None:
        """The session container's last lines (pods/<name>/log with tailLines); None while the
        pod does not exist or its container has not started."""
        try:
            text = await self._core.read_namespaced_pod_log(
                resource_name(session_id), self._namespace, container="session", tail_lines=lines
            )
        except ApiException as exc:
            if exc.status in (400, 404):  # no pod, or "waiting to start"
                return None
            raise ClusterUnavailable(f"cluster {self._cluster_id}: {exc.status} {exc.reason}") from exc
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cluster {self._cluster_id} is unreachable: {exc!r}") from exc
        return str(text)

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
    ROLLBACK = "rollback"


class NodeOperationFailed(Exception):
    """A node operation stopped at `step`. `rolled_back` says the node was put back in its old
    mode and uncordoned; otherwise it is left cordoned for an admin to look at."""

    def __init__(self, step: NodeStep, message: str, *, rolled_back: bool = False) -> None:
        super().__init__(f"{step.value}: {message}")
        self.step = step
        self.message = message
        self.rolled_back = rolled_back


@dataclass(frozen=True)
class SharingModeLabels:
    """How a sharing mode is selected on a node (a None value removes the label):

    - gshare's own `gshare.io/sharing-mode` (what the admin asked for; the inventory reads
      what the node serves, not this label);
    - the NVIDIA GPU operator's per-node device-plugin config, `nvidia.com/device-plugin.config`
      (`time-slicing-<replicas>`, a config of the ConfigMap in deploy/device-plugin; absent =
      the plugin's default, no sharing);
    - the GPU operator's `nvidia.com/gpu.deploy.device-plugin`: `false` on HAMi nodes, whose
      cards HAMi's own device plugin serves (the two plugins cannot both register
      `nvidia.com/gpu`);
    - HAMi's device-plugin node selector `gpu=on` (HAMi chart `devicePlugin.nvidiaNodeSelector`).
    """

    mode_label: str = SHARING_MODE_LABEL
    device_plugin_config_label: str | None = "nvidia.com/device-plugin.config"
    timeslicing_config: str = "time-slicing-{replicas}"
    nvidia_plugin_deploy_label: str | None = "nvidia.com/gpu.deploy.device-plugin"
    hami_label: str | None = "gpu"
    hami_label_value: str = "on"

    def labels_for(self, mode: SharingMode, replicas: int | None) -> dict[str, str | None]:
        labels: dict[str, str | None] = {self.mode_label: mode.value}
        if self.device_plugin_config_label:
            labels[self.device_plugin_config_label] = (
                self.timeslicing_config.format(replicas=replicas) if mode is SharingMode.TIMESLICING else None
            )
        if self.nvidia_plugin_deploy_label:
            labels[self.nvidia_plugin_deploy_label] = "false" if mode is SharingMode.HAMI else "true"
        if self.hami_label:
            labels[self.hami_label] = self.hami_label_value if mode is SharingMode.HAMI else None
        return labels

    def current(self, labels: Mapping[str, str]) -> dict[str, str | None]:
        """The node's present values of every label `labels_for` sets (None = absent), so a
        rollback puts back exactly what was there."""
        keys = [self.mode_label, self.device_plugin_config_label, self.nvidia_plugin_deploy_label, self.hami_label]
        return {k: labels.get(k) for k in keys if k}


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


@dataclass(frozen=True)
class ModeBaseline:
    """What the node published before the relabel: a mode only counts as served once its
    plug-in has published something new (a stopped plug-in's last words linger)."""

    handshake: str | None
    gpu_allocatable: int
    physical_cards: int | None


def mode_published(
    node: Mapping[str, Any], mode: SharingMode, replicas: int | None, before: ModeBaseline
) -> str | None:
    """None when the node publishes what `mode` serves; otherwise what is still missing.

    - HAMi: a registration with at least one healthy card, a `Reported …` handshake written
      after the relabel (HAMi's device plugin stamps it with each registration; the scheduler
      overwrites it with `Requesting_…`), and the plugin's `nvidia.com/gpu` in allocatable;
    - time slicing: `nvidia.com/gpu.shared` in allocatable, and GPU feature discovery's
      `nvidia.com/gpu.replicas` = `replicas` with `sharing-strategy: time-slicing` (the plugin
      restarts with the new config; until GFD relabels, the old replica count is still shown);
    - exclusive: `nvidia.com/gpu` = the physical card count (`nvidia.com/gpu.count`; HAMi
      also registers `nvidia.com/gpu`, as cards × split) with no sharing strategy.
    """
    pub = publication_of(node)
    labels, allocatable = pub.labels, pub.allocatable
    gpu = to_int(allocatable.get("nvidia.com/gpu"))
    if mode is SharingMode.HAMI:
        handshake = str(pub.annotations.get("hami.io/node-handshake") or "")
        if not any(d["healthy"] for d in hami_devices(pub.annotations.get(HAMI_REGISTER))):
            return "HAMi's device plugin has not registered a healthy card (hami.io/node-nvidia-register)"
        if not handshake.startswith("Reported") or handshake == before.handshake:
            return "HAMi's device plugin has not reported since the relabel (hami.io/node-handshake)"
        if gpu <= 0:
            return "HAMi's nvidia.com/gpu is not allocatable"
        return None
    strategy = labels.get("nvidia.com/gpu.sharing-strategy")
    if mode is SharingMode.TIMESLICING:
        if to_int(allocatable.get(RESOURCE_GPU_SHARED)) <= 0:
            return f"{RESOURCE_GPU_SHARED} is not allocatable"
        if labels.get("nvidia.com/gpu.replicas") != str(replicas) or strategy != "time-slicing":
            return f"GPU feature discovery does not show {replicas} time-slicing replicas yet"
        return None
    if gpu <= 0:
        return "nvidia.com/gpu is not allocatable"
    if strategy not in (None, "none"):
        return f"the node still shares its cards ({strategy})"
    cards = to_int(labels.get("nvidia.com/gpu.count")) or before.physical_cards
    if cards and gpu != cards - _mig_cards(allocatable) and gpu == before.gpu_allocatable:
        return f"nvidia.com/gpu still counts {gpu}, not the {cards} physical cards"
    return None


def _mig_cards(allocatable: Mapping[str, Any]) -> int:
    slices = sum(
        MigProfile.parse(str(k).removeprefix(MIG_RESOURCE_PREFIX)).compute_slices * to_int(v)
        for k, v in allocatable.items()
        if str(k).startswith(MIG_RESOURCE_PREFIX) and not str(k).endswith(".shared")
    )
    return -(-slices // MIG_COMPUTE_SLICES)


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
        self.labels = labels or SharingModeLabels()
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

    async def baseline(self, node_name: str) -> tuple[ModeBaseline, dict[str, str | None]]:
        node = await self.read(node_name)
        pub = publication_of(node)
        hami = [d for d in hami_devices(pub.annotations.get(HAMI_REGISTER)) if d["healthy"]]
        before = ModeBaseline(
            handshake=pub.annotations.get("hami.io/node-handshake"),
            gpu_allocatable=to_int(pub.allocatable.get("nvidia.com/gpu")),
            physical_cards=len(hami) or None,
        )
        return before, self.labels.current({str(k): str(v) for k, v in pub.labels.items()})

    async def set_labels(self, node_name: str, labels: Mapping[str, str | None]) -> None:
        await self._core.patch_node(node_name, {"metadata": {"labels": dict(labels)}})

    async def relabel(self, node_name: str, mode: SharingMode, replicas: int | None) -> None:
        await self.set_labels(node_name, self.labels.labels_for(mode, replicas))

    async def wait_for_mode(
        self, node_name: str, mode: SharingMode, replicas: int | None, before: ModeBaseline, within: float
    ) -> None:
        deadline = asyncio.get_running_loop().time() + within
        while True:
            missing = mode_published(await self.read(node_name), mode, replicas, before)
            if missing is None:
                return
            if asyncio.get_running_loop().time() > deadline:
                raise NodeOperationFailed(NodeStep.WAIT_FOR_RESOURCE, f"{node_name}: {missing}")
            await asyncio.sleep(self._poll)

    async def remove_stale_resources(self, node_name: str, mode: SharingMode, *, keep_mig: bool) -> list[str]:
        """Remove GPU resources the mode does not serve from capacity and allocatable (node
        status API), as BRICK's runbook does by hand, and a departed HAMi's registration
        annotations (HAMi's scheduler would otherwise keep the node's old cards until its
        handshake expires); returns what was removed."""
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
        annotations = (node.get("metadata") or {}).get("annotations") or {}
        if mode is not SharingMode.HAMI:
            gone = [a for a in ("hami.io/node-nvidia-register", "hami.io/node-handshake") if a in annotations]
            if gone:
                await self._core.patch_node(node_name, {"metadata": {"annotations": dict.fromkeys(gone)}})
                removed.update(f"annotation {a}" for a in gone)
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
    relabel, wait until the new mode is published (`mode_published`), remove the stale
    resources, uncordon. Returns the stale resources removed.

    `precheck` raises (e.g. the domain's refusal that the remaining shared capacity would not
    cover allocated shared quota) before anything is touched; `drain(session_ids)` pauses and
    re-queues the sessions on the node (the control plane's use case). If the new mode is not
    published in time, the old labels are put back and, once the old mode is published again,
    the node is uncordoned (`NodeOperationFailed(rolled_back=True)`); if that fails too, or
    anything fails before the relabel, the node is left cordoned.
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
        before, old_labels = await nodes.baseline(node_name)
        old_node = node_from_publication("", publication_of(await nodes.read(node_name)))
        old_mode = old_node.sharing_mode
        old_replicas = max((c.timeslice_replicas for c in old_node.cards), default=1)
        await step(NodeStep.RELABEL, f"sharing mode {mode.value}" + (f", {replicas} replicas" if replicas else ""))
        await nodes.relabel(node_name, mode, replicas)
        await step(NodeStep.WAIT_FOR_RESOURCE, f"waiting until the node publishes {mode.value}")
        try:
            await nodes.wait_for_mode(node_name, mode, replicas, before, expose_within)
        except NodeOperationFailed as exc:
            await _roll_back(nodes, node_name, step, exc, old_labels, old_mode, old_replicas, expose_within)
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


async def _roll_back(
    nodes: NodeOperations,
    node_name: str,
    step: Callable[[NodeStep, str], Awaitable[None]],
    failure: NodeOperationFailed,
    old_labels: Mapping[str, str | None],
    old_mode: SharingMode,
    old_replicas: int,
    within: float,
) -> None:
    """Put the old labels back and wait for the old mode; always raises."""
    await step(NodeStep.ROLLBACK, f"{failure.message}; restoring {old_mode.value}")
    before, _ = await nodes.baseline(node_name)
    await nodes.set_labels(node_name, old_labels)
    replicas = old_replicas if old_mode is SharingMode.TIMESLICING else None
    try:
        await nodes.wait_for_mode(node_name, old_mode, replicas, before, within)
    except NodeOperationFailed as again:
        raise NodeOperationFailed(
            NodeStep.ROLLBACK, f"{failure.message}; the rollback did not complete either: {again.message}"
        ) from failure
    await nodes.remove_stale_resources(node_name, old_mode, keep_mig=True)
    await nodes.cordon(node_name, cordoned=False)
    raise NodeOperationFailed(
        failure.step, f"{failure.message}; rolled back to {old_mode.value} and uncordoned", rolled_back=True
    ) from failure
