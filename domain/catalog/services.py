"""Catalog use cases. Offerings and presets are platform-wide (super_admin); registries and
images are global (super_admin), per organisation (its admins) or personal (their owner)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from uuid import UUID

from domain.catalog.errors import CatalogError, CatalogErrorCode
from domain.catalog.model import (
    NVIDIA_GPU_RESOURCE,
    WHOLE_CARD_CORES,
    CardClass,
    CudaVersion,
    GpuTier,
    Image,
    ImageScope,
    Offering,
    Preset,
    Registry,
    Sealer,
    check_image_reference,
    class_members,
)
from domain.common.clock import Clock, IdGenerator
from domain.common.errors import (
    DuplicateError,
    InvalidValueError,
    NotFoundError,
    PermissionDeniedError,
)
from domain.common.validation import ErrorCollector, clean_name, non_negative, positive
from domain.ports import UnitOfWork
from domain.tenancy import access
from domain.tenancy.model import Actor
from domain.tenancy.services import Page

_RESOURCE_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789.-/")
MAX_EXCLUSIVE_CARDS = 16
MAX_CLASS_SCAN = 1000  # offerings read to resolve a class of cards (a catalog holds dozens)


# ---------------------------------------------------------------- offerings


def _check_resource_name(value: str) -> str:
    v = value.strip()
    if v.count("/") != 1 or not set(v) <= _RESOURCE_NAME_CHARS or v.startswith("/") or v.endswith("/"):
        raise InvalidValueError(
            "resourceName",
            f"{value!r} is not a Kubernetes extended resource name (e.g. nvidia.com/gpu)",
        )
    return v


async def offerings_list(uow: UnitOfWork, actor: Actor, page: Page) -> tuple[list[Offering], int]:
    page = page.clamp()
    return await uow.catalog.list_offerings(page.offset, page.limit, enabled_only=not actor.is_super_admin)


async def offering_get(uow: UnitOfWork, actor: Actor, offering_id: UUID) -> Offering:
    o = await uow.catalog.get_offering(offering_id)
    if o is None or (not o.enabled and not actor.is_super_admin):
        raise NotFoundError("offering")
    return o


async def offering_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    vendor: str,
    name: str,
    vram_mib: int,
    min_cuda: str,
    hourly_rate_micro: int,
    cores: int = WHOLE_CARD_CORES,
    resource_name: str = NVIDIA_GPU_RESOURCE,
    description: str = "",
    enabled: bool = True,
    card_models: Sequence[str] | None = None,
) -> Offering:
    """One card model, or with `card_models` (possibly empty: any model) a class of cards:
    `vram_mib` is then the least VRAM a card of the class has, and the rate is that of the
    card a session is placed on (the class's own rate must be 0)."""
    access.require_super_admin(actor)
    errors = ErrorCollector()
    v = errors.check(clean_name, vendor, "vendor")
    n = errors.check(clean_name, name, "name")
    errors.check(positive, vram_mib, "vramMib")
    if cores != WHOLE_CARD_CORES:
        errors.add(InvalidValueError("cores", f"cores describe a whole card and must be {WHOLE_CARD_CORES}"))
    cuda = errors.check(CudaVersion.parse, min_cuda, "minCuda")
    errors.check(non_negative, hourly_rate_micro, "hourlyRate")
    rn = errors.check(_check_resource_name, resource_name)
    card_class: CardClass | None = None
    if card_models is not None:
        card_class = _card_class(errors, card_models)
        if hourly_rate_micro != 0:
            errors.add(
                InvalidValueError(
                    "hourlyRate", "a class of cards is billed at the rate of the card it is placed on: give 0"
                )
            )
    errors.raise_if_any()
    assert v and n and cuda and rn
    if await uow.catalog.offering_name_taken(n):
        raise DuplicateError("name", f"an offering named {n} already exists")
    offering = Offering(
        ids.new_id(),
        v,
        n,
        vram_mib,
        cores,
        cuda,
        hourly_rate_micro,
        rn,
        clock.now(),
        description.strip(),
        enabled,
        card_class,
    )
    await uow.catalog.add_offering(offering)
    return offering


def _card_class(errors: ErrorCollector, card_models: Sequence[str]) -> CardClass:
    """The class naming these models (trimmed, each once, sorted; empty: any model)."""
    models = tuple(dict.fromkeys(m.strip() for m in card_models))
    if any(not m for m in models):
        errors.add(InvalidValueError("cardClass.models", "a model name cannot be empty"))
    return CardClass(tuple(sorted(models)))


async def offering_members(uow: UnitOfWork, actor: Actor, offering: Offering) -> list[Offering]:
    """The enabled single-model offerings a class offering may be placed on (empty for a
    single-model offering)."""
    if offering.card_class is None:
        return []
    offerings, _ = await uow.catalog.list_offerings(0, MAX_CLASS_SCAN, enabled_only=True)
    return class_members(offering, offerings)


async def offering_update(
    uow: UnitOfWork,
    actor: Actor,
    offering_id: UUID,
    *,
    name: str | None = None,
    min_cuda: str | None = None,
    hourly_rate_micro: int | None = None,
    description: str | None = None,
    enabled: bool | None = None,
    card_models: Sequence[str] | None = None,
) -> Offering:
    """Changes what is named; `card_models` replaces the models of a class of cards (empty:
    any model with the class's VRAM) and is refused for a single-model offering."""
    access.require_super_admin(actor)
    o = await offering_get(uow, actor, offering_id)
    errors = ErrorCollector()
    if card_models is not None:
        if o.card_class is None:
            errors.add(
                InvalidValueError("cardClass", "only a class of cards names models: this offering is one card model")
            )
        else:
            o = replace(o, card_class=_card_class(errors, card_models))
    if name is not None:
        n = errors.check(clean_name, name, "name")
        if n:
            o = replace(o, name=n)
    if min_cuda is not None:
        cuda = errors.check(CudaVersion.parse, min_cuda, "minCuda")
        if cuda:
            o = replace(o, min_cuda=cuda)
    if hourly_rate_micro is not None and errors.check(non_negative, hourly_rate_micro, "hourlyRate") is not None:
        if o.card_class is not None and hourly_rate_micro != 0:
            errors.add(
                InvalidValueError(
                    "hourlyRate", "a class of cards is billed at the rate of the card it is placed on: give 0"
                )
            )
        o = replace(o, hourly_rate_micro=hourly_rate_micro)
    errors.raise_if_any()
    if description is not None:
        o = replace(o, description=description.strip())
    if enabled is not None:
        o = replace(o, enabled=enabled)
    if name is not None and await uow.catalog.offering_name_taken(o.name, exclude=o.id):
        raise DuplicateError("name", f"an offering named {o.name} already exists")
    await uow.catalog.update_offering(o)
    return o


async def offering_delete(uow: UnitOfWork, actor: Actor, offering_id: UUID) -> Offering:
    access.require_super_admin(actor)
    o = await offering_get(uow, actor, offering_id)
    await uow.catalog.delete_offering(o.id)
    return o


# ---------------------------------------------------------------- presets


def _validate_preset_gpu(
    errors: ErrorCollector,
    tier: GpuTier,
    gpu_count: int | None,
    custom_vram_mib: int | None,
    custom_cores: int | None,
) -> tuple[int, int | None, int | None]:
    if tier == GpuTier.NONE:
        for field, value in (
            ("gpuCount", gpu_count),
            ("customVramMib", custom_vram_mib),
            ("customCores", custom_cores),
        ):
            if value:
                errors.add(
                    CatalogError(
                        CatalogErrorCode.TIER_ON_CPU_ONLY_PRESET,
                        "a CPU-only preset cannot ask for GPU resources",
                        field,
                    )
                )
        return 0, None, None
    if tier == GpuTier.EXCLUSIVE:
        if gpu_count is None or not 1 <= gpu_count <= MAX_EXCLUSIVE_CARDS:
            errors.add(InvalidValueError("gpuCount", f"an exclusive preset needs 1–{MAX_EXCLUSIVE_CARDS} whole cards"))
        return gpu_count or 0, None, None
    if gpu_count not in (None, 0, 1):
        errors.add(InvalidValueError("gpuCount", "a fractional preset takes a share of one card"))
    if tier == GpuTier.CUSTOM:
        if custom_vram_mib is None or custom_vram_mib <= 0:
            errors.add(InvalidValueError("customVramMib", "a custom preset needs a VRAM share in MiB"))
        if custom_cores is None or not 1 <= custom_cores <= WHOLE_CARD_CORES:
            errors.add(InvalidValueError("customCores", "a custom preset needs a core share of 1–100 percent"))
        return 1, custom_vram_mib, custom_cores
    if custom_vram_mib or custom_cores:
        errors.add(
            InvalidValueError(
                "customVramMib",
                f"tier {tier} sets its own share; use tier CUSTOM for explicit limits",
            )
        )
    return 1, None, None


async def presets_list(uow: UnitOfWork, actor: Actor, page: Page) -> tuple[list[Preset], int]:
    page = page.clamp()
    return await uow.catalog.list_presets(page.offset, page.limit)


async def preset_get(uow: UnitOfWork, actor: Actor, preset_id: UUID) -> Preset:
    p = await uow.catalog.get_preset(preset_id)
    if p is None:
        raise NotFoundError("preset")
    return p


async def preset_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    name: str,
    cpu_millicores: int,
    memory_mib: int,
    disk_gib: int,
    shm_mib: int,
    tier: GpuTier,
    gpu_count: int | None = None,
    custom_vram_mib: int | None = None,
    custom_cores: int | None = None,
    description: str = "",
) -> Preset:
    access.require_super_admin(actor)
    errors = ErrorCollector()
    n = errors.check(clean_name, name, "name")
    errors.check(positive, cpu_millicores, "cpuMillicores")
    errors.check(positive, memory_mib, "memoryMib")
    errors.check(non_negative, disk_gib, "diskGib")
    errors.check(non_negative, shm_mib, "shmMib")
    if shm_mib > memory_mib > 0:
        errors.add(InvalidValueError("shmMib", "shared memory cannot exceed the preset's memory"))
    count, vram, cores = _validate_preset_gpu(errors, tier, gpu_count, custom_vram_mib, custom_cores)
    errors.raise_if_any()
    assert n
    if await uow.catalog.preset_name_taken(n):
        raise DuplicateError("name", f"a preset named {n} already exists")
    preset = Preset(
        ids.new_id(),
        n,
        cpu_millicores,
        memory_mib,
        disk_gib,
        shm_mib,
        tier,
        clock.now(),
        count,
        vram,
        cores,
        description.strip(),
    )
    await uow.catalog.add_preset(preset)
    return preset


