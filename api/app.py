"""The Starlette application: GraphQL over HTTP and WebSocket (graphql-transport-ws only),
OIDC sign-in routes, health probes and the web console's static files (with an SPA fallback:
a deep link such as /sessions/<id> gets the console's index.html)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import html
import json
import logging
from collections.abc import AsyncIterator, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from cross_web import HTTPException as StrawberryHTTPException
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http import GraphQLRequestData
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.unset import UNSET

from api.callbacks import MAX_BODY_BYTES as CALLBACK_MAX_BODY_BYTES
from api.callbacks import callback_routes
from api.common.request_errors import RequestErrorCode
from api.context import SESSION_COOKIE, Context
from api.dataloaders import build_loaders
from api.extensions import UNAVAILABLE_MESSAGE
from api.fanout import SharedStreams
from api.http import BodyLimit, RequestContext, SecurityHeaders, exception_handlers, graphql_refusal, page_policy
from api.limits import InFlight, in_flight
from api.schema import build_schema
from api.ws import ConnectionRegistry, GShareTransportWSHandler
from domain.tenancy import services as tenancy
from domain.tenancy.model import Actor
from infra.bootstrap import Container
from infra.db.failures import database_unavailable
from infra.request_context import install_log_record_factory

log = logging.getLogger("gshare.api")
WEB_DIST = Path(__file__).resolve().parent.parent / "web" / "dist"


async def _actor_from_credentials(
    container: Container, bearer: str | None, cookie: str | None
) -> tuple[Actor | None, str | None]:
    credential, method = (bearer, "token") if bearer else (cookie, "cookie") if cookie else (None, None)
    if credential is None or not (credential.isascii() and credential.isprintable()):
        return None, None  # credentials are printable ASCII; anything else matches none
    cache = container.actors
    actor = cache.get(credential)
    if actor is not None:
        return actor, method
    generation = cache.generation
    async with container.uow() as uow:
        if bearer:
            actor = await tenancy.actor_from_token(uow, container.clock, credential)
            await uow.commit()  # records last-used (at most once a minute)
        else:
            actor = await tenancy.actor_from_login_session(uow, container.clock, credential)
    if actor is None:
        return None, None
    cache.put(credential, actor, generation)
    return actor, method


def _bearer(value: str | None) -> str | None:
    if not value:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


GRAPHIQL_NOT_BUILT = (
    "<!doctype html><meta charset=utf-8><title>gshare GraphiQL</title>"
    "<p>GraphiQL is built with the web console and served from it (no CDN, so it works without "
    "internet): run <code>make web</code> and reload. The API answers here meanwhile: "
    '<code>POST /graphql</code> with a JSON body <code>{"query": "{ me { username } }"}</code>.</p>'
)


class PersistedDocumentRefused(Exception):
    def __init__(self, code: RequestErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def load_persisted_documents(web_dist: Path) -> dict[str, str]:
    """The console's documents by sha256 (codegen's persisted-documents.json, copied into
    dist/ by the build); none when the console is not built."""
    path = web_dist / "persisted-documents.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {str(k): str(v) for k, v in data.items()}


class GShareGraphQL(GraphQL[Context, None]):
    graphql_transport_ws_handler_class = GShareTransportWSHandler

    def __init__(
        self,
        container: Container,
        *,
        graphiql_page: Path | None = None,
        persisted_documents: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        settings = container.settings
        self.graphiql_page = graphiql_page
        self.persisted_documents = dict(persisted_documents or {})
        super().__init__(
            build_schema(
                max_depth=settings.max_query_depth,
                max_tokens=settings.max_query_tokens,
                max_aliases=settings.max_aliases,
                max_fields=settings.max_query_fields,
                max_length=settings.max_query_length,
                max_field_comparisons=settings.max_field_comparisons,
                validation_timeout=settings.validation_timeout_seconds,
                introspection=settings.introspection,
            ),
            graphql_ide="graphiql" if settings.graphiql else None,
            subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
            max_subscriptions_per_connection=None,  # GShareTransportWSHandler counts, with a typed error
            connection_init_wait_timeout=timedelta(seconds=10),
            allowed_origins=[settings.own_origin(), *settings.allowed_origins],
            keep_alive=True,
            keep_alive_interval=15,
            **kwargs,
        )
        self.container = container
        self.connections = ConnectionRegistry(
            max_sockets=settings.max_websockets_per_user, max_subscriptions=settings.max_subscriptions_per_user
        )
        self.refresh_lane = asyncio.Semaphore(settings.subscription_refresh_concurrency)
        self.shared_streams = SharedStreams()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """HTTP requests run under `request_timeout_seconds`: past it the client gets a typed
        503 and the work is cancelled, unless a mutation has begun executing (cancelling it
        midway would leave the rest to the periodic sweeps; it is let finish)."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        flight = InFlight()
        token = in_flight.set(flight)
        try:
            work = asyncio.ensure_future(self._answer(scope, receive))
        finally:
            in_flight.reset(token)
        try:
            response = await asyncio.wait_for(asyncio.shield(work), self.container.settings.request_timeout_seconds)
        except TimeoutError:
            if flight.mutating:
                response = await work
            else:
                work.cancel()
                log.warning("request stopped after %ss", self.container.settings.request_timeout_seconds)
                response = graphql_refusal(
                    503, RequestErrorCode.REQUEST_TIMEOUT, "the request took too long and was stopped"
                )
        except asyncio.CancelledError:
            work.cancel()
            raise
        await response(scope, receive, send)

    async def parse_http_body(self, request: Any) -> Any:
        """A query or mutation sent as a persisted document's hash runs the document held under
        it; with `persisted_documents_only`, a document's text is refused."""
        data = await super().parse_http_body(request)
        if isinstance(data, list):
            return [self._persisted(d) for d in data]
        return self._persisted(data)

    def _persisted(self, data: GraphQLRequestData) -> GraphQLRequestData:
        persisted = (data.extensions or {}).get("persistedQuery")
        digest = persisted.get("sha256Hash") if isinstance(persisted, dict) else None
        if digest is not None:
            text = self.persisted_documents.get(digest) if isinstance(digest, str) else None
            if text is None:
                raise PersistedDocumentRefused(
                    RequestErrorCode.PERSISTED_QUERY_NOT_FOUND, "no persisted document has this sha256Hash"
                )
            return dataclasses.replace(data, query=text)
        if self.container.settings.persisted_documents_only and data.query is not None:
            raise PersistedDocumentRefused(
                RequestErrorCode.PERSISTED_QUERY_REQUIRED,
                "this server answers persisted documents only: send extensions.persistedQuery.sha256Hash",
            )
        return data

    async def _answer(self, scope: Scope, receive: Receive) -> Response:
        try:
            return await self.run(Request(scope=scope, receive=receive))  # type: ignore[return-value]
        except PersistedDocumentRefused as exc:
            return graphql_refusal(400, exc.code, exc.message)
        except StrawberryHTTPException as exc:
            return graphql_refusal(exc.status_code, RequestErrorCode.BAD_REQUEST, exc.reason)
        except Exception as exc:
            if not database_unavailable(exc):  # signing in read the database before any GraphQL ran
                raise
            log.error("the database is unavailable (%s: %s)", type(exc).__name__, exc)
            return graphql_refusal(503, RequestErrorCode.SERVICE_UNAVAILABLE, UNAVAILABLE_MESSAGE)

    async def render_graphql_ide(self, request: Request) -> Response:  # type: ignore[override]
        """GraphiQL's page from the console's build (web/dist/graphiql.html and its assets, all
        same-origin: it loads nothing from the internet), or a page saying how to build it."""
        if self.graphiql_page is not None and self.graphiql_page.is_file():
            page = self.graphiql_page.read_text()
        else:
            page = GRAPHIQL_NOT_BUILT
        return HTMLResponse(page, headers={"content-security-policy": page_policy(page)})

    def decode_json(self, data: str | bytes) -> object:
        """JSON the parser cannot hold (numbers of thousands of digits, nesting past the
        recursion limit) is malformed JSON to the client: 400 over HTTP, 4400 on a socket."""
        try:
            return super().decode_json(data)
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, json.JSONDecodeError):
                raise
            raise json.JSONDecodeError(f"unreadable JSON ({type(exc).__name__})", "", 0) from None

    def create_response(self, response_data: Any, sub_response: Response) -> Response:
        response = super().create_response(response_data, sub_response)
        results = response_data if isinstance(response_data, list) else [response_data]
        codes = {(e.get("extensions") or {}).get("code") for r in results for e in (r.get("errors") or [])}
        if RequestErrorCode.SERVICE_UNAVAILABLE in codes:
            response.status_code = 503
        return response

    async def get_context(self, request: Request | WebSocket, response: Response | WebSocket) -> Context:  # type: ignore[override]
        actor: Actor | None = None
        method: str | None = None
        cookie = request.cookies.get(SESSION_COOKIE)
        if isinstance(request, Request):
            bearer_header = request.headers.get("authorization")
            bearer = _bearer(bearer_header)
            if bearer_header and not bearer:
                bearer = "invalid"
            actor, method = await _actor_from_credentials(self.container, bearer, cookie)
        return Context(
            request=request,
            response=response,
            container=self.container,
            actor=actor,
            auth_method=method,
            loaders=build_loaders(self.container.uow),
            session_secret=cookie,
        )

    async def on_ws_connect(self, context: Context) -> Any:  # type: ignore[override]
        """Authenticate in `connection_init`: `{"authorization": "Bearer gsp_…"}` (third-party
        clients) or, for the console, the httpOnly session cookie sent with the handshake
        (the Origin is checked by `allowed_origins`)."""
        params = context.connection_params if isinstance(context.connection_params, dict) else {}
        raw = params.get("authorization") or params.get("Authorization")
        token = params.get("token")
        bearer = _bearer(raw) if isinstance(raw, str) else (token if isinstance(token, str) else None)
        if (raw or token) and not bearer:
            raise ConnectionRejectionError({"reason": "malformed credentials"})
        actor, method = await _actor_from_credentials(
            self.container, bearer, None if bearer else context.session_secret
        )
        if actor is None:
            raise ConnectionRejectionError({"reason": "authentication required"})
        context.actor = actor
        context.auth_method = method
        return UNSET


