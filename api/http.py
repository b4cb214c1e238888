"""Pure-ASGI middleware every HTTP request passes through (no `BaseHTTPMiddleware`: it would
buffer streamed bodies and responses)."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

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


# Every page: scripts only from this origin (and those a page names itself: its inline
# scripts by hash, cross-origin ones by exact URL), no plugins, no <base>, not framed. Styles
# may be inline: the console's component library injects <style> elements, and GraphiQL's
# editor sets style attributes; inline style runs no script.
_PAGE_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],  # 'self' covers the same origin's ws:/wss: (CSP level 3)
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# anything else (JSON, CSV, metrics, assets) is no document: it may load nothing
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_STYLESHEET = re.compile(r"<link\b(?=[^>]*\brel=[\"']?stylesheet)[^>]*\bhref=[\"']?([^\"'\s>]+)", re.S | re.I)
_SRC = re.compile(r"\bsrc=[\"']?([^\"'\s>]+)", re.I)


def page_policy(html: str = "") -> str:
    """The Content-Security-Policy of one HTML page: the strict base, plus what the page's
    own markup needs: the sha256 of each inline <script> and the exact URL of each
    cross-origin script and stylesheet (a path source matches that file only)."""
    directives = {name: list(sources) for name, sources in _PAGE_POLICY.items()}
    for attrs, body in _SCRIPT.findall(html):
        src = _SRC.search(attrs)
        if src is None:
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            directives["script-src"].append(f"'sha256-{digest}'")
        elif urlsplit(src.group(1)).scheme == "https":
            directives["script-src"].append(src.group(1))
    for href in _STYLESHEET.findall(html):
        if urlsplit(href).scheme == "https":
            directives["style-src"].append(href)
    return "; ".join(" ".join([name, *dict.fromkeys(sources)]) for name, sources in directives.items())


class SecurityHeaders:
    """Every response: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
    `Referrer-Policy: no-referrer`, and a Content-Security-Policy unless the response set its
    own: `html_policy` for an HTML page, `OTHER_POLICY` for the rest."""

    def __init__(self, app: ASGIApp, *, html_policy: str) -> None:
        self.app = app
        self.html_policy = html_policy.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                html = any(k.lower() == b"content-type" and v.lower().startswith(b"text/html") for k, v in headers)
                for name, value in (
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-security-policy", self.html_policy if html else OTHER_POLICY.encode()),
                ):
                    if name not in names:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, secured)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def exception_handlers() -> dict[Any, Any]:
    return {BodyTooLarge: body_too_large, Exception: unhandled}
