from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class VolumeErrorCode(StrEnum):
    STORAGE_QUOTA_EXCEEDED = "STORAGE_QUOTA_EXCEEDED"
    STORAGE_CLASS_UNKNOWN = "STORAGE_CLASS_UNKNOWN"
    STORAGE_CLASS_ACCESS_MODE = "STORAGE_CLASS_ACCESS_MODE"
    VOLUME_IN_USE = "VOLUME_IN_USE"
    VOLUME_GONE = "VOLUME_GONE"
    MOUNT_PATH_INVALID = "MOUNT_PATH_INVALID"


class VolumeError(DomainError):
    pass