async def preset_update(
    uow: UnitOfWork,
    actor: Actor,
    preset_id: UUID,
    *,
    name: str | None = None,
    cpu_millicores: int | None = None,
    memory_mib: int | None = None,
    disk_gib: int | None = None,
    shm_mib: int | None = None,
    tier: GpuTier | None = None,
    gpu_count: int | None = None,
    custom_vram_mib: int | None = None,
    custom_cores: int | None = None,
    description: str | None = None,
) -> Preset:
    access.require_super_admin(actor)
    p = await preset_get(uow, actor, preset_id)
    errors = ErrorCollector()
    if name is not None:
        n = errors.check(clean_name, name, "name")
        if n:
            p = replace(p, name=n)
    if cpu_millicores is not None and errors.check(positive, cpu_millicores, "cpuMillicores") is not None:
        p = replace(p, cpu_millicores=cpu_millicores)
    if memory_mib is not None and errors.check(positive, memory_mib, "memoryMib") is not None:
        p = replace(p, memory_mib=memory_mib)
    if disk_gib is not None and errors.check(non_negative, disk_gib, "diskGib") is not None:
        p = replace(p, disk_gib=disk_gib)
    if shm_mib is not None and errors.check(non_negative, shm_mib, "shmMib") is not None:
        p = replace(p, shm_mib=shm_mib)
    if p.shm_mib > p.memory_mib:
        errors.add(InvalidValueError("shmMib", "shared memory cannot exceed the preset's memory"))
    if tier is not None or gpu_count is not None or custom_vram_mib is not None or custom_cores is not None:
        new_tier = tier if tier is not None else p.tier
        count, vram, cores = _validate_preset_gpu(
            errors,
            new_tier,
            gpu_count if gpu_count is not None else (p.gpu_count if tier is None else None),
            custom_vram_mib if custom_vram_mib is not None else (p.custom_vram_mib if tier is None else None),
            custom_cores if custom_cores is not None else (p.custom_cores if tier is None else None),
        )
        p = replace(p, tier=new_tier, gpu_count=count, custom_vram_mib=vram, custom_cores=cores)
    errors.raise_if_any()
    if description is not None:
        p = replace(p, description=description.strip())
    if name is not None and await uow.catalog.preset_name_taken(p.name, exclude=p.id):
        raise DuplicateError("name", f"a preset named {p.name} already exists")
    await uow.catalog.update_preset(p)
    return p


