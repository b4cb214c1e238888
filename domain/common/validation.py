"""Small validators shared by contexts; each raises InvalidValueError naming the field."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from domain.common.errors import DomainError, InvalidValueError, ValidationErrors

_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
_USERNAME = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

P = ParamSpec("P")
T = TypeVar("T")


def clean_name(value: str, field: str, max_len: int = 100) -> str:
    cleaned = " ".join(value.split())
    if not cleaned:
        raise InvalidValueError(field, f"{field} must not be empty")
    if len(cleaned) > max_len:
        raise InvalidValueError(field, f"{field} must be at most {max_len} characters")
    return cleaned


def clean_slug(value: str, field: str = "slug") -> str:
    cleaned = value.strip().lower()
    if not _SLUG.match(cleaned):
        raise InvalidValueError(
            field,
            f"{field} must be 1–63 lowercase letters, digits or '-', not starting or ending with '-'",
        )
    return cleaned


def slugify(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:63].strip("-")
    return slug or "org"


def clean_username(value: str, field: str = "username") -> str:
    cleaned = value.strip().lower()
    if not _USERNAME.match(cleaned):
        raise InvalidValueError(field, f"{field} must be 1–64 lowercase letters, digits, '.', '_' or '-'")
    return cleaned


def clean_email(value: str, field: str = "email") -> str:
    cleaned = value.strip()
    if not _EMAIL.match(cleaned) or len(cleaned) > 254:
        raise InvalidValueError(field, f"{field} is not an email address")
    return cleaned


def non_negative(value: int, field: str) -> int:
    if value < 0:
        raise InvalidValueError(field, f"{field} must not be negative (got {value})")
    return value


def positive(value: int, field: str) -> int:
    if value <= 0:
        raise InvalidValueError(field, f"{field} must be greater than zero (got {value})")
    return value


class ErrorCollector:
    """Collects field errors so a form reports every bad field at once."""

    def __init__(self) -> None:
        self.errors: list[DomainError] = []

    def check(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
        try:
            return fn(*args, **kwargs)
        except DomainError as exc:
            self.errors.append(exc)
            return None

    def add(self, error: DomainError) -> None:
        self.errors.append(error)

    def raise_if_any(self) -> None:
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise ValidationErrors(self.errors)
