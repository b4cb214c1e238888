"""Pure-ASGI middleware every HTTP request passes through (no `BaseHTTPMiddleware`: it would
buffer streamed bodies and responses)."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.common.request_errors import RequestErrorCode
from infra.db.failures import database_unavailable
from infra.request_context import accepted_request_id, request_id

log = logging.getLogger("gshare.http")


def refusal(status: int, code: RequestErrorCode, message: str) -> JSONResponse:
    """A request refused before any GraphQL ran: `{"code", "message", "requestId"}`."""
    return JSONResponse({"code": str(code), "message": message, "requestId": request_id.get()}, status_code=status)


class RequestContext:
    """The outermost layer: gives each HTTP request and WebSocket connection its request id
    (`X-Request-Id` when the client or a proxy sent a sane one), sets it for the logs, returns
    it in `X-Request-Id` with the server's time in `Server-Timing`, and writes the access log
    line (uvicorn's own is off: it is written outside the request and could not carry the id).
    What escaped every handler is logged here with the id; Starlette has answered it already."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = accepted_request_id(_header(scope, b"x-request-id"))
        token = request_id.set(rid)
        started = time.perf_counter()
        status = 0
        header = (b"x-request-id", rid.encode())

        async def stamped(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                elapsed = (time.perf_counter() - started) * 1000
                timing = (b"server-timing", f"app;dur={elapsed:.2f}".encode())
                message = {**message, "headers": [*message.get("headers", []), header, timing]}
            elif message["type"] == "websocket.accept":
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        try:
            await self.app(scope, receive, stamped)
        except Exception as exc:
            if not status:
                raise
            what = f"{scope.get('method', 'WS')} {scope['path']}"
            if database_unavailable(exc):
                log.error("%s: the database is unavailable (%s: %s)", what, type(exc).__name__, exc)
            else:
                log.exception("%s failed", what)
        finally:
            if scope["type"] == "http":
                log.info(
                    "%s %s %s %.1fms",
                    scope["method"],
                    scope["path"],
                    status or "-",
                    (time.perf_counter() - started) * 1000,
                )
            request_id.reset(token)


async def unhandled(_: Request, exc: Exception) -> Response:
    """Starlette's last resort (it re-raises afterwards, and uvicorn logs the traceback):
    a typed answer with the id to quote instead of a bare 500."""
    if database_unavailable(exc):
        return refusal(503, RequestErrorCode.SERVICE_UNAVAILABLE, "the database is unavailable; try again shortly")
    return refusal(500, RequestErrorCode.INTERNAL_ERROR, "internal error; quote the request id")


def graphql_refusal(status: int, code: RequestErrorCode, message: str) -> JSONResponse:
    """A GraphQL request refused as a whole, in the GraphQL response shape."""
    extensions = {"code": str(code), "requestId": request_id.get()}
    return JSONResponse({"errors": [{"message": message, "extensions": extensions}]}, status_code=status)


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")
        self.limit = limit


async def body_too_large(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, BodyTooLarge)
    return refusal(413, RequestErrorCode.REQUEST_TOO_LARGE, exc.detail)


class BodyLimit:
    """Refuses a request body over `max_bytes` (per path prefix in `overrides`) with 413: at
    once when its Content-Length says so, and otherwise as soon as the chunks read so far
    cross the limit (`BodyTooLarge` raised from `receive`, answered by `body_too_large`), so
    a body is never held whole beyond the limit."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, overrides: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.overrides = dict(overrides or {})

    def limit_for(self, path: str) -> int:
        for prefix, limit in self.overrides.items():
            if path.startswith(prefix):
                return limit
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            message = f"the request body is larger than {limit} bytes"
            await refusal(413, RequestErrorCode.REQUEST_TOO_LARGE, message)(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        await self.app(scope, counted, send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def exception_handlers() -> dict[Any, Any]:
    return {BodyTooLarge: body_too_large, Exception: unhandled}
