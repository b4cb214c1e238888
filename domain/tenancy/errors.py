from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class TenancyErrorCode(StrEnum):
    INVALID_CREDENTIALS = "INVALID_CREDENTIALS"
    ACCOUNT_DISABLED = "ACCOUNT_DISABLED"
    NOT_A_MEMBER = "NOT_A_MEMBER"
    DEFAULT_GROUP_PROTECTED = "DEFAULT_GROUP_PROTECTED"
    ORGANIZATION_NOT_EMPTY = "ORGANIZATION_NOT_EMPTY"
    GROUP_NOT_EMPTY = "GROUP_NOT_EMPTY"
    TOKEN_EXPIRED = "TOKEN_EXPIRED"
    LAST_SUPER_ADMIN = "LAST_SUPER_ADMIN"
    WEAK_PASSWORD = "WEAK_PASSWORD"


class TenancyError(DomainError):
    pass
