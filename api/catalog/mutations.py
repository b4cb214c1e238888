from __future__ import annotations

import logging
from typing import Any

import strawberry

from api.catalog import inputs
from api.catalog.types import ImageNode, OfferingNode, PresetNode, RegistryNode
from api.common.errors import UserError
from api.common.ids import decode, decode_optional, node_id_of
from api.common.mutations import mutate
from api.common.payloads import DeletePayload, IdInput
from api.context import Info
from domain.audit.services import AuditTarget
from domain.catalog import services as catalog
from domain.catalog.model import Image, Offering, Preset, Registry
from infra.catalog.crypto import registry_box


@strawberry.type
class OfferingPayload:
    offering: OfferingNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class PresetPayload:
    preset: PresetNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class RegistryPayload:
    registry: RegistryNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class ImagePayload:
    image: ImageNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


def _offering_target(o: Offering) -> AuditTarget:
    return AuditTarget("Offering", str(o.id))


def _preset_target(p: Preset) -> AuditTarget:
    return AuditTarget("Preset", str(p.id))


log = logging.getLogger(__name__)


async def _forget_pull_secret(container: Any, name: str) -> None:
    """Credentials removed: their Secret leaves every cluster (a cluster that cannot be reached
    now keeps it until an admin removes it; logged)."""
    for port in container.clusters.all():
        try:
            await port.delete_pull_secret(name)
        except Exception as exc:
            log.warning("cluster %s kept pull secret %s: %s", port.cluster_id, name, type(exc).__name__)


def _registry_target(r: Registry) -> AuditTarget:
    return AuditTarget("Registry", str(r.id), r.organization_id)


def _image_target(i: Image) -> AuditTarget:
    return AuditTarget("Image", str(i.id), i.organization_id)


def _offering(o: Offering) -> OfferingPayload:
    return OfferingPayload(offering=OfferingNode.of(o))


def _preset(p: Preset) -> PresetPayload:
    return PresetPayload(preset=PresetNode.of(p))


def _registry(r: Registry) -> RegistryPayload:
    return RegistryPayload(registry=RegistryNode.of(r))


def _image(i: Image) -> ImagePayload:
    return ImagePayload(image=ImageNode.of(i))


