"""Errors shared by every bounded context.

Every refusal in the core is a `DomainError` carrying a machine-readable code (a member of a
`StrEnum`), the input field it concerns (or None) and a human message. Each context defines
its own code enum in its `errors.py`; the API mirrors the union of all of them as one GraphQL
enum, so code values must be unique across contexts (a unit test checks this).
"""

from __future__ import annotations

from enum import StrEnum


class CommonErrorCode(StrEnum):
    NOT_FOUND = "NOT_FOUND"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    INVALID_VALUE = "INVALID_VALUE"
    REQUIRED = "REQUIRED"
    DUPLICATE = "DUPLICATE"
    CONFLICT = "CONFLICT"
    READ_ONLY_TOKEN = "READ_ONLY_TOKEN"


class DomainError(Exception):
    """A refusal the caller can act on: typed code, the field it concerns, a message, and the
    refusal's parameters by name (numbers and names, as text) so that a client can say it in
    its own language without parsing the English message."""

    def __init__(
        self, code: StrEnum, message: str, field: str | None = None, params: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.params: dict[str, str] = dict(params or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!s}, {self.message!r}, field={self.field!r})"


class NotFoundError(DomainError):
    """The object does not exist, or the caller may not see it: both answer alike."""

    def __init__(self, kind: str, field: str | None = "id") -> None:
        super().__init__(CommonErrorCode.NOT_FOUND, f"{kind} not found", field)


class PermissionDeniedError(DomainError):
    def __init__(self, message: str = "you may not do this", field: str | None = None) -> None:
        super().__init__(CommonErrorCode.PERMISSION_DENIED, message, field)


class InvalidValueError(DomainError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(CommonErrorCode.INVALID_VALUE, message, field)


class DuplicateError(DomainError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(CommonErrorCode.DUPLICATE, message, field)


class ValidationErrors(DomainError):
    """Several field errors found at once; `errors` lists each (the first is the headline)."""

    def __init__(self, errors: list[DomainError]) -> None:
        assert errors, "ValidationErrors needs at least one error"
        first = errors[0]
        super().__init__(first.code, first.message, first.field)
        self.errors = errors