async def preset_delete(uow: UnitOfWork, actor: Actor, preset_id: UUID) -> Preset:
    access.require_super_admin(actor)
    p = await preset_get(uow, actor, preset_id)
    await uow.catalog.delete_preset(p.id)
    return p


# ---------------------------------------------------------------- registries


def _can_see_registry(actor: Actor, r: Registry) -> bool:
    return r.organization_id is None or actor.is_super_admin or r.organization_id in actor.organization_ids


def _require_scope_admin(actor: Actor, organization_id: UUID | None) -> None:
    if organization_id is None:
        access.require_super_admin(actor)
    else:
        access.require_org_admin(actor, organization_id)


def _check_url(url: str) -> str:
    u = url.strip().rstrip("/")
    host = url.strip().split("://", 1)[-1].rstrip("/")  # "https://" alone names no host
    if not host or " " in host or len(u) > 255 or ("://" in u and not u.startswith(("https://", "http://"))):
        raise InvalidValueError(
            "url", f"{url!r} is not a registry address (e.g. nvcr.io or https://harbor.example.org)"
        )
    return u


async def registries_list(uow: UnitOfWork, actor: Actor, page: Page) -> tuple[list[Registry], int]:
    page = page.clamp()
    return await uow.catalog.list_registries(
        None if actor.is_super_admin else actor.organization_ids, page.offset, page.limit
    )


