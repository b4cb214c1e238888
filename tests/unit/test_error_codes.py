"""Every domain error code is unique across contexts and mirrored in the GraphQL enum."""

from __future__ import annotations

import importlib
import pkgutil
from enum import StrEnum

import domain


def domain_error_enums() -> list[type[StrEnum]]:
    enums: list[type[StrEnum]] = []
    for mod in pkgutil.walk_packages(domain.__path__, "domain."):
        if not mod.name.endswith(".errors"):
            continue
        module = importlib.import_module(mod.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, StrEnum)
                and value is not StrEnum
                and value.__module__ == mod.name
            ):
                enums.append(value)
    return enums


def test_error_code_values_are_unique_across_contexts() -> None:
    seen: dict[str, str] = {}
    for enum in domain_error_enums():
        for member in enum:
            assert member.value not in seen, f"{member.value} in {enum.__name__} and {seen[member.value]}"
            seen[member.value] = enum.__name__


def test_graphql_error_code_enum_mirrors_every_domain_code() -> None:
    from api.common.errors import ErrorCode

    graphql_codes = {m.value for m in ErrorCode}
    domain_codes = {m.value for enum in domain_error_enums() for m in enum}
    assert domain_codes <= graphql_codes, sorted(domain_codes - graphql_codes)
