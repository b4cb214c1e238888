"""Issue 13, finding 9: with introspection off, no error lists the schema's names in "Did you
mean …" suggestions: not a misspelt field (validation), not a misspelt enum value in a
literal (validation) or in a variable (coercion at execution). With introspection on they are
there, which shows each case reaches the suggestion."""

from __future__ import annotations

from typing import Any

import pytest

from api.schema import build_schema

TOKEN_CREATE = "mutation($i: PersonalAccessTokenCreateInput!) { personalAccessTokenCreate(input: $i) { secret } }"
CASES: list[tuple[str, dict[str, Any] | None, str]] = [
    ("{ me { usernam } }", None, "username"),
    ('mutation { personalAccessTokenCreate(input: {name: "x", scope: READ_WRTE}) { secret } }', None, "READ_WRITE"),
    (TOKEN_CREATE, {"i": {"name": "x", "scope": "READ_WRTE"}}, "READ_WRITE"),
]


@pytest.mark.parametrize(("document", "variables", "name"), CASES, ids=["field", "enum literal", "enum variable"])
async def test_suggestions_follow_introspection(document: str, variables: dict[str, Any] | None, name: str) -> None:
    shown = await build_schema(introspection=True).execute(document, variable_values=variables)
    assert shown.errors and any("Did you mean" in e.message and name in e.message for e in shown.errors)
    hidden = await build_schema(introspection=False).execute(document, variable_values=variables)
    assert hidden.errors, "still refused"
    assert not any("Did you mean" in e.message or name in e.message for e in hidden.errors), [
        e.message for e in hidden.errors
    ]
