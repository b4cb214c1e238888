from __future__ import annotations

from typing import Any

import strawberry

from api.context import Info
from domain.inventory.bundles import InstanceBundle as BundleModel
from domain.inventory.capacity import CapacityRow as CapacityRowModel
from domain.inventory.capacity import Counts as CountsModel
from domain.inventory.capacity import ModelTotals
from domain.inventory.model import GpuKind as GpuKindModel
from domain.inventory.model import SharingMode as SharingModeModel
from domain.scheduling.model import Allocation
from domain.sessions.capacity_views import NodeView, QueueRow
from domain.sessions.services import can_see_session

GpuKind = strawberry.enum(
    GpuKindModel,
    name="GpuKind",
    description="What a placement takes: a HAMi fraction, a MIG instance, a time-slice or whole cards.",
)
SharingMode = strawberry.enum(SharingModeModel, name="SharingMode")


@strawberry.type(description="Total / used / available units.")
class Counts:
    total: int
    used: int
    available: int

    @classmethod
    def of(cls, c: CountsModel) -> Counts:
        return cls(total=c.total, used=c.used, available=c.available)


@strawberry.type(
    description="One row of a capacity view: a GPU resource (and model), physical cards and logical units."
)
class CapacityRow:
    resource: str = strawberry.field(description="Kubernetes resource name, e.g. nvidia.com/gpu.shared.")
    kind: GpuKind  # type: ignore[valid-type]
    model: str | None
    shared: bool = strawberry.field(description="Units are shared between workloads (HAMi fractions, time-slices).")
    physical: Counts
    logical: Counts
    used_card_equivalents: float = strawberry.field(description="Sum of placed ratios in whole cards.")

    @classmethod
    def of(cls, r: CapacityRowModel) -> CapacityRow:
        return cls(
            resource=r.resource,
            kind=r.kind,
            model=r.model,
            shared=r.shared,
            physical=Counts.of(r.physical),
            logical=Counts.of(r.logical),
            used_card_equivalents=float(r.ratio_used),
        )


@strawberry.type
class ModelCapacity:
    model: str
    physical: Counts
    logical: Counts

    @classmethod
    def of(cls, t: ModelTotals) -> ModelCapacity:
        return cls(model=t.model, physical=Counts.of(t.physical), logical=Counts.of(t.logical))


@strawberry.type(description="Capacity per GPU resource and per model, physical and logical.")
class Capacity:
    by_resource: list[CapacityRow]
    by_model: list[CapacityRow]
    models: list[ModelCapacity]


@strawberry.type(description="A suggested CPU/memory/GPU bundle computed from free resources.")
class InstanceBundle:
    name: str
    model: str | None
    gpus: int
    cpu_millicores: int
    memory_mib: int
    nodes: int = strawberry.field(description="Nodes that can host it right now.")

    @classmethod
    def of(cls, b: BundleModel) -> InstanceBundle:
        return cls(
            name=b.name,
            model=b.model,
            gpus=b.gpus,
            cpu_millicores=b.cpu_millicores,
            memory_mib=b.memory_mib,
            nodes=b.nodes,
        )


@strawberry.type
class MigInstance:
    id: str
    profile: str
    vram_mib: int
    tenant: str | None = strawberry.field(description="Session id using it, when visible to you.")
    tenant_name: str | None = strawberry.field(
        default=None, description="The name of the session using it, when visible to you."
    )


@strawberry.type
class CardTenant:
    session_id: strawberry.ID | None = strawberry.field(description="Global ID of the session, when visible to you.")
    vram_mib: int
    cores: int
    session_name: str | None = strawberry.field(default=None, description="Its name, when visible to you.")


@strawberry.type
class Card:
    uuid: str
    model: str
    vram_mib: int
    cores: int
    mig_enabled: bool
    timeslice_replicas: int
    identified: bool = strawberry.field(
        description="False when `uuid` is gshare's placeholder: the cluster publishes a count of these cards, "
        "not their UUIDs (only HAMi's registration names each card)."
    )
    physical_count: int = strawberry.field(
        description="Cards this entry stands for: more than 1 for a MIG group, cards in MIG mode whose "
        "instances the node lists only per profile, so which card holds which instance is not known."
    )
    free_vram_mib: int
    free_cores: int
    tenants: list[CardTenant]
    mig_instances: list[MigInstance]


@strawberry.type
class AllocationView:
    session_id: strawberry.ID | None = strawberry.field(description="Global ID of the session, when visible to you.")
    kind: GpuKind  # type: ignore[valid-type]
    ratio: str
    card_uuids: list[str]
    vram_mib: int
    cores: int
    cpu_millicores: int
    memory_mib: int
    session_name: str | None = strawberry.field(default=None, description="Its name, when visible to you.")


@strawberry.type(description="CPU and memory a CPU-only session holds on a node (it holds no card).")
class CpuAllocationView:
    session_id: strawberry.ID | None = strawberry.field(description="Global ID of the session, when visible to you.")
    cpu_millicores: int
    memory_mib: int
    session_name: str | None = strawberry.field(default=None, description="Its name, when visible to you.")


@strawberry.type
class ClusterNode:
    id: str
    name: str
    cluster_id: str
    cluster_name: str
    placement_policy: str
    sharing_mode: SharingMode  # type: ignore[valid-type]
    cpu_millicores: int
    memory_mib: int
    free_cpu_millicores: int
    free_memory_mib: int
    cordoned: bool
    schedulable: bool
    labels: strawberry.scalars.JSON
    stale_resources: list[str] = strawberry.field(
        description="GPU resources the node still lists but no longer serves."
    )
    cards: list[Card]
    allocations: list[AllocationView] = strawberry.field(description="What GPU sessions hold on this node.")
    cpu_only_allocations: list[CpuAllocationView] = strawberry.field(
        description="What CPU-only sessions hold on this node: they are placed on nodes like any session."
    )