async def registry_get(uow: UnitOfWork, actor: Actor, registry_id: UUID) -> Registry:
    r = await uow.catalog.get_registry(registry_id)
    if r is None or not _can_see_registry(actor, r):
        raise NotFoundError("registry")
    return r


MAX_CREDENTIAL_CHARS = 4096


def _credentials(
    errors: ErrorCollector, username: str | None, password: str | None, seal: Sealer | None
) -> tuple[str | None, bytes | None]:
    """The user name and the sealed password, both or neither; the password is never echoed."""
    if username is None and password is None:
        return None, None
    user = (username or "").strip()
    if not user or len(user) > 255 or any(ch in user for ch in ":\n\r\t\0"):
        errors.add(InvalidValueError("username", "a registry user name is 1-255 characters, without ':' or controls"))
    if not password or len(password) > MAX_CREDENTIAL_CHARS or any(ch in password for ch in "\n\r\0"):
        errors.add(
            InvalidValueError(
                "password", f"a registry password or token is 1-{MAX_CREDENTIAL_CHARS} characters, one line"
            )
        )
    if seal is None:
        errors.add(InvalidValueError("password", "this deployment cannot store registry credentials"))
    if errors.errors:
        return None, None
    assert seal is not None and password is not None
    return user, seal(password)


async def registry_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    name: str,
    url: str,
    organization_id: UUID | None = None,
    description: str = "",
    username: str | None = None,
    password: str | None = None,
    seal: Sealer | None = None,
) -> Registry:
    """A registry, with pull credentials when a user name and password are given (the password
    is sealed with `seal` before anything keeps it)."""
    if organization_id is not None and not (actor.is_super_admin or organization_id in actor.organization_ids):
        raise NotFoundError("organization", "organizationId")
    _require_scope_admin(actor, organization_id)
    errors = ErrorCollector()
    n = errors.check(clean_name, name, "name")
    u = errors.check(_check_url, url)
    user, sealed = _credentials(errors, username, password, seal)
    errors.raise_if_any()
    assert n and u
    if await uow.catalog.registry_name_taken(n, organization_id):
        raise DuplicateError("name", f"a registry named {n} already exists here")
    r = Registry(ids.new_id(), n, u, clock.now(), organization_id, description.strip(), user, sealed)
    await uow.catalog.add_registry(r)
    return r


async def registry_update(
    uow: UnitOfWork,
    actor: Actor,
    registry_id: UUID,
    *,
    name: str | None = None,
    url: str | None = None,
    description: str | None = None,
    username: str | None = None,
    password: str | None = None,
    clear_credentials: bool = False,
    seal: Sealer | None = None,
) -> Registry:
    """Change what is given; new credentials replace the old ones (user name and password
    together), `clear_credentials` removes them."""
    r = await registry_get(uow, actor, registry_id)
    _require_scope_admin(actor, r.organization_id)
    errors = ErrorCollector()
    if clear_credentials and (username is not None or password is not None):
        errors.add(InvalidValueError("clearCredentials", "give new credentials or clear them, not both"))
    elif clear_credentials:
        r = replace(r, username=None, password_sealed=None)
    else:
        user, sealed = _credentials(errors, username, password, seal)
        if user is not None:
            r = replace(r, username=user, password_sealed=sealed)
    if name is not None:
        n = errors.check(clean_name, name, "name")
        if n:
            r = replace(r, name=n)
    if url is not None:
        u = errors.check(_check_url, url)
        if u:
            r = replace(r, url=u)
    errors.raise_if_any()
    if description is not None:
        r = replace(r, description=description.strip())
    if name is not None and await uow.catalog.registry_name_taken(r.name, r.organization_id, exclude=r.id):
        raise DuplicateError("name", f"a registry named {r.name} already exists here")
    await uow.catalog.update_registry(r)
    return r


