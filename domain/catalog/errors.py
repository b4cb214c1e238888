from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class CatalogErrorCode(StrEnum):
    INVALID_CUDA_VERSION = "INVALID_CUDA_VERSION"
    TIER_ON_CPU_ONLY_PRESET = "TIER_ON_CPU_ONLY_PRESET"
    INVALID_IMAGE_REFERENCE = "INVALID_IMAGE_REFERENCE"
    CUDA_TOO_OLD = "CUDA_TOO_OLD"
    PRESET_EXCEEDS_CARD = "PRESET_EXCEEDS_CARD"
    IN_USE = "IN_USE"


class CatalogError(DomainError):
    pass
