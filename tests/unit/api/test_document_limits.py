"""What a document costs is decided before it runs, in time linear in its size.

Fragment bombs (each fragment spreading the previous one twice) are tiny documents whose
expansion is exponential; the limits count the expansion without walking it. Documents that
are merely long (whitespace, comments, one huge string) are refused by their length before
the lexer walks them.
"""

from __future__ import annotations

from typing import Any

import pytest
from graphql import get_introspection_query

from api.schema import build_schema


def doubling_bomb(levels: int, on: str = "User", leaf: str = "id") -> str:
    fragments = [f"fragment F0 on {on} {{ {leaf} }}"]
    fragments += [f"fragment F{i} on {on} {{ ...F{i - 1} ...F{i - 1} }}" for i in range(1, levels + 1)]
    return f"query {{ me {{ ...F{levels} }} }} " + " ".join(fragments)


def codes(result: Any) -> list[str]:
    return [(e.extensions or {}).get("code") for e in result.errors or []]


@pytest.mark.timeout(20)
async def test_the_reported_fragment_bomb_is_refused_before_it_runs() -> None:
    # 39 levels: about 1.5 KB that expands to 2**39 fields (it froze the process)
    result = await build_schema().execute(doubling_bomb(39))
    assert result.data is None
    assert codes(result) == ["QUERY_TOO_COMPLEX"], result.errors
    assert "549755813889 fields" in result.errors[0].message  # me + 2**39, counted, not walked


@pytest.mark.timeout(20)
async def test_bombs_through_aliases_and_directives_are_counted_too() -> None:
    aliased = "query { me { ...A9 } } fragment A0 on User { a: id b: id } " + " ".join(
        f"fragment A{i} on User {{ ...A{i - 1} ...A{i - 1} }}" for i in range(1, 10)
    )
    result = await build_schema(max_fields=100_000, max_aliases=30).execute(aliased)
    assert codes(result) == ["QUERY_TOO_COMPLEX"] and "aliases" in result.errors[0].message
    directives = "query { me { ...D30 } } fragment D0 on User { id @include(if: true) } " + " ".join(
        f"fragment D{i} on User {{ ...D{i - 1} @skip(if: false) ... on User @include(if: true) {{ ...D{i - 1} }} }}"
        for i in range(1, 31)
    )
    assert codes(await build_schema().execute(directives)) == ["QUERY_TOO_COMPLEX"]


async def test_the_expanded_field_count_depth_and_aliases_are_limited() -> None:
    schema = build_schema(max_fields=6, max_depth=3, max_aliases=2)
    six = "query { me { id username email } a: me { id } b: me { id } }"  # 8 fields
    assert codes(await schema.execute(six)) == ["QUERY_TOO_COMPLEX"]
    within = "query { me { ...U } } fragment U on User { id username email isSuperAdmin }"
    assert "QUERY_TOO_COMPLEX" not in codes(await schema.execute(within))  # 5 fields, depth 2
    spread_twice = "query { me { ...U ... on User { ...U } } } fragment U on User { id username email }"
    assert codes(await schema.execute(spread_twice)) == ["QUERY_TOO_COMPLEX"]  # 1 + 3 + 3
    deep_through_fragments = (
        "query { me { ...G } } fragment G on User { activeGroup { ...O } } "
        "fragment O on Group { organization { name } }"
    )
    assert codes(await schema.execute(deep_through_fragments)) == ["QUERY_TOO_COMPLEX"]  # depth 4
    aliases = "query { a: me { id } b: me { id } c: me { id } }"
    assert codes(await schema.execute(aliases)) == ["QUERY_TOO_COMPLEX"]


@pytest.mark.timeout(20)
async def test_fragment_cycles_and_long_chains_are_refused_without_recursing() -> None:
    schema = build_schema(max_tokens=100_000, max_length=1_000_000)
    cycle = "query { me { ...A } } fragment A on User { id ...B } fragment B on User { ...A }"
    result = await schema.execute(cycle)
    assert result.data is None and result.errors and "within itself" in result.errors[0].message
    chain = "query { me { ...F2999 } } fragment F0 on User { id } " + " ".join(
        f"fragment F{i} on User {{ ...F{i - 1} }}" for i in range(1, 3000)
    )
    result = await schema.execute(chain)
    assert result.data is None and result.errors  # refused, not a RecursionError


async def test_long_documents_are_refused_by_their_length_whatever_fills_them() -> None:
    schema = build_schema(max_length=10_000)
    for filler in (" " * 20_000, "#" + "x" * 20_000 + "\n", "\n".join(["# c"] * 5000)):
        result = await schema.execute("{ me { id } }" + filler)
        assert codes(result) == ["DOCUMENT_TOO_LARGE"], filler[:10]
    huge_string = '{ users(search: "' + "a" * 20_000 + '") { totalCount } }'
    assert codes(await schema.execute(huge_string)) == ["DOCUMENT_TOO_LARGE"]
    many_tokens = "{ " + "__typename " * 3000 + "}"
    assert codes(await build_schema().execute(many_tokens)) == ["DOCUMENT_TOO_LARGE"]


async def test_the_defaults_admit_graphiqls_introspection_query() -> None:
    result = await build_schema().execute(get_introspection_query(descriptions=True))
    assert result.errors is None, result.errors
    nested = "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }"
    assert codes(await build_schema().execute(nested)) == ["GRAPHQL_VALIDATION_FAILED"]  # introspection depth