async def registry_delete(uow: UnitOfWork, actor: Actor, registry_id: UUID) -> Registry:
    r = await registry_get(uow, actor, registry_id)
    _require_scope_admin(actor, r.organization_id)
    used = await uow.catalog.count_images_in_registry(r.id)
    if used:
        raise CatalogError(CatalogErrorCode.IN_USE, f"{used} image(s) still use registry {r.name}", "id")
    await uow.catalog.delete_registry(r.id)
    return r


# ---------------------------------------------------------------- images


def can_see_image(actor: Actor, image: Image) -> bool:
    if actor.is_super_admin or image.scope == ImageScope.GLOBAL:
        return True
    if image.scope == ImageScope.ORGANIZATION:
        return image.organization_id in actor.organization_ids
    return image.owner_user_id == actor.user_id


def _require_image_admin(actor: Actor, image: Image) -> None:
    access.require_writable(actor)
    if image.scope == ImageScope.PERSONAL:
        if image.owner_user_id != actor.user_id and not actor.is_super_admin:
            raise PermissionDeniedError("only the owner may change a personal image")
    else:
        _require_scope_admin(actor, image.organization_id)


async def images_list(uow: UnitOfWork, actor: Actor, page: Page) -> tuple[list[Image], int]:
    page = page.clamp()
    if actor.is_super_admin:
        return await uow.catalog.list_images(org_ids=None, owner_user_id=None, offset=page.offset, limit=page.limit)
    return await uow.catalog.list_images(
        org_ids=actor.organization_ids,
        owner_user_id=actor.user_id,
        offset=page.offset,
        limit=page.limit,
    )


async def image_get(uow: UnitOfWork, actor: Actor, image_id: UUID) -> Image:
    image = await uow.catalog.get_image(image_id)
    if image is None or not can_see_image(actor, image):
        raise NotFoundError("image")
    return image


async def image_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    name: str,
    reference: str,
    cuda_version: str | None,
    scope: ImageScope,
    organization_id: UUID | None = None,
    registry_id: UUID | None = None,
    description: str = "",
) -> Image:
    access.require_writable(actor)
    if scope == ImageScope.GLOBAL:
        access.require_super_admin(actor)
        organization_id = None
    elif scope == ImageScope.ORGANIZATION:
        if organization_id is None:
            raise InvalidValueError("organizationId", "an organisation image needs its organisation")
        if not (actor.is_super_admin or organization_id in actor.organization_ids):
            raise NotFoundError("organization", "organizationId")
        access.require_org_admin(actor, organization_id)
    else:
        if actor.is_guest_only():
            raise PermissionDeniedError("guests cannot add images")
        organization_id = None
    errors = ErrorCollector()
    n = errors.check(clean_name, name, "name")
    ref = errors.check(check_image_reference, reference)
    cuda = errors.check(CudaVersion.parse, cuda_version, "cudaVersion") if cuda_version else None
    errors.raise_if_any()
    assert n and ref
    if registry_id is not None:
        await registry_get(uow, actor, registry_id)
    image = Image(
        ids.new_id(),
        n,
        ref,
        cuda,
        scope,
        clock.now(),
        registry_id,
        organization_id,
        actor.user_id if scope == ImageScope.PERSONAL else None,
        description.strip(),
    )
    if await uow.catalog.image_name_taken(image):
        raise DuplicateError("name", f"an image named {n} already exists here")
    await uow.catalog.add_image(image)
    return image


async def image_update(
    uow: UnitOfWork,
    actor: Actor,
    image_id: UUID,
    *,
    name: str | None = None,
    reference: str | None = None,
    cuda_version: str | None = None,
    description: str | None = None,
) -> Image:
    image = await image_get(uow, actor, image_id)
    _require_image_admin(actor, image)
    errors = ErrorCollector()
    if name is not None:
        n = errors.check(clean_name, name, "name")
        if n:
            image = replace(image, name=n)
    if reference is not None:
        ref = errors.check(check_image_reference, reference)
        if ref:
            image = replace(image, reference=ref)
    if cuda_version is not None:
        cuda = errors.check(CudaVersion.parse, cuda_version, "cudaVersion") if cuda_version else None
        image = replace(image, cuda_version=cuda)
    errors.raise_if_any()
    if description is not None:
        image = replace(image, description=description.strip())
    if name is not None and await uow.catalog.image_name_taken(image, exclude=image.id):
        raise DuplicateError("name", f"an image named {image.name} already exists here")
    await uow.catalog.update_image(image)
    return image


async def image_delete(uow: UnitOfWork, actor: Actor, image_id: UUID) -> Image:
    image = await image_get(uow, actor, image_id)
    _require_image_admin(actor, image)
    await uow.catalog.delete_image(image.id)
    return image
