from __future__ import annotations

import strawberry

from api.catalog.types import ImageNode, OfferingNode, PresetNode, RegistryNode
from api.common.pagination import Connection, paginate
from api.context import Info
from domain.catalog import services as catalog


@strawberry.type
class CatalogQuery:
    @strawberry.field(description="GPU offerings (disabled ones only for super_admins).")
    async def offerings(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[OfferingNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: catalog.offerings_list(uow, actor, p), OfferingNode.of, first, after, last, before
            )

    @strawberry.field
    async def presets(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[PresetNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: catalog.presets_list(uow, actor, p), PresetNode.of, first, after, last, before
            )

    @strawberry.field(description="Global registries and those of the viewer's organisations.")
    async def registries(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[RegistryNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: catalog.registries_list(uow, actor, p), RegistryNode.of, first, after, last, before
            )

    @strawberry.field(description="Global images, the viewer's organisations' images and the viewer's own.")
    async def images(
        self,
        info: Info,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[ImageNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: catalog.images_list(uow, actor, p), ImageNode.of, first, after, last, before
            )
