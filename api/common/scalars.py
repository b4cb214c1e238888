from __future__ import annotations

from typing import NewType

import strawberry
from strawberry.types.scalar import ScalarDefinition


def _parse_bigint(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError("BigInt must be an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    raise ValueError("BigInt must be an integer or a string of digits")


BigInt = NewType("BigInt", int)

SCALAR_MAP: dict[object, ScalarDefinition] = {
    BigInt: strawberry.scalar(
        name="BigInt",
        serialize=int,
        parse_value=_parse_bigint,
        description="A 64-bit integer (money in micro-credits). Accepts a number or a string of digits.",
    )
}
