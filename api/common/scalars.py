"""Scalars, and the ranges every value of them must fall in: what a 64-bit column holds, and
dates the server can compute with (a filter `since: 9999-12-31` plus a period is past
Python's calendar). Out of range is the client's mistake, refused naming the field."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import NewType

import strawberry
from strawberry.schema.types.base_scalars import DateTimeDefinition
from strawberry.types.scalar import ScalarDefinition

BIGINT_MAX = 2**63 - 1
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)


def _parse_bigint(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError("BigInt must be an integer")
    if isinstance(value, str) and value.lstrip("-").isdigit() and len(value) <= 20:
        value = int(value)
    if not isinstance(value, int):
        raise ValueError("BigInt must be an integer or a string of at most 19 digits")
    if not -BIGINT_MAX - 1 <= value <= BIGINT_MAX:
        raise ValueError("BigInt must fit in 64 bits")
    return value


def _parse_datetime(value: object) -> datetime:
    parsed = DateTimeDefinition.parse_value(value)  # type: ignore[misc]
    assert isinstance(parsed, datetime)
    if parsed.tzinfo is None:  # without an offset, a time is UTC (the server's clock is)
        parsed = parsed.replace(tzinfo=UTC)
    if not EARLIEST <= parsed < LATEST:
        raise ValueError(f"DateTime must be between {EARLIEST.year} and {LATEST.year - 1}")
    return parsed


BigInt = NewType("BigInt", int)

SCALAR_MAP: dict[object, ScalarDefinition] = {
    BigInt: strawberry.scalar(
        name="BigInt",
        serialize=int,
        parse_value=_parse_bigint,
        description="A 64-bit integer (money in micro-credits). Accepts a number or a string of digits.",
    ),
    datetime: dataclasses.replace(DateTimeDefinition, parse_value=_parse_datetime),
}
