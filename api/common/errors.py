"""Typed mutation errors: every domain error enum mirrored as one GraphQL `ErrorCode` enum,
and the `UserError` interface every payload's `errors` list implements."""

from __future__ import annotations

import importlib
from enum import Enum, StrEnum

import strawberry

from domain.common.errors import CommonErrorCode, DomainError, ValidationErrors

# Every context's error-code enum; values are unique across them (tests/unit/test_error_codes.py).
ERROR_ENUM_MODULES = [
    ("domain.common.errors", "CommonErrorCode"),
    ("domain.tenancy.errors", "TenancyErrorCode"),
    ("domain.catalog.errors", "CatalogErrorCode"),
]


def _all_codes() -> dict[str, str]:
    codes: dict[str, str] = {}
    for module, name in ERROR_ENUM_MODULES:
        enum_cls: type[StrEnum] = getattr(importlib.import_module(module), name)
        for member in enum_cls:
            codes[member.value] = member.value
    return codes


ErrorCode = strawberry.enum(
    Enum("ErrorCode", _all_codes()),  # type: ignore[misc]
    description="Why a mutation was refused; mirrors the domain's error codes.",
)


@strawberry.interface(description="A refusal the client can act on.")
class UserError:
    code: ErrorCode  # type: ignore[valid-type]
    field: str | None = strawberry.field(description="The input field it concerns, when it concerns one.")
    message: str


@strawberry.type(description="A refusal of a mutation, naming the field and the reason.")
class MutationError(UserError):
    pass


def error(code: StrEnum | str, message: str, field: str | None = None) -> MutationError:
    value = code.value if isinstance(code, Enum) else code
    return MutationError(code=ErrorCode[value], field=field, message=message)  # type: ignore[misc]


def errors_from(exc: DomainError) -> list[UserError]:
    items = exc.errors if isinstance(exc, ValidationErrors) else [exc]
    return [error(e.code, e.message, e.field) for e in items]


UNAUTHENTICATED = lambda: error(CommonErrorCode.UNAUTHENTICATED, "sign in first")  # noqa: E731
