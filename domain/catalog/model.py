"""Catalog: offerings (a GPU model as a whole card, or a class of cards), presets (CPU/memory/disk/shm + GPU tier),
image registries and images. The tier arithmetic — VRAM and core limits and the billing ratio a
preset gives on an offering's card — lives here and is exact (fractions, floored once)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from fractions import Fraction
from functools import total_ordering
from uuid import UUID

from domain.catalog.errors import CatalogError, CatalogErrorCode

WHOLE_CARD_CORES = 100
NVIDIA_GPU_RESOURCE = "nvidia.com/gpu"


@total_ordering
@dataclass(frozen=True)
class CudaVersion:
    major: int
    minor: int = 0

    _PATTERN = re.compile(r"^\s*(\d{1,3})(?:\.(\d{1,3}))?(?:\.\d{1,4})?\s*$")

    @classmethod
    def parse(cls, text: str, field: str = "cudaVersion") -> CudaVersion:
        m = cls._PATTERN.match(text)
        if not m:
            raise CatalogError(
                CatalogErrorCode.INVALID_CUDA_VERSION,
                f"{text!r} is not a CUDA version (expected MAJOR.MINOR, e.g. 12.4)",
                field,
            )
        return cls(int(m.group(1)), int(m.group(2) or 0))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CudaVersion):
            return NotImplemented
        return (self.major, self.minor) < (other.major, other.minor)

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


class GpuTier(StrEnum):
    """XL = 1/2, L = 1/4, M = 1/8, S = 1/16 of one card; EXCLUSIVE = N whole cards;
    CUSTOM = an admin-defined VRAM (MiB) and core (percent) share; NONE = CPU only."""

    XL = "XL"
    L = "L"
    M = "M"
    S = "S"
    EXCLUSIVE = "EXCLUSIVE"
    CUSTOM = "CUSTOM"
    NONE = "NONE"


TIER_SHARE: dict[GpuTier, Fraction] = {
    GpuTier.XL: Fraction(1, 2),
    GpuTier.L: Fraction(1, 4),
    GpuTier.M: Fraction(1, 8),
    GpuTier.S: Fraction(1, 16),
}


@dataclass(frozen=True)
class CardClass:
    """What makes an offering a class of cards (issue 17): any enabled single-model offering
    with at least the class offering's VRAM (`Offering.vram_mib` is then the minimum) whose
    CUDA requirement the session's image meets, among `models` when it names some (empty:
    any model — "count only; the scheduler picks the type"). The scheduler picks the model;
    the session is billed at the rate of the card it is placed on."""

    models: tuple[str, ...] = ()


@dataclass(frozen=True)
class Offering:
    id: UUID
    vendor: str
    name: str
    vram_mib: int
    cores: int
    min_cuda: CudaVersion
    hourly_rate_micro: int
    resource_name: str
    created_at: datetime
    description: str = ""
    enabled: bool = True
    card_class: CardClass | None = None  # None: one card model (the offering's name)

    @property
    def shareable(self) -> bool:
        """HAMi, MIG and time-slicing are NVIDIA's; other vendors are allocated whole."""
        return self.resource_name == NVIDIA_GPU_RESOURCE

    def admits(self, card: Offering) -> bool:
        """Whether a single-model offering belongs to this class offering."""
        cls = self.card_class
        if cls is None or card.card_class is not None or not card.enabled:
            return False
        if card.vram_mib < self.vram_mib or card.resource_name != self.resource_name:
            return False
        return not cls.models or card.name in cls.models


def class_members(offering: Offering, offerings: Iterable[Offering], image: Image | None = None) -> list[Offering]:
    """The single-model offerings a class offering may be placed on, by name; with `image`,
    only those whose CUDA requirement it meets."""
    members = [o for o in offerings if offering.admits(o)]
    if image is not None:
        members = [o for o in members if image.cuda_version is not None and image.cuda_version >= o.min_cuda]
    return sorted(members, key=lambda o: o.name)


@dataclass(frozen=True)
class RateRange:
    """The hourly cost of a preset over a class's cards: the cheapest and the dearest."""

    low_micro: int
    high_micro: int


def class_cost_range(members: Iterable[Offering], preset: Preset) -> RateRange | None:
    """What a preset costs per hour on each card of a class (cards it does not fit are left
    out); None when it fits none or is CPU-only."""
    costs: list[int] = []
    for card in members:
        try:
            limits = gpu_limits(card, preset)
        except CatalogError:
            continue
        if limits is not None:
            costs.append(hourly_cost_micro(card, limits))
    return RateRange(min(costs), max(costs)) if costs else None


@dataclass(frozen=True)
class Preset:
    id: UUID
    name: str
    cpu_millicores: int
    memory_mib: int
    disk_gib: int
    shm_mib: int
    tier: GpuTier
    created_at: datetime
    gpu_count: int = 0
    custom_vram_mib: int | None = None
    custom_cores: int | None = None
    description: str = ""

    @property
    def cpu_only(self) -> bool:
        return self.tier == GpuTier.NONE