@strawberry.type
class CatalogMutation:
    @strawberry.mutation
    async def offering_create(self, info: Info, input: inputs.OfferingCreateInput) -> OfferingPayload:
        c = info.context.container
        return await mutate(
            info.context,
            "offeringCreate",
            lambda uow, actor: catalog.offering_create(
                uow,
                actor,
                c.ids,
                c.clock,
                vendor=input.vendor,
                name=input.name,
                vram_mib=input.vram_mib,
                min_cuda=input.min_cuda,
                hourly_rate_micro=input.hourly_rate_micro,
                cores=input.cores,
                resource_name=input.resource_name,
                description=input.description,
                enabled=input.enabled,
                card_models=None if input.card_class is None else input.card_class.models,
            ),
            _offering_target,
            _offering,
            lambda e: OfferingPayload(errors=e),
            attempted=AuditTarget("Offering"),
        )

    @strawberry.mutation
    async def offering_update(self, info: Info, input: inputs.OfferingUpdateInput) -> OfferingPayload:
        return await mutate(
            info.context,
            "offeringUpdate",
            lambda uow, actor: catalog.offering_update(
                uow,
                actor,
                decode(input.id, "Offering", "id"),
                name=input.name,
                min_cuda=input.min_cuda,
                hourly_rate_micro=input.hourly_rate_micro,
                description=input.description,
                enabled=input.enabled,
                card_models=None if input.card_class is None else input.card_class.models,
            ),
            _offering_target,
            _offering,
            lambda e: OfferingPayload(errors=e),
            attempted=AuditTarget("Offering", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def offering_delete(self, info: Info, input: IdInput) -> DeletePayload:
        return await mutate(
            info.context,
            "offeringDelete",
            lambda uow, actor: catalog.offering_delete(uow, actor, decode(input.id, "Offering", "id")),
            _offering_target,
            lambda _: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Offering", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def preset_create(self, info: Info, input: inputs.PresetCreateInput) -> PresetPayload:
        c = info.context.container
        return await mutate(
            info.context,
            "presetCreate",
            lambda uow, actor: catalog.preset_create(
                uow,
                actor,
                c.ids,
                c.clock,
                name=input.name,
                cpu_millicores=input.cpu_millicores,
                memory_mib=input.memory_mib,
                disk_gib=input.disk_gib,
                shm_mib=input.shm_mib,
                tier=input.tier,
                gpu_count=input.gpu_count,
                custom_vram_mib=input.custom_vram_mib,
                custom_cores=input.custom_cores,
                description=input.description,
            ),
            _preset_target,
            _preset,
            lambda e: PresetPayload(errors=e),
            attempted=AuditTarget("Preset"),
        )

    @strawberry.mutation
    async def preset_update(self, info: Info, input: inputs.PresetUpdateInput) -> PresetPayload:
        return await mutate(
            info.context,
            "presetUpdate",
            lambda uow, actor: catalog.preset_update(
                uow,
                actor,
                decode(input.id, "Preset", "id"),
                name=input.name,
                cpu_millicores=input.cpu_millicores,
                memory_mib=input.memory_mib,
                disk_gib=input.disk_gib,
                shm_mib=input.shm_mib,
                tier=input.tier,
                gpu_count=input.gpu_count,
                custom_vram_mib=input.custom_vram_mib,
                custom_cores=input.custom_cores,
                description=input.description,
            ),
            _preset_target,
            _preset,
            lambda e: PresetPayload(errors=e),
            attempted=AuditTarget("Preset", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def preset_delete(self, info: Info, input: IdInput) -> DeletePayload:
        return await mutate(
            info.context,
            "presetDelete",
            lambda uow, actor: catalog.preset_delete(uow, actor, decode(input.id, "Preset", "id")),
            _preset_target,
            lambda _: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Preset", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def registry_create(self, info: Info, input: inputs.RegistryCreateInput) -> RegistryPayload:
        c = info.context.container
        return await mutate(
            info.context,
            "registryCreate",
            lambda uow, actor: catalog.registry_create(
                uow,
                actor,
                c.ids,
                c.clock,
                name=input.name,
                url=input.url,
                organization_id=decode_optional(input.organization_id, "Organization", "organizationId"),
                description=input.description,
                username=input.username,
                password=input.password,
                seal=registry_box(c).seal,
            ),
            _registry_target,
            _registry,
            lambda e: RegistryPayload(errors=e),
            attempted=AuditTarget("Registry"),
        )

    @strawberry.mutation
    async def registry_update(self, info: Info, input: inputs.RegistryUpdateInput) -> RegistryPayload:
        c = info.context.container
        result = await mutate(
            info.context,
            "registryUpdate",
            lambda uow, actor: catalog.registry_update(
                uow,
                actor,
                decode(input.id, "Registry", "id"),
                name=input.name,
                url=input.url,
                description=input.description,
                username=input.username,
                password=input.password,
                clear_credentials=input.clear_credentials,
                seal=registry_box(c).seal,
            ),
            _registry_target,
            _registry,
            lambda e: RegistryPayload(errors=e),
            attempted=AuditTarget("Registry", node_id_of(input.id)),
        )
        if input.clear_credentials and result.registry is not None and not result.errors:
            await _forget_pull_secret(c, f"registry-{result.registry.uuid}")
        return result

    @strawberry.mutation
    async def registry_delete(self, info: Info, input: IdInput) -> DeletePayload:
        deleted: list[Registry] = []

        def ok(r: Registry) -> DeletePayload:
            deleted.append(r)
            return DeletePayload(deleted_id=input.id)

        result = await mutate(
            info.context,
            "registryDelete",
            lambda uow, actor: catalog.registry_delete(uow, actor, decode(input.id, "Registry", "id")),
            _registry_target,
            ok,
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Registry", node_id_of(input.id)),
        )
        if deleted and deleted[0].has_credentials and not result.errors:
            await _forget_pull_secret(info.context.container, deleted[0].pull_secret_name)
        return result

    @strawberry.mutation(
        description="Register an image: global (super_admin), for an organisation (its admins), or your own."
    )
    async def image_create(self, info: Info, input: inputs.ImageCreateInput) -> ImagePayload:
        c = info.context.container
        return await mutate(
            info.context,
            "imageCreate",
            lambda uow, actor: catalog.image_create(
                uow,
                actor,
                c.ids,
                c.clock,
                name=input.name,
                reference=input.reference,
                cuda_version=input.cuda_version,
                scope=input.scope,
                organization_id=decode_optional(input.organization_id, "Organization", "organizationId"),
                registry_id=decode_optional(input.registry_id, "Registry", "registryId"),
                description=input.description,
            ),
            _image_target,
            _image,
            lambda e: ImagePayload(errors=e),
            attempted=AuditTarget("Image"),
        )

    @strawberry.mutation
    async def image_update(self, info: Info, input: inputs.ImageUpdateInput) -> ImagePayload:
        return await mutate(
            info.context,
            "imageUpdate",
            lambda uow, actor: catalog.image_update(
                uow,
                actor,
                decode(input.id, "Image", "id"),
                name=input.name,
                reference=input.reference,
                cuda_version=input.cuda_version,
                description=input.description,
            ),
            _image_target,
            _image,
            lambda e: ImagePayload(errors=e),
            attempted=AuditTarget("Image", node_id_of(input.id)),
        )

    @strawberry.mutation
    async def image_delete(self, info: Info, input: IdInput) -> DeletePayload:
        return await mutate(
            info.context,
            "imageDelete",
            lambda uow, actor: catalog.image_delete(uow, actor, decode(input.id, "Image", "id")),
            _image_target,
            lambda _: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Image", node_id_of(input.id)),
        )
