"""Every answer carries a request id the client can quote: in the `X-Request-Id` header, in
every GraphQL error's extensions and in every log line the request wrote. A database that is
down answers a typed 503."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.support.serve import free_port


async def test_every_response_has_a_request_id_and_a_sane_incoming_one_is_kept(http: Any) -> None:
    answers = [
        await http.post("/graphql", json={"query": "{ me { id } }"}),
        await http.get("/healthz"),
        await http.get("/no/such/route.js"),
        await http.post("/graphql", content=b"{", headers={"content-type": "application/json"}),
        await http.post("/graphql", content=b" " * (2 * 1024 * 1024), headers={"content-type": "application/json"}),
    ]
    ids = [a.headers.get("x-request-id") for a in answers]
    assert all(ids) and len(set(ids)) == len(ids), [(a.status_code, a.headers) for a in answers]

    kept = await http.get("/healthz", headers={"x-request-id": "lb-7f3a.42:abc_DEF"})
    assert kept.headers["x-request-id"] == "lb-7f3a.42:abc_DEF"
    for insane in ("x" * 300, "a b", "<script>", "a/b"):
        replaced = await http.get("/healthz", headers={"x-request-id": insane})
        assert replaced.headers["x-request-id"] not in (insane, "")


async def test_every_graphql_error_quotes_the_request_id(http: Any, caplog: Any) -> None:
    caplog.set_level(logging.INFO)
    for query in ("{ nope }", "{ me { id ", '{ node(id: "x") { id } } query Other { me { id } }'):
        answer = await http.post("/graphql", json={"query": query}, headers={"x-request-id": "quote-me-123"})
        errors = answer.json()["errors"]
        assert errors and all(e["extensions"]["requestId"] == "quote-me-123" for e in errors), errors
        assert answer.headers["x-request-id"] == "quote-me-123"
    mine = [r for r in caplog.records if getattr(r, "request_id", None) == "quote-me-123"]
    assert mine, "the refusals were logged with the request id"
    assert all(r.levelno == logging.INFO and r.exc_info is None for r in mine), [
        (r.levelname, r.getMessage()) for r in mine
    ]


@pytest.fixture
async def database_down(tmp_path: Any) -> AsyncIterator[httpx.AsyncClient]:
    from api.app import create_app
    from infra.bootstrap import build_container
    from infra.settings import Settings

    url = f"postgresql://postgres@127.0.0.1:{free_port()}/gone"  # nothing listens there
    container = build_container(Settings(database_url=url, demo=False, data_dir=tmp_path), url)
    transport = httpx.ASGITransport(app=create_app(container))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        yield client
    await container.aclose()


async def test_a_database_that_is_down_answers_a_typed_503(database_down: httpx.AsyncClient) -> None:
    signed_in = await database_down.post(
        "/graphql", json={"query": "{ me { id } }"}, headers={"authorization": "Bearer gsp_whatever"}
    )
    anonymous = await database_down.post(
        "/graphql", json={"query": 'mutation { login(input: {username: "a", password: "b"}) { errors { code } } }'}
    )
    for answer in (signed_in, anonymous):
        assert answer.status_code == 503, answer.text
        error = answer.json()["errors"][0]
        assert error["extensions"]["code"] == "SERVICE_UNAVAILABLE"
        assert error["extensions"]["requestId"] == answer.headers["x-request-id"]
    export = await database_down.get("/exports/ledger.csv", headers={"authorization": "Bearer gsp_whatever"})
    assert export.status_code == 503 and export.json()["code"] == "SERVICE_UNAVAILABLE"
