"""Values no field can hold (a NUL byte, control characters, a lone surrogate, a number past
its type, a date past any calendar the server computes with, JSON numbers of thousands of
digits) are refused with a typed error naming the field: never "Internal error", never a 500.
They are the client's mistake, logged at INFO without a traceback."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from tests.support.api import World


def error_of(body: dict[str, Any]) -> dict[str, Any]:
    assert body.get("errors"), body
    error = body["errors"][0]
    assert "Internal error" not in error["message"], body
    return error  # type: ignore[no-any-return]


CASES = [
    # (name, document, variables, the field the error must name)
    (
        "NUL in login",
        'mutation { login(input: {username: "ad\\u0000min", password: "x"}) { errors { code } } }',
        {},
        "input.username",
    ),
    (
        "NUL in login, as a variable",
        "mutation($i: LoginInput!) { login(input: $i) { errors { code } } }",
        {"i": {"username": "admin", "password": "x\u0000"}},
        "i.password",
    ),
    ("NUL in users(search)", '{ users(search: "a\\u0000") { totalCount } }', {}, "search"),
    (
        "a control character in a token name",
        "mutation($n: String!) { personalAccessTokenCreate(input: {name: $n, scope: READ_ONLY}) { secret } }",
        {"n": "ci\u001b[31m"},
        "n",
    ),
    (
        "NUL in nodeSharingModeChange",
        "mutation($i: NodeSharingModeChangeInput!) { nodeSharingModeChange(input: $i) { errors { code } } }",
        {"i": {"clusterId": "c\u0000", "nodeId": "n", "mode": "HAMI"}},
        "i.clusterId",
    ),
    ("a lone surrogate", "query($s: String) { users(search: $s) { totalCount } }", {"s": "\ud800"}, "s"),
    (
        "shmMib past a 32-bit Int",
        'mutation { presetCreate(input: {name: "p", cpuMillicores: 1000, memoryMib: 1024, shmMib: 99999999999, '
        "tier: NONE}) { errors { code } } }",
        {},
        "input.shmMib",
    ),
    (
        "an Int variable past 32 bits",
        "query($n: Int) { users(first: $n) { totalCount } }",
        {"n": 99999999999},
        "n",
    ),
    ("ledgerHistory since year 9999", '{ ledgerHistory(since: "9999-12-31T23:59:59Z") { totalCount } }', {}, "since"),
    (
        "ledgerHistory until year 1, as a variable",
        "query($u: DateTime) { ledgerHistory(until: $u) { totalCount } }",
        {"u": "0001-01-01T00:00:00Z"},
        "u",
    ),
    ("a negative page size", "{ users(first: -1) { totalCount } }", {}, "first"),
]


@pytest.mark.parametrize(("name", "document", "variables", "field"), CASES, ids=[c[0] for c in CASES])
async def test_a_value_no_field_can_hold_is_refused_naming_the_field(
    name: str, document: str, variables: dict[str, Any], field: str, world: World, http: Any, caplog: Any
) -> None:
    caplog.set_level(logging.INFO)
    answer = await http.post(
        "/graphql",
        content=json.dumps({"query": document, "variables": variables}),  # ASCII: a lone surrogate as an escape
        headers={"content-type": "application/json", "authorization": f"Bearer {world.tokens['super_admin']}"},
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    error = error_of(body)
    assert error["extensions"]["code"] in ("INVALID_VALUE", "GRAPHQL_VALIDATION_FAILED"), error
    assert error["extensions"].get("field") == field, error
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], [
        (r.levelname, r.getMessage()) for r in caplog.records if r.levelno >= logging.WARNING
    ]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"query": "query($n: Int) { users(first: $n) { totalCount } }", "variables": {"n": 1' + b"0" * 5000 + b"}}",
        b'{"query": "query($v: [String]) { __typename }", "variables": {"v": ' + b"[" * 50_000 + b"]" * 50_000 + b"}}",
    ],
    ids=["5000-digit number", "lists nested 50k deep"],
)
async def test_json_the_parser_cannot_hold_is_a_bad_request(raw: bytes, http: Any) -> None:
    answer = await http.post("/graphql", content=raw, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert json.loads(answer.text)["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