def visible_session(info: Info, workload_id: str, owners: dict[str, object]) -> Any | None:
    """The session behind a workload, when the viewer may see it."""
    session = owners.get(workload_id)
    actor = info.context.actor
    if session is None or actor is None or not can_see_session(actor, session):  # type: ignore[arg-type]
        return None
    return session


def visible_session_gid(info: Info, workload_id: str, owners: dict[str, object]) -> strawberry.ID | None:
    from strawberry import relay

    if visible_session(info, workload_id, owners) is None:
        return None
    return strawberry.ID(str(relay.GlobalID("Session", workload_id)))


def node_of(info: Info, view: NodeView, scheduler: object, owners: dict[str, object]) -> ClusterNode:
    node = view.node
    tenants_by_card: dict[str, list[CardTenant]] = {}
    mig_tenant: dict[str, tuple[str | None, str | None]] = {}
    allocations: list[AllocationView] = []
    cpu_only: list[CpuAllocationView] = []
    for a in view.allocations:
        sid = visible_session_gid(info, a.workload_id, owners)
        seen = visible_session(info, a.workload_id, owners)
        name = seen.name if seen is not None else None
        p = a.placement
        if p.kind is None:
            cpu_only.append(
                CpuAllocationView(
                    session_id=sid, cpu_millicores=p.cpu_millicores, memory_mib=p.memory_mib, session_name=name
                )
            )
            continue
        for share in p.shares:
            tenants_by_card.setdefault(share.card_uuid, []).append(
                CardTenant(session_id=sid, vram_mib=share.vram_mib, cores=share.cores, session_name=name)
            )
            if share.mig_instance_id:
                mig_tenant[share.mig_instance_id] = (sid, name)
        allocations.append(_allocation(a, sid, name))
    cards = []
    for card in node.cards:
        free = scheduler.card_free(card.uuid)  # type: ignore[attr-defined]
        cards.append(
            Card(
                uuid=card.uuid,
                model=card.model,
                vram_mib=card.vram_mib,
                cores=card.cores,
                mig_enabled=card.mig_enabled,
                timeslice_replicas=card.timeslice_replicas,
                identified=card.identified,
                physical_count=card.physical_count,
                free_vram_mib=free[0],
                free_cores=free[1],
                tenants=tenants_by_card.get(card.uuid, []),
                mig_instances=[
                    MigInstance(
                        id=m.id,
                        profile=m.profile.name,
                        vram_mib=m.profile.vram_mib,
                        tenant=mig_tenant.get(m.id, (None, None))[0],
                        tenant_name=mig_tenant.get(m.id, (None, None))[1],
                    )
                    for m in card.mig_instances
                ],
            )
        )
    return ClusterNode(
        id=node.id,
        name=node.name,
        cluster_id=node.cluster_id,
        cluster_name=view.cluster.name,
        placement_policy=view.cluster.placement_policy,
        sharing_mode=node.sharing_mode,
        cpu_millicores=node.cpu_millicores,
        memory_mib=node.memory_mib,
        free_cpu_millicores=view.free_cpu_millicores,
        free_memory_mib=view.free_memory_mib,
        cordoned=node.cordoned,
        schedulable=node.schedulable,
        labels=dict(node.labels),
        stale_resources=list(node.stale_resources),
        cards=cards,
        allocations=allocations,
        cpu_only_allocations=cpu_only,
    )


def _allocation(a: Allocation, sid: strawberry.ID | None, name: str | None) -> AllocationView:
    p = a.placement
    return AllocationView(
        session_id=sid,
        kind=p.kind,
        ratio=f"{p.ratio.numerator}/{p.ratio.denominator}",
        card_uuids=list(p.card_uuids),
        vram_mib=p.vram_mib,
        cores=p.cores,
        cpu_millicores=p.cpu_millicores,
        memory_mib=p.memory_mib,
        session_name=name,
    )


@strawberry.type(description="A queued request with its place in its offering's queue.")
class QueueEntryView:
    session_id: strawberry.ID | None
    session_name: str | None = strawberry.field(description="The session's name, when visible to you.")
    offering: str
    position: int
    length: int
    priority: int
    ratio_or_cards: str = strawberry.field(
        description="What it asks for, in English words (clients localise the typed fields below)."
    )
    exclusive_cards: int = strawberry.field(
        default=0, description="Whole cards asked for (0 when it asks for a share)."
    )
    shared: bool = strawberry.field(default=False, description="A time-slice of a card.")
    vram_mib: int = strawberry.field(default=0, description="A HAMi fraction's memory (0 otherwise).")
    cores: int = strawberry.field(default=0, description="A HAMi fraction's compute percentage (0 otherwise).")

    @classmethod
    def of(cls, row: QueueRow, sid: strawberry.ID | None, name: str | None = None) -> QueueEntryView:
        r = row.entry.request
        size = (
            f"{r.exclusive_cards} card(s)"
            if r.exclusive_cards
            else ("time-slice" if r.shared else f"{r.vram_mib} MiB / {r.cores}%")
        )
        return cls(
            session_id=sid,
            session_name=name if sid is not None else None,
            offering=r.offering,
            position=row.position,
            length=row.length,
            priority=r.priority,
            ratio_or_cards=size,
            exclusive_cards=r.exclusive_cards,
            shared=bool(r.shared),
            vram_mib=0 if r.exclusive_cards or r.shared else r.vram_mib,
            cores=0 if r.exclusive_cards or r.shared else r.cores,
        )
