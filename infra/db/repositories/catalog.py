"""PostgreSQL repository for the catalog."""

from __future__ import annotations

from typing import Any, TypeVar
from uuid import UUID

from sqlalchemy import Select, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from domain.catalog.model import CardClass, CudaVersion, GpuTier, Image, ImageScope, Offering, Preset, Registry
from infra.db.base import Base, by_id, get_row
from infra.db.models.catalog import ImageRow, OfferingRow, PresetRow, RegistryRow

R = TypeVar("R", bound=Base)


def _offering(r: OfferingRow) -> Offering:
    return Offering(
        r.id,
        r.vendor,
        r.name,
        r.vram_mib,
        r.cores,
        CudaVersion.parse(r.min_cuda),
        r.hourly_rate_micro,
        r.resource_name,
        r.created_at,
        r.description,
        r.enabled,
        None if r.card_class is None else CardClass(tuple(str(m) for m in r.card_class.get("models", ()))),
    )


def _card_class(o: Offering) -> dict[str, Any] | None:
    return None if o.card_class is None else {"models": list(o.card_class.models)}


def _preset(r: PresetRow) -> Preset:
    return Preset(
        r.id,
        r.name,
        r.cpu_millicores,
        r.memory_mib,
        r.disk_gib,
        r.shm_mib,
        GpuTier(r.tier),
        r.created_at,
        r.gpu_count,
        r.custom_vram_mib,
        r.custom_cores,
        r.description,
    )


def _registry(r: RegistryRow) -> Registry:
    return Registry(r.id, r.name, r.url, r.created_at, r.organization_id, r.description, r.username, r.password_sealed)


def _image(r: ImageRow) -> Image:
    return Image(
        r.id,
        r.name,
        r.reference,
        CudaVersion.parse(r.cuda_version) if r.cuda_version else None,
        ImageScope(r.scope),
        r.created_at,
        r.registry_id,
        r.organization_id,
        r.owner_user_id,
        r.description,
    )


_OFFERING_BY_ID = by_id(OfferingRow)
_PRESET_BY_ID = by_id(PresetRow)
_IMAGE_BY_ID = by_id(ImageRow)


class SqlCatalogRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    async def _page(self, q: Select[R], order: Any, offset: int, limit: int) -> tuple[list[R], int]:
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = list(await self.s.scalars(q.order_by(*order).offset(offset).limit(limit)))
        return rows, total

    async def _taken(self, q: Select[UUID], id_col: Any, exclude: UUID | None) -> bool:
        if exclude is not None:
            q = q.where(id_col != exclude)
        return (await self.s.scalar(q.limit(1))) is not None

    # offerings
    async def get_offering(self, offering_id: UUID) -> Offering | None:
        r = await get_row(self.s, _OFFERING_BY_ID, offering_id)
        return _offering(r) if r else None

    async def get_offerings(self, ids: list[UUID]) -> list[Offering]:
        return [_offering(r) for r in await self.s.scalars(select(OfferingRow).where(OfferingRow.id.in_(ids)))]

    async def offering_name_taken(self, name: str, exclude: UUID | None = None) -> bool:
        q = select(OfferingRow.id).where(func.lower(OfferingRow.name) == name.lower())
        return await self._taken(q, OfferingRow.id, exclude)

    async def list_offerings(self, offset: int, limit: int, enabled_only: bool = False) -> tuple[list[Offering], int]:
        q = select(OfferingRow)
        if enabled_only:
            q = q.where(OfferingRow.enabled)
        rows, total = await self._page(q, (OfferingRow.name,), offset, limit)
        return [_offering(r) for r in rows], total

    async def add_offering(self, o: Offering) -> None:
        self.s.add(
            OfferingRow(
                id=o.id,
                vendor=o.vendor,
                name=o.name,
                vram_mib=o.vram_mib,
                cores=o.cores,
                min_cuda=str(o.min_cuda),
                hourly_rate_micro=o.hourly_rate_micro,
                resource_name=o.resource_name,
                description=o.description,
                enabled=o.enabled,
                card_class=_card_class(o),
                created_at=o.created_at,
            )
        )
        await self.s.flush()

    async def update_offering(self, o: Offering) -> None:
        await self.s.execute(
            update(OfferingRow)
            .where(OfferingRow.id == o.id)
            .values(
                name=o.name,
                min_cuda=str(o.min_cuda),
                hourly_rate_micro=o.hourly_rate_micro,
                description=o.description,
                enabled=o.enabled,
                card_class=_card_class(o),
            )
        )

    async def delete_offering(self, offering_id: UUID) -> None:
        await self.s.execute(delete(OfferingRow).where(OfferingRow.id == offering_id))

    # presets
    async def get_preset(self, preset_id: UUID) -> Preset | None:
        r = await get_row(self.s, _PRESET_BY_ID, preset_id)
        return _preset(r) if r else None

    async def get_presets(self, ids: list[UUID]) -> list[Preset]:
        return [_preset(r) for r in await self.s.scalars(select(PresetRow).where(PresetRow.id.in_(ids)))]

    async def preset_name_taken(self, name: str, exclude: UUID | None = None) -> bool:
        return await self._taken(
            select(PresetRow.id).where(func.lower(PresetRow.name) == name.lower()), PresetRow.id, exclude
        )

    async def list_presets(self, offset: int, limit: int) -> tuple[list[Preset], int]:
        rows, total = await self._page(select(PresetRow), (PresetRow.gpu_count.desc(), PresetRow.name), offset, limit)
        return [_preset(r) for r in rows], total

    def _preset_values(self, p: Preset) -> dict[str, Any]:
        return dict(
            name=p.name,
            cpu_millicores=p.cpu_millicores,
            memory_mib=p.memory_mib,
            disk_gib=p.disk_gib,
            shm_mib=p.shm_mib,
            tier=p.tier.value,
            gpu_count=p.gpu_count,
            custom_vram_mib=p.custom_vram_mib,
            custom_cores=p.custom_cores,
            description=p.description,
        )

    async def add_preset(self, p: Preset) -> None:
        self.s.add(PresetRow(id=p.id, created_at=p.created_at, **self._preset_values(p)))
        await self.s.flush()

    async def update_preset(self, p: Preset) -> None:
        await self.s.execute(update(PresetRow).where(PresetRow.id == p.id).values(**self._preset_values(p)))

    async def delete_preset(self, preset_id: UUID) -> None:
        await self.s.execute(delete(PresetRow).where(PresetRow.id == preset_id))

    # registries
    async def get_registry(self, registry_id: UUID) -> Registry | None:
        r = await self.s.get(RegistryRow, registry_id)
        return _registry(r) if r else None

    async def get_registries(self, ids: list[UUID]) -> list[Registry]:
        return [_registry(r) for r in await self.s.scalars(select(RegistryRow).where(RegistryRow.id.in_(ids)))]

    async def registry_name_taken(self, name: str, organization_id: UUID | None, exclude: UUID | None = None) -> bool:
        q = select(RegistryRow.id).where(func.lower(RegistryRow.name) == name.lower())
        q = q.where(
            RegistryRow.organization_id.is_(None)
            if organization_id is None
            else RegistryRow.organization_id == organization_id
        )
        return await self._taken(q, RegistryRow.id, exclude)

    async def list_registries(
        self, org_ids: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Registry], int]:
        q = select(RegistryRow)
        if org_ids is not None:
            q = q.where(or_(RegistryRow.organization_id.is_(None), RegistryRow.organization_id.in_(org_ids)))
        rows, total = await self._page(q, (RegistryRow.name, RegistryRow.id), offset, limit)
        return [_registry(r) for r in rows], total

    async def add_registry(self, r: Registry) -> None:
        self.s.add(
            RegistryRow(
                id=r.id,
                name=r.name,
                url=r.url,
                organization_id=r.organization_id,
                description=r.description,
                username=r.username,
                password_sealed=r.password_sealed,
                created_at=r.created_at,
            )
        )
        await self.s.flush()

    async def update_registry(self, r: Registry) -> None:
        await self.s.execute(
            update(RegistryRow)
            .where(RegistryRow.id == r.id)
            .values(
                name=r.name,
                url=r.url,
                description=r.description,
                username=r.username,
                password_sealed=r.password_sealed,
            )
        )

    async def delete_registry(self, registry_id: UUID) -> None:
        await self.s.execute(delete(RegistryRow).where(RegistryRow.id == registry_id))

    async def count_images_in_registry(self, registry_id: UUID) -> int:
        return await self.s.scalar(select(func.count()).where(ImageRow.registry_id == registry_id)) or 0

    # images
    async def get_image(self, image_id: UUID) -> Image | None:
        r = await get_row(self.s, _IMAGE_BY_ID, image_id)
        return _image(r) if r else None

    async def get_images(self, ids: list[UUID]) -> list[Image]:
        return [_image(r) for r in await self.s.scalars(select(ImageRow).where(ImageRow.id.in_(ids)))]

    async def image_name_taken(self, image: Image, exclude: UUID | None = None) -> bool:
        q = select(ImageRow.id).where(
            ImageRow.scope == image.scope.value, func.lower(ImageRow.name) == image.name.lower()
        )
        owner = image.organization_id or image.owner_user_id
        q = q.where(
            func.coalesce(ImageRow.organization_id, ImageRow.owner_user_id).is_(None)
            if owner is None
            else func.coalesce(ImageRow.organization_id, ImageRow.owner_user_id) == owner
        )
        return await self._taken(q, ImageRow.id, exclude)

    async def list_images(
        self, *, org_ids: frozenset[UUID] | None, owner_user_id: UUID | None, offset: int, limit: int
    ) -> tuple[list[Image], int]:
        q = select(ImageRow)
        if org_ids is not None:
            conds = [ImageRow.scope == "global"]
            if org_ids:
                conds.append(ImageRow.organization_id.in_(org_ids))
            if owner_user_id is not None:
                conds.append(ImageRow.owner_user_id == owner_user_id)
            q = q.where(or_(*conds))
        rows, total = await self._page(q, (ImageRow.scope, ImageRow.name, ImageRow.id), offset, limit)
        return [_image(r) for r in rows], total

    def _image_values(self, i: Image) -> dict[str, Any]:
        return dict(
            name=i.name,
            reference=i.reference,
            cuda_version=str(i.cuda_version) if i.cuda_version else None,
            description=i.description,
        )

    async def add_image(self, i: Image) -> None:
        self.s.add(
            ImageRow(
                id=i.id,
                scope=i.scope.value,
                registry_id=i.registry_id,
                organization_id=i.organization_id,
                owner_user_id=i.owner_user_id,
                created_at=i.created_at,
                **self._image_values(i),
            )
        )
        await self.s.flush()

    async def update_image(self, i: Image) -> None:
        await self.s.execute(update(ImageRow).where(ImageRow.id == i.id).values(**self._image_values(i)))

    async def delete_image(self, image_id: UUID) -> None:
        await self.s.execute(delete(ImageRow).where(ImageRow.id == image_id))
