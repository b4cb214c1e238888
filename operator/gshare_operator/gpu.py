"""GPU requests of a GShareSession as Kubernetes resources, by GPU kind.

- `hami`: HAMi's vGPU resources, `nvidia.com/gpu: 1` with `nvidia.com/gpumem` (MiB) and
  `nvidia.com/gpucores` (percent of one card), pinned to the chosen card with HAMi's
  `nvidia.com/use-gpuuuid` annotation and handed to HAMi's scheduler (`schedulerName`,
  `hami-scheduler` by default): gpumem and gpucores are not node resources, only HAMi's
  scheduler can place them (kube-scheduler finds them "Insufficient");
- `timeslice`: one slice of a time-shared card, `nvidia.com/gpu.shared: 1` (the NVIDIA device
  plugin's renamed resource), at most one per pod;
- `mig`: one MIG instance, `nvidia.com/mig-<profile>: 1` (mixed strategy);
- `exclusive`: `N` whole cards of `resourceName` (default `nvidia.com/gpu`); card UUIDs, when
  given, pin them through the same HAMi annotation (ignored on nodes without HAMi).

Every kind is pinned to the chosen node with a `kubernetes.io/hostname` node selector, not
`nodeName`, so the scheduler (HAMi's, for HAMi nodes) still admits the pod and assigns devices.
The resource names and HAMi's scheduler name are per cluster (`GpuResourceNames`, from the
operator's settings): HAMi's chart lets them be renamed (`resourceName`, `resourceMem`,
`resourceCores`, `schedulerName`), and time slicing without `renameByDefault` shares
`nvidia.com/gpu` itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gshare_operator.constants import HOSTNAME_LABEL

HAMI_GPU = "nvidia.com/gpu"
HAMI_MEMORY = "nvidia.com/gpumem"
HAMI_CORES = "nvidia.com/gpucores"
HAMI_USE_UUID = "nvidia.com/use-gpuuuid"
TIMESLICE = "nvidia.com/gpu.shared"
MIG_PREFIX = "nvidia.com/mig-"
_MIG_PROFILE = re.compile(r"^[1-9]g\.[0-9]+gb(\+me)?$")
_UUID = re.compile(r"^(GPU|MIG)-[0-9A-Za-z-]+$")


@dataclass(frozen=True)
class GpuResourceNames:
    hami_gpu: str = HAMI_GPU
    hami_memory: str = HAMI_MEMORY
    hami_cores: str = HAMI_CORES
    hami_scheduler: str | None = "hami-scheduler"
    timeslice: str = TIMESLICE


DEFAULT_NAMES = GpuResourceNames()


class InvalidGpuRequest(ValueError):
    """The GPU part of the spec cannot be turned into a pod: a permanent error."""


@dataclass(frozen=True)
class GpuPlacement:
    limits: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    node_selector: dict[str, str] = field(default_factory=dict)
    tolerations: list[dict[str, Any]] = field(default_factory=list)
    node: str | None = None
    scheduler_name: str | None = None


def gpu_placement(gpu: dict[str, Any] | None, names: GpuResourceNames = DEFAULT_NAMES) -> GpuPlacement:
    if not gpu:
        return GpuPlacement()
    kind = gpu.get("kind")
    placement = gpu.get("placement") or {}
    node = placement.get("node")
    if not node:
        raise InvalidGpuRequest("gpu.placement.node is required")
    uuids = [str(u) for u in placement.get("cardUuids") or []]
    for uuid in uuids:
        if not _UUID.match(uuid):
            raise InvalidGpuRequest(f"gpu.placement.cardUuids: {uuid!r} is not a GPU UUID")
    limits: dict[str, str] = {}
    annotations: dict[str, str] = {}
    count = int(gpu.get("count") or 1)
    if kind == "hami":
        vram, cores = gpu.get("vramMiB"), gpu.get("cores")
        if not isinstance(vram, int) or vram < 1:
            raise InvalidGpuRequest("gpu.vramMiB is required for kind hami")
        if not isinstance(cores, int) or not 1 <= cores <= 100:
            raise InvalidGpuRequest("gpu.cores (1-100) is required for kind hami")
        if count != 1:
            raise InvalidGpuRequest("kind hami takes one card slice per session")
        limits = {names.hami_gpu: "1", names.hami_memory: str(vram), names.hami_cores: str(cores)}
        if len(uuids) > 1:
            raise InvalidGpuRequest("kind hami is pinned to exactly one card")
    elif kind == "timeslice":
        if count != 1:
            raise InvalidGpuRequest("a pod takes at most one time slice")
        limits = {names.timeslice: "1"}
    elif kind == "mig":
        profile = gpu.get("migProfile")
        if not isinstance(profile, str) or not _MIG_PROFILE.match(profile):
            raise InvalidGpuRequest("gpu.migProfile (e.g. 1g.10gb) is required for kind mig")
        if count != 1:
            raise InvalidGpuRequest("kind mig takes one instance per session")
        limits = {f"{MIG_PREFIX}{profile}": "1"}
    elif kind == "exclusive":
        resource = gpu.get("resourceName") or names.hami_gpu
        if uuids and len(uuids) != count:
            raise InvalidGpuRequest("gpu.placement.cardUuids must name exactly count cards")
        limits = {resource: str(count)}
    else:
        raise InvalidGpuRequest(f"unknown gpu.kind {kind!r}")
    if uuids and kind in ("hami", "exclusive"):
        annotations[HAMI_USE_UUID] = ",".join(uuids)
    vendor = next(iter(limits)).split("/", 1)[0]
    tolerations = [{"key": f"{vendor}/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    # HAMi's scheduler places HAMi slices, and whole cards pinned by UUID on a HAMi node
    # (only HAMi reads `nvidia.com/use-gpuuuid`)
    hami_scheduled = kind == "hami" or (kind == "exclusive" and bool(uuids))
    return GpuPlacement(
        limits=limits,
        annotations=annotations,
        node_selector={HOSTNAME_LABEL: node},
        tolerations=tolerations,
        node=node,
        scheduler_name=names.hami_scheduler if hami_scheduled else None,
    )
