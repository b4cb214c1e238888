from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.money import Credits, CreditsRange
from api.common.nodes import resolve_authorised
from api.context import Info
from api.tenancy.types import OrganizationNode
from domain.catalog import services as catalog
from domain.catalog.model import GpuTier as GpuTierModel
from domain.catalog.model import Image as ImageModel
from domain.catalog.model import ImageScope as ImageScopeModel
from domain.catalog.model import Offering as OfferingModel
from domain.catalog.model import Preset as PresetModel
from domain.catalog.model import Registry as RegistryModel
from domain.catalog.model import class_cost_range, gpu_limits, hourly_cost_micro
from domain.common.errors import DomainError

GpuTier = strawberry.enum(
    GpuTierModel,
    name="GpuTier",
    description="XL=1/2, L=1/4, M=1/8, S=1/16 of a card; EXCLUSIVE=N cards; CUSTOM; NONE=CPU only.",
)
ImageScope = strawberry.enum(ImageScopeModel, name="ImageScope")


@strawberry.type(description="What makes an offering a class of cards: the scheduler picks the model.")
class CardClass:
    models: list[str] = strawberry.field(
        description="The card models it may use; empty: any model with at least the offering's vramMib."
    )


@strawberry.type(
    name="Offering",
    description="One accelerator model as a whole card, or a class of cards (cardClass): any enabled model "
    "with at least vramMib of memory (among cardClass.models when it names some), billed at the rate of the "
    "card a session is placed on.",
)
class OfferingNode(relay.Node):
    uuid: relay.NodeID[str]
    vendor: str
    name: str
    vram_mib: int
    cores: int
    min_cuda: str
    resource_name: str
    description: str
    enabled: bool
    shareable: bool = strawberry.field(description="Whether HAMi / MIG / time-slicing can split it (NVIDIA only).")
    created_at: datetime
    model: strawberry.Private[OfferingModel]

    @strawberry.field(description="Credits per hour for one whole card (0 for a class of cards: see hourlyRateRange).")
    def hourly_rate(self) -> Credits:
        return Credits.of(self.model.hourly_rate_micro)

    @strawberry.field(description="Null for one model; for a class of cards, what it admits.")
    def card_class(self) -> CardClass | None:
        c = self.model.card_class
        return None if c is None else CardClass(models=list(c.models))

    @strawberry.field(
        description="For a class of cards, the enabled offerings it may be placed on; empty for one model."
    )
    async def members(self, info: Info) -> list[OfferingNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return [OfferingNode.of(o) for o in await catalog.offering_members(uow, actor, self.model)]

    @strawberry.field(
        description="Credits per hour for one whole card: the cheapest and the dearest card of a class (both the "
        "offering's rate for one model); null for a class with no enabled card."
    )
    async def hourly_rate_range(self, info: Info) -> CreditsRange | None:
        if self.model.card_class is None:
            return CreditsRange.of(self.model.hourly_rate_micro, self.model.hourly_rate_micro)
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            rates = [o.hourly_rate_micro for o in await catalog.offering_members(uow, actor, self.model)]
        return CreditsRange.of(min(rates), max(rates)) if rates else None

    @classmethod
    def of(cls, o: OfferingModel) -> OfferingNode:
        return cls(
            uuid=str(o.id),
            vendor=o.vendor,
            name=o.name,
            vram_mib=o.vram_mib,
            cores=o.cores,
            min_cuda=str(o.min_cuda),
            resource_name=o.resource_name,
            description=o.description,
            enabled=o.enabled,
            shareable=o.shareable,
            created_at=o.created_at,
            model=o,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, catalog.offering_get, cls.of)


@strawberry.type(description="What a preset gives on one offering's card.")
class GpuLimits:
    vram_mib: int
    cores: int
    cards: int
    ratio: str = strawberry.field(description='Billing ratio as an exact fraction, e.g. "1/4".')
    ratio_value: float = strawberry.field(description="The ratio as a number, for display only.")
    exclusive: bool
    hourly_cost: Credits


@strawberry.type(name="Preset", description="CPU, memory, disk, shm and a GPU tier.")
class PresetNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    cpu_millicores: int
    memory_mib: int
    disk_gib: int
    shm_mib: int
    tier: GpuTier  # type: ignore[valid-type]
    gpu_count: int
    custom_vram_mib: int | None
    custom_cores: int | None
    description: str
    created_at: datetime
    model: strawberry.Private[PresetModel]

    @classmethod
    def of(cls, p: PresetModel) -> PresetNode:
        return cls(
            uuid=str(p.id),
            name=p.name,
            cpu_millicores=p.cpu_millicores,
            memory_mib=p.memory_mib,
            disk_gib=p.disk_gib,
            shm_mib=p.shm_mib,
            tier=p.tier,
            gpu_count=p.gpu_count,
            custom_vram_mib=p.custom_vram_mib,
            custom_cores=p.custom_cores,
            description=p.description,
            created_at=p.created_at,
            model=p,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, catalog.preset_get, cls.of)

    @strawberry.field
    def cpu_only(self) -> bool:
        return self.model.cpu_only

    @strawberry.field(
        description="Shown before admission: what the preset costs per hour on the cheapest and on the dearest "
        "card the offering may place it on (equal for one model); null for CPU-only presets or when it fits no card."
    )
    async def hourly_cost_range(self, info: Info, offering_id: strawberry.ID) -> CreditsRange | None:
        from api.common.ids import decode

        actor = info.context.require_actor()
        try:
            async with info.context.container.uow() as uow:
                offering = await catalog.offering_get(uow, actor, decode(offering_id, "Offering", "offeringId"))
                members = await catalog.offering_members(uow, actor, offering) if offering.card_class else [offering]
        except DomainError:
            return None
        found = class_cost_range(members, self.model)
        return None if found is None else CreditsRange.of(found.low_micro, found.high_micro)

    @strawberry.field(
        description="VRAM/core limits, card count, ratio and hourly cost on an offering's card (for a class of "
        "cards, on its dearest card); null for CPU-only presets or when it does not fit the card."
    )
    async def gpu_limits(self, info: Info, offering_id: strawberry.ID) -> GpuLimits | None:
        from api.common.ids import decode

        try:
            offering = await info.context.loaders.offering_by_id.load(decode(offering_id, "Offering", "offeringId"))
            if offering is None:
                return None
            if offering.card_class is not None:
                actor = info.context.require_actor()
                async with info.context.container.uow() as uow:
                    members = await catalog.offering_members(uow, actor, offering)
                offering = _dearest_for(members, self.model)
                if offering is None:
                    return None
            limits = gpu_limits(offering, self.model)
        except DomainError:
            return None
        if limits is None:
            return None
        return GpuLimits(
            vram_mib=limits.vram_mib,
            cores=limits.cores,
            cards=limits.cards,
            ratio=str(limits.ratio),
            ratio_value=float(limits.ratio),
            exclusive=limits.exclusive,
            hourly_cost=Credits.of(hourly_cost_micro(offering, limits)),
        )


def _dearest_for(members: list[OfferingModel], preset: PresetModel) -> OfferingModel | None:
    """The card of a class on which the preset costs the most per hour (the first by name on
    a tie); None when it fits none."""
    best: tuple[int, OfferingModel] | None = None
    for card in members:
        try:
            limits = gpu_limits(card, preset)
        except DomainError:
            continue
        cost = hourly_cost_micro(card, limits)
        if best is None or cost > best[0]:
            best = (cost, card)
    return None if best is None else best[1]


@strawberry.type(name="Registry", description="An image registry; global or of one organisation.")
class RegistryNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    url: str
    description: str
    created_at: datetime
    organization_uuid: strawberry.Private[UUID | None]
    username: str | None = strawberry.field(description="The pull credentials' user name (null: public pulls).")
    has_credentials: bool = strawberry.field(
        description="Whether pull credentials are stored (the password is never shown)."
    )
    pull_secret_name: str | None = strawberry.field(
        description="The imagePullSecret sessions of its images carry in the sessions namespace."
    )

    @classmethod
    def of(cls, r: RegistryModel) -> RegistryNode:
        return cls(
            uuid=str(r.id),
            name=r.name,
            url=r.url,
            description=r.description,
            created_at=r.created_at,
            organization_uuid=r.organization_id,
            username=r.username,
            has_credentials=r.has_credentials,
            pull_secret_name=r.pull_secret_name if r.has_credentials else None,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, catalog.registry_get, cls.of)

    @strawberry.field
    async def organization(self, info: Info) -> OrganizationNode | None:
        if self.organization_uuid is None:
            return None
        org = await info.context.loaders.organization_by_id.load(self.organization_uuid)
        return OrganizationNode.of(org) if org else None


@strawberry.type(name="Image", description="A container image with the CUDA version it ships.")
class ImageNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    reference: str
    cuda_version: str | None
    scope: ImageScope  # type: ignore[valid-type]
    description: str
    created_at: datetime
    model: strawberry.Private[ImageModel]

    @classmethod
    def of(cls, i: ImageModel) -> ImageNode:
        return cls(
            uuid=str(i.id),
            name=i.name,
            reference=i.reference,
            cuda_version=str(i.cuda_version) if i.cuda_version else None,
            scope=i.scope,
            description=i.description,
            created_at=i.created_at,
            model=i,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, catalog.image_get, cls.of)

    @strawberry.field
    async def registry(self, info: Info) -> RegistryNode | None:
        if self.model.registry_id is None:
            return None
        r = await info.context.loaders.registry_by_id.load(self.model.registry_id)
        return RegistryNode.of(r) if r else None

    @strawberry.field
    async def organization(self, info: Info) -> OrganizationNode | None:
        if self.model.organization_id is None:
            return None
        org = await info.context.loaders.organization_by_id.load(self.model.organization_id)
        return OrganizationNode.of(org) if org else None

    @strawberry.field(description="Whether this image's CUDA meets an offering's minimum; with the reason when not.")
    async def cuda_compatibility(self, info: Info, offering_id: strawberry.ID) -> CudaCompatibility:
        from api.common.ids import decode
        from domain.catalog.model import check_cuda_compatible

        try:
            offering = await info.context.loaders.offering_by_id.load(decode(offering_id, "Offering", "offeringId"))
            if offering is None:
                return CudaCompatibility(compatible=False, reason="unknown offering")
            check_cuda_compatible(self.model, offering)
        except DomainError as exc:
            return CudaCompatibility(compatible=False, reason=exc.message)
        return CudaCompatibility(compatible=True, reason=None)


@strawberry.type
class CudaCompatibility:
    compatible: bool
    reason: str | None
