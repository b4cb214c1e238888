"""The schema's request limits hold, and validating a document already seen is a cache hit."""

from __future__ import annotations

from unittest import mock

import api.limits
from api.schema import build_schema

DEEP = "{ me { activeGroup { organization { groups { nodes { name } } } } } }"


async def test_depth_and_alias_limits_refuse_with_a_reason() -> None:
    schema = build_schema(max_depth=3, max_aliases=2)
    deep = await schema.execute(DEEP)
    assert deep.errors and "nests fields 6 deep; at most 3" in deep.errors[0].message
    aliased = await schema.execute("{ a: __typename b: __typename c: __typename }")
    assert aliased.errors and "aliases" in aliased.errors[0].message.lower()
    ok = await schema.execute("{ a: __typename }")
    assert ok.errors is None and ok.data == {"a": "Query"}


async def test_introspection_can_be_turned_off() -> None:
    schema = build_schema(introspection=False)
    result = await schema.execute("{ __schema { queryType { name } } }")
    assert result.errors and "introspection" in result.errors[0].message.lower()


async def test_a_repeated_document_is_validated_once() -> None:
    schema = build_schema()
    query = '{ __type(name: "Query") { name kind } }'
    with mock.patch.object(api.limits, "validate", wraps=api.limits.validate) as validate:
        first = await schema.execute(query)
        second = await schema.execute(query)
    assert first.errors is None and second.data == first.data
    assert validate.call_count == 1