# paths under these prefixes are never console routes: an unknown one stays a 404
NOT_CONSOLE_ROUTES = ("api", "assets", "auth", "callbacks", "exports", "graphql", "healthz", "metrics", "readyz", "s")


class ConsoleFiles(StaticFiles):
    """web/dist; any other GET of a path that names no file and no server route is one of the
    console's client-side routes (a deep link, a reload), answered with index.html."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            return await super().get_response(path, scope)
        except HTTPException as exc:
            if exc.status_code != 404 or not _console_route(path, scope):
                raise
        response = await super().get_response("index.html", scope)
        response.headers["cache-control"] = "no-cache"
        return response


def _console_route(path: str, scope: Scope) -> bool:
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    if scope.get("method") not in ("GET", "HEAD") or not parts or parts[0] in NOT_CONSOLE_ROUTES:
        return False
    return "." not in parts[-1]  # /assets/x.js, /favicon.ico … are files, missing or not


def _landing() -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>gshare</title>"
        "<h1>gshare</h1><p>The web console is not built in this installation. "
        "The API and its GraphiQL explorer are at <a href=/graphql>/graphql</a>.</p>"
    )


def create_app(container: Container, web_dist: Path = WEB_DIST) -> Starlette:
    settings = container.settings
    graphql_app = GShareGraphQL(
        container, graphiql_page=web_dist / "graphiql.html", persisted_documents=load_persisted_documents(web_dist)
    )

    async def healthz(_: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(_: Request) -> Response:
        from sqlalchemy import text

        try:
            async with container.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception as exc:
            return JSONResponse({"status": "unavailable", "reason": type(exc).__name__}, status_code=503)
        return JSONResponse({"status": "ok"})

    async def auth_config(_: Request) -> Response:
        return JSONResponse(
            {"oidc": settings.oidc_enabled, "oidcLoginUrl": "/auth/oidc/login" if settings.oidc_enabled else None}
        )

    from api.credits.export import ledger_csv_route, usage_csv_route
    from api.operations.metrics import metrics_route

    routes: list[Any] = [
        *callback_routes(container),
        ledger_csv_route(container),
        usage_csv_route(container),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/auth/config", auth_config),
        Route("/graphql", graphql_app, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql_app),
    ]
    metrics = metrics_route(settings.metrics_token.get_secret_value() if settings.metrics_token else None)
    if metrics is not None:
        routes.append(metrics)
    if settings.oidc_enabled:
        from api.oidc import oidc_routes

        routes.extend(oidc_routes(container))
    if (web_dist / "index.html").exists():
        routes.append(Mount("/", ConsoleFiles(directory=web_dist, html=True), name="web"))
    else:
        routes.append(Route("/", lambda _: _landing()))

    async def simulated_endpoint(request: Request) -> Response:
        session = html.escape(request.path_params["session"][:36])
        endpoint = html.escape(request.path_params["endpoint"][:64])
        return HTMLResponse(
            "<!doctype html><meta charset=utf-8><title>gshare simulated endpoint</title>"
            f"<p>This is the <b>{endpoint}</b> endpoint of session <code>{session}</code> on gshare's "
            "simulated cluster. On a real cluster this address reaches the session's pod through the ingress.</p>"
        )

    if settings.use_simulated_cluster:  # the addresses the simulated cluster hands out
        routes.insert(0, Route("/s/{session}/{endpoint}/", simulated_endpoint))

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        from infra.runtime import start_runtime

        runtime = await start_runtime(container)
        try:
            yield
        finally:
            await runtime.aclose()

    middleware = [
        Middleware(
            BodyLimit,
            max_bytes=settings.max_request_body_bytes,
            overrides={"/callbacks/": CALLBACK_MAX_BODY_BYTES},
        ),
        Middleware(
            SessionMiddleware,
            secret_key=settings.resolved_secret_key(),
            session_cookie="gshare_oidc",
            same_site="lax",
            https_only=settings.cookie_secure,
            max_age=600,
        ),
    ]
    install_log_record_factory()
    index = web_dist / "index.html"
    app = GShareApp(routes=routes, middleware=middleware, lifespan=lifespan, exception_handlers=exception_handlers())
    app.html_policy = page_policy(index.read_text() if index.exists() else "")
    return app


class GShareApp(Starlette):
    html_policy = page_policy()  # the console's index.html's, set by create_app

    def build_middleware_stack(self) -> ASGIApp:
        # outside Starlette's error middleware, so that even its last-resort 500 carries the id
        # and the security headers
        return RequestContext(SecurityHeaders(super().build_middleware_stack(), html_policy=self.html_policy))
