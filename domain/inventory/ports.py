"""The cluster port: how the core runs workloads on a cluster and hears back from it.

Adapters: the in-process simulated cluster (`infra.cluster.simulated`) and Kubernetes through
the per-cluster operator. Status reports flow to a callback the composition root injects at
construction; the operator's signed HTTP callbacks end up in the same callback, so the core
handles one path whatever the cluster is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable
from uuid import UUID

from domain.inventory.model import Inventory, Placement


class WorkloadPhase(StrEnum):
    SCHEDULED = "Scheduled"
    STARTING = "Starting"
    RUNNING = "Running"
    STOPPED = "Stopped"
    FAILED = "Failed"
    SUCCEEDED = "Succeeded"  # the workload's process exited 0 (a batch job ran to completion)


@dataclass(frozen=True, slots=True)
class VolumeClaimSpec:
    """A volume's PersistentVolumeClaim: in the sessions namespace, named `claim_name`, of the
    admin's storage class, with one access mode and the size asked for."""

    volume_id: str
    claim_name: str
    storage_class: str
    size_mib: int
    access_mode: str


@dataclass(frozen=True, slots=True)
class PullSecret:
    """The pull credentials of the registry a workload's image comes from: written to the
    cluster as a `kubernetes.io/dockerconfigjson` Secret `name` in the sessions namespace, which
    the pod names in `imagePullSecrets`. The password stays sealed until the cluster adapter
    writes the Secret (and is left out of reprs)."""

    name: str
    server: str
    username: str
    password_sealed: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class VolumeMount:
    volume_id: str
    claim_name: str
    mount_path: str
    read_only: bool = False
    # the claim to make sure of before the pod needs it (None: the claim is someone else's)
    claim: VolumeClaimSpec | None = None


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A standard session endpoint (VS Code, JupyterLab, web terminal, SSH)."""

    name: str
    port: int
    protocol: str = "http"


@dataclass(frozen=True, slots=True)
class WorkloadSpec:
    """Everything a cluster needs to run one session or job. `placement` is None for
    CPU-only workloads (they skip GPU placement)."""

    session_id: UUID
    owner: str
    image: str
    cpu_millicores: int
    memory_mib: int
    placement: Placement | None = None
    command: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    shm_mib: int = 0
    volumes: tuple[VolumeMount, ...] = ()
    endpoints: tuple[Endpoint, ...] = ()
    is_job: bool = False
    # a job's arguments (to its command, or to the image's entrypoint) and how often a failed
    # run is retried; a job runs once to completion
    args: tuple[str, ...] = ()
    backoff_limit: int = 0
    # the preset's ephemeral disk (the container's ephemeral-storage limit); 0 = none asked
    disk_gib: int = 0
    # the image's registry credentials (None: public pulls)
    pull_secret: PullSecret | None = None


@dataclass(frozen=True, slots=True)
class EndpointUrl:
    name: str
    url: str


@dataclass(frozen=True, slots=True)
class StatusReport:
    session_id: UUID
    phase: WorkloadPhase
    observed_at: datetime
    node_id: str | None = None
    endpoints: tuple[EndpointUrl, ...] = ()
    message: str = ""
    # when the workload's process ended: its exit code and the last lines of its log
    exit_code: int | None = None
    log_tail: str | None = None
    # the cluster's reason for the phase (e.g. "NodeLost", "Evicted", "PodLost"), and for a lost
    # node since when it was gone or not ready (the session stopped running then)
    reason: str = ""
    lost_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class UsageSample:
    """One per-second sample of what a workload uses."""

    session_id: UUID
    at: datetime
    cpu_millicores: int
    memory_mib: int
    gpu_util_percent: float
    gpu_memory_mib: int


StatusCallback = Callable[[StatusReport], Awaitable[None]]


class ClusterPort(Protocol):
    """One cluster. Every method is idempotent: applying the same spec twice, or pausing or
    deleting an unknown/already stopped workload, is not an error."""

    @property
    def cluster_id(self) -> str: ...

    async def apply(self, spec: WorkloadSpec) -> None:
        """Run the workload as specified; progress arrives later as status reports."""
        ...

    async def pause(self, session_id: UUID) -> None:
        """Remove the running pod, keeping volumes and settings (reported as Stopped)."""
        ...

    async def delete(self, session_id: UUID) -> None:
        """Remove the workload and everything created for it (reported as Stopped)."""
        ...

    async def read_inventory(self) -> Inventory:
        """Nodes and cards as the cluster reports them now."""
        ...

    async def log_tail(self, session_id: UUID, lines: int) -> str | None:
        """The last `lines` lines the workload's container wrote, or None when it has no log
        (nothing runs, or the container has not started)."""
        ...

    async def apply_volume(self, claim: VolumeClaimSpec, storage_quota_mib: int | None) -> str | None:
        """Create (or leave as it is) the volume's claim, and bound the claims' total storage
        at `storage_quota_mib` (None: unbounded); returns the claim's phase now (None: the
        cluster has not said)."""
        ...

    async def delete_volume(self, claim_name: str) -> None:
        """Delete the volume's claim (already gone is not an error)."""
        ...

    async def delete_pull_secret(self, name: str) -> None:
        """Delete a registry's pull secret, once its credentials are removed or replaced by
        none (already gone is not an error)."""
        ...


@runtime_checkable
class AppliesMany(Protocol):
    """A cluster that takes several workloads in one call (one write for all of them): what
    a batch of admissions hands off together (issue 19). A cluster without it gets one
    `apply` per workload."""

    async def apply_many(self, specs: Sequence[WorkloadSpec]) -> list[Exception | None]:
        """`apply` of every spec; per spec, in order, None or what applying it raised."""
        ...
