"""Bodies over the limit are refused with 413 before they are read whole, declared or not."""

from __future__ import annotations

import json
from typing import Any

MIB = 1024 * 1024


async def drive(app: Any, path: str, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> tuple[int, bytes, int]:
    """One HTTP request through the ASGI app; answers (status, body, bytes the app pulled)."""
    pulled = 0
    pending = list(chunks)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if not pending:
            return {"type": "http.disconnect"}
        chunk = pending.pop(0)
        pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body, pulled


def whitespace_query(size: int) -> bytes:
    return json.dumps({"query": "{ me { id } }" + " " * size}).encode()


async def test_a_declared_body_over_the_limit_is_refused_unread(app: Any) -> None:
    body = whitespace_query(20 * MIB)
    status, answer, pulled = await drive(
        app,
        "/graphql",
        [body[i : i + 65536] for i in range(0, len(body), 65536)],
        [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
    )
    assert status == 413
    assert json.loads(answer)["code"] == "REQUEST_TOO_LARGE"
    assert pulled == 0


async def test_a_streamed_body_is_counted_and_cut_at_the_limit(app: Any) -> None:
    body = whitespace_query(20 * MIB)
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)]
    status, answer, pulled = await drive(app, "/graphql", chunks, [(b"content-type", b"application/json")])
    assert status == 413
    assert json.loads(answer)["code"] == "REQUEST_TOO_LARGE"
    assert pulled <= MIB + 65536  # the limit and the chunk that crossed it, never the rest


async def test_a_body_within_the_limit_still_answers(app: Any) -> None:
    body = json.dumps({"query": "{ me { id } }"}).encode()
    status, answer, _ = await drive(
        app,
        "/graphql",
        [body],
        [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
    )
    assert status == 200 and json.loads(answer) == {"data": {"me": None}}


async def test_a_request_past_its_deadline_gets_a_typed_503(app: Any, container: Any, monkeypatch: Any) -> None:
    import asyncio

    import api.app

    async def slow_sign_in(*_args: Any) -> tuple[None, None]:
        await asyncio.sleep(2)
        return None, None

    monkeypatch.setattr(api.app, "_actor_from_credentials", slow_sign_in)
    monkeypatch.setattr(container.settings, "request_timeout_seconds", 0.2)
    body = json.dumps({"query": "{ me { id } }"}).encode()
    status, answer, _ = await drive(app, "/graphql", [body], [(b"content-type", b"application/json")])
    assert status == 503
    assert json.loads(answer)["errors"][0]["extensions"]["code"] == "REQUEST_TIMEOUT"
