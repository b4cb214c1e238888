"""Inventory refusals."""

from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class InventoryErrorCode(StrEnum):
    INVENTORY_INVALID = "INVENTORY_INVALID"
    MIG_PROFILE_INVALID = "MIG_PROFILE_INVALID"
    SHARING_CHANGE_INVALID = "SHARING_CHANGE_INVALID"
    SHARING_CHANGE_SHARED_CAPACITY_SHORT = "SHARING_CHANGE_SHARED_CAPACITY_SHORT"


class InventoryError(DomainError):
    def __init__(
        self,
        message: str,
        field: str | None = None,
        code: InventoryErrorCode = InventoryErrorCode.INVENTORY_INVALID,
    ) -> None:
        super().__init__(code, message, field)
