"""Typed mutation errors: every domain error enum mirrored as one GraphQL `ErrorCode` enum,
and the `UserError` interface every payload's `errors` list implements."""

from __future__ import annotations

import importlib
import pkgutil
from enum import Enum, StrEnum

import strawberry

from domain.common.errors import CommonErrorCode, DomainError, ValidationErrors


def _all_codes() -> dict[str, str]:
    """Every `StrEnum` declared in a `domain/**/errors.py` (values are unique across them:
    tests/unit/test_error_codes.py), so a new domain code reaches the schema by itself."""
    import domain

    codes: dict[str, str] = {}
    for mod in pkgutil.walk_packages(domain.__path__, "domain."):
        if not mod.name.endswith(".errors"):
            continue
        module = importlib.import_module(mod.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum) and value.__module__ == mod.name:
                codes.update({m.value: m.value for m in value})
    return dict(sorted(codes.items()))


ErrorCode = strawberry.enum(
    Enum("ErrorCode", _all_codes()),  # type: ignore[misc]
    description="Why a mutation was refused; mirrors the domain's error codes.",
)


@strawberry.type(description="One parameter of a refusal: a number or a name, as text.")
class ErrorParam:
    name: str
    value: str


@strawberry.interface(description="A refusal the client can act on.")
class UserError:
    code: ErrorCode  # type: ignore[valid-type]
    field: str | None = strawberry.field(description="The input field it concerns, when it concerns one.")
    message: str = strawberry.field(
        description="In English, for API clients; consoles say it from `code` and `params`."
    )
    params: list[ErrorParam] = strawberry.field(
        default_factory=list,
        description="The refusal's numbers and names by name (e.g. POLICY_LIMIT_EXCEEDED: limit, used, "
        "requested; INSUFFICIENT_CREDITS: available, requested; BUDGET_EXCEEDED: limit, spent).",
    )


@strawberry.type(description="A refusal of a mutation, naming the field and the reason.")
class MutationError(UserError):
    pass


def error(
    code: StrEnum | str, message: str, field: str | None = None, params: dict[str, str] | None = None
) -> MutationError:
    value = code.value if isinstance(code, Enum) else code
    listed = [ErrorParam(name=k, value=v) for k, v in (params or {}).items()]
    return MutationError(code=ErrorCode[value], field=field, message=message, params=listed)  # type: ignore[misc]


def errors_from(exc: DomainError) -> list[UserError]:
    items = exc.errors if isinstance(exc, ValidationErrors) else [exc]
    return [error(e.code, e.message, e.field, e.params) for e in items]


UNAUTHENTICATED = lambda: error(CommonErrorCode.UNAUTHENTICATED, "sign in first")  # noqa: E731
