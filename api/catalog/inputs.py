from __future__ import annotations

import strawberry

from api.catalog.types import GpuTier, ImageScope
from api.common.scalars import BigInt


@strawberry.input(description="Makes the offering a class of cards: the scheduler picks the model.")
class CardClassInput:
    models: list[str] = strawberry.field(
        default_factory=list,
        description="The card models (offering names) it may use; empty: any model with at least vramMib.",
    )


@strawberry.input
class OfferingCreateInput:
    vendor: str
    name: str
    vram_mib: int = strawberry.field(description="A card's memory; for a class of cards, the least a card has.")
    min_cuda: str = strawberry.field(description='Minimum CUDA version, e.g. "12.2".')
    hourly_rate_micro: BigInt = strawberry.field(description="Credits per hour for a whole card, in micro-credits.")
    cores: int = 100
    resource_name: str = "nvidia.com/gpu"
    description: str = ""
    enabled: bool = True
    card_class: CardClassInput | None = strawberry.field(
        default=None,
        description="A class of cards instead of one model (hourlyRateMicro must then be 0: sessions are "
        "billed at the rate of the card they are placed on).",
    )


@strawberry.input
class OfferingUpdateInput:
    id: strawberry.ID
    name: str | None = None
    min_cuda: str | None = None
    hourly_rate_micro: BigInt | None = None
    description: str | None = None
    enabled: bool | None = None
    card_class: CardClassInput | None = strawberry.field(
        default=None,
        description="For a class of cards, the models it may use from now on (empty: any model with at least "
        "its vramMib); refused for an offering of one model.",
    )


@strawberry.input
class PresetCreateInput:
    name: str
    cpu_millicores: int
    memory_mib: int
    disk_gib: int = 50
    shm_mib: int = 1024
    tier: GpuTier = strawberry.field(default=GpuTier.NONE)  # type: ignore[valid-type,attr-defined]
    gpu_count: int | None = strawberry.field(default=None, description="Whole cards, for EXCLUSIVE presets.")
    custom_vram_mib: int | None = strawberry.field(default=None, description="For CUSTOM presets.")
    custom_cores: int | None = strawberry.field(
        default=None, description="Percent of a card's cores, for CUSTOM presets."
    )
    description: str = ""


@strawberry.input
class PresetUpdateInput:
    id: strawberry.ID
    name: str | None = None
    cpu_millicores: int | None = None
    memory_mib: int | None = None
    disk_gib: int | None = None
    shm_mib: int | None = None
    tier: GpuTier | None = None
    gpu_count: int | None = None
    custom_vram_mib: int | None = None
    custom_cores: int | None = None
    description: str | None = None


@strawberry.input
class RegistryCreateInput:
    name: str
    url: str
    organization_id: strawberry.ID | None = strawberry.field(default=None, description="Null for a global registry.")
    description: str = ""
    username: str | None = strawberry.field(
        default=None, description="Pull credentials: the user name (with password)."
    )
    password: str | None = strawberry.field(
        default=None,
        description="Pull credentials: the password or token; stored sealed, never shown again.",
    )


@strawberry.input
class RegistryUpdateInput:
    id: strawberry.ID
    name: str | None = None
    url: str | None = None
    description: str | None = None
    username: str | None = strawberry.field(default=None, description="New pull credentials: the user name.")
    password: str | None = strawberry.field(default=None, description="New pull credentials: the password or token.")
    clear_credentials: bool = strawberry.field(default=False, description="Remove the pull credentials.")


@strawberry.input
class ImageCreateInput:
    name: str
    reference: str
    cuda_version: str | None = strawberry.field(default=None, description="Null for CPU-only images.")
    scope: ImageScope = strawberry.field(default=ImageScope.PERSONAL)  # type: ignore[valid-type,attr-defined]
    organization_id: strawberry.ID | None = None
    registry_id: strawberry.ID | None = None
    description: str = ""


@strawberry.input
class ImageUpdateInput:
    id: strawberry.ID
    name: str | None = None
    reference: str | None = None
    cuda_version: str | None = None
    description: str | None = None
