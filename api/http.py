"""Pure-ASGI middleware every HTTP request passes through (no `BaseHTTPMiddleware`: it would
buffer streamed bodies and responses)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.common.request_errors import RequestErrorCode


def refusal(status: int, code: RequestErrorCode, message: str) -> JSONResponse:
    """A request refused before any GraphQL ran: `{"code", "message"}`."""
    return JSONResponse({"code": str(code), "message": message}, status_code=status)


def graphql_refusal(status: int, code: RequestErrorCode, message: str) -> JSONResponse:
    """A GraphQL request refused as a whole, in the GraphQL response shape."""
    return JSONResponse({"errors": [{"message": message, "extensions": {"code": str(code)}}]}, status_code=status)


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
    return {BodyTooLarge: body_too_large}