@dataclass(frozen=True)
class GpuLimits:
    """What one session gets on one offering: per-card VRAM and core limits, the number of
    cards, and the billing ratio (max of VRAM share and core share; 1 per exclusive card)."""

    vram_mib: int
    cores: int
    cards: int
    ratio: Fraction
    exclusive: bool

    @property
    def fractional(self) -> bool:
        return not self.exclusive


def gpu_limits(offering: Offering, preset: Preset) -> GpuLimits | None:
    """The GPU part of `preset` on `offering`'s card; None for a CPU-only preset."""
    if preset.tier == GpuTier.NONE:
        return None
    if preset.tier == GpuTier.EXCLUSIVE:
        return GpuLimits(offering.vram_mib, offering.cores, preset.gpu_count, Fraction(preset.gpu_count), True)
    if preset.tier == GpuTier.CUSTOM:
        vram = preset.custom_vram_mib or 0
        cores = preset.custom_cores or 0
        if vram > offering.vram_mib or cores > offering.cores:
            raise CatalogError(
                CatalogErrorCode.PRESET_EXCEEDS_CARD,
                f"preset {preset.name} asks {vram} MiB / {cores}% but one {offering.name} card has "
                f"{offering.vram_mib} MiB / {offering.cores}%",
                "presetId",
            )
        ratio = max(Fraction(vram, offering.vram_mib), Fraction(cores, offering.cores))
        return GpuLimits(vram, cores, 1, ratio, ratio == 1)
    share = TIER_SHARE[preset.tier]
    vram = int(offering.vram_mib * share)  # floor: never promise more than the card holds
    cores = int(offering.cores * share)
    ratio = max(Fraction(vram, offering.vram_mib), Fraction(cores, offering.cores), share)
    return GpuLimits(vram, cores, 1, ratio, False)


def hourly_cost_micro(offering: Offering, limits: GpuLimits | None) -> int:
    """Credits per hour in micro-credits (exact when the ratio divides the rate)."""
    if limits is None:
        return 0
    cost = offering.hourly_rate_micro * limits.ratio
    return cost.numerator // cost.denominator


class ImageScope(StrEnum):
    GLOBAL = "global"  # registered by a super_admin for everyone
    ORGANIZATION = "organization"  # registered by an org admin for the organisation
    PERSONAL = "personal"  # a user's own image, or a public reference typed by hand


@dataclass(frozen=True)
class Registry:
    id: UUID
    name: str
    url: str
    created_at: datetime
    organization_id: UUID | None = None
    description: str = ""
    # pull credentials: the user name, and the password (or token) sealed by the deployment's
    # secret box; the plain password is never held here, and the sealed one is left out of reprs
    username: str | None = None
    password_sealed: bytes | None = field(default=None, repr=False)

    @property
    def has_credentials(self) -> bool:
        return self.username is not None and self.password_sealed is not None

    @property
    def server(self) -> str:
        """The registry's address as a Docker config's `auths` key: its host (and port, path),
        without the scheme."""
        return self.url.split("://", 1)[-1]

    @property
    def pull_secret_name(self) -> str:
        """The `kubernetes.io/dockerconfigjson` Secret of its credentials in the sessions namespace."""
        return f"registry-{self.id}"


# Seals a registry password for storage (the composition root's secret box).
Sealer = Callable[[str], bytes]


@dataclass(frozen=True)
class Image:
    id: UUID
    name: str
    reference: str
    cuda_version: CudaVersion | None
    scope: ImageScope
    created_at: datetime
    registry_id: UUID | None = None
    organization_id: UUID | None = None
    owner_user_id: UUID | None = None
    description: str = ""


_IMAGE_REF = re.compile(
    r"^(?:(?P<host>[a-zA-Z0-9.-]+(?::\d+)?)/)?"
    r"(?P<path>[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?"
    r"(?:@(?P<digest>sha256:[a-f0-9]{64}))?$"
)


def check_image_reference(reference: str, field: str = "reference") -> str:
    ref = reference.strip()
    if not ref or len(ref) > 512 or not _IMAGE_REF.match(ref):
        raise CatalogError(
            CatalogErrorCode.INVALID_IMAGE_REFERENCE,
            f"{reference!r} is not an image reference (e.g. nvcr.io/nvidia/pytorch:24.05-py3)",
            field,
        )
    return ref


def check_cuda_compatible(image: Image, offering: Offering, field: str = "imageId") -> None:
    """An image without a CUDA version cannot drive a GPU; one below `min_cuda` is refused."""
    if image.cuda_version is None or image.cuda_version < offering.min_cuda:
        have = str(image.cuda_version) if image.cuda_version else "no CUDA"
        raise CatalogError(
            CatalogErrorCode.CUDA_TOO_OLD,
            f"image {image.name} has {have}; {offering.name} needs CUDA {offering.min_cuda} or newer",
            field,
        )
