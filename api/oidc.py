"""OIDC sign-in with Authlib: authorization code + PKCE (S256). Users are provisioned into
the Default group of the configured organisation on first sign-in."""

from __future__ import annotations

import logging
import time
from typing import Any

from authlib.integrations.starlette_client import OAuth, OAuthError
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from api.context import SESSION_COOKIE
from domain.audit.services import AuditTarget, audit_entry, record
from domain.common.errors import DomainError
from domain.tenancy import services as tenancy
from infra.bootstrap import Container

log = logging.getLogger("gshare.oidc")


def build_oauth(container: Container) -> OAuth:
    s = container.settings
    oauth = OAuth()
    assert s.oidc_issuer and s.oidc_client_id
    oauth.register(
        "idp",
        server_metadata_url=s.oidc_issuer.rstrip("/") + "/.well-known/openid-configuration",
        client_id=s.oidc_client_id,
        client_secret=s.oidc_client_secret.get_secret_value() if s.oidc_client_secret else None,
        client_kwargs={"scope": s.oidc_scopes, "code_challenge_method": "S256"},
    )
    return oauth


def oidc_routes(container: Container, oauth: OAuth | None = None) -> list[Route]:
    client_registry = oauth or build_oauth(container)
    client: Any = client_registry.create_client("idp")
    settings = container.settings

    async def login(request: Request) -> Response:
        redirect_uri = settings.own_origin() + "/auth/oidc/callback"
        response: Response = await client.authorize_redirect(request, redirect_uri)
        return response

    async def callback(request: Request) -> Response:
        started = time.perf_counter()
        try:
            token = await client.authorize_access_token(request)
            claims = token.get("userinfo") or await client.userinfo(token=token)
        except OAuthError as exc:
            log.warning("OIDC sign-in refused: %s", exc.error)
            return RedirectResponse("/?login_error=oidc", status_code=303)
        async with container.uow() as uow:
            try:
                user = await tenancy.oidc_provision(
                    uow,
                    container.ids,
                    container.clock,
                    subject=f"{settings.oidc_issuer}|{claims['sub']}",
                    preferred_username=claims.get("preferred_username"),
                    email=claims.get("email"),
                    name=claims.get("name"),
                    organization_slug=settings.oidc_organization,
                )
            except DomainError:
                return RedirectResponse("/?login_error=disabled", status_code=303)
            _session, secret = await tenancy.login_session_start(
                uow, container.ids, container.clock, container.secrets, user
            )
            actor = await tenancy.load_actor(uow, user.id)
            await record(
                uow.audit,
                audit_entry(
                    container.ids,
                    at=container.clock.now(),
                    actor=actor,
                    operation="login.oidc",
                    target=AuditTarget("User", str(user.id)),
                    success=True,
                    result_code="OK",
                    duration_ms=int((time.perf_counter() - started) * 1000),
                    client_ip=request.client.host if request.client else None,
                ),
            )
            await uow.commit()
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            SESSION_COOKIE,
            secret,
            max_age=settings.login_session_hours * 3600,
            httponly=True,
            samesite="lax",
            secure=settings.cookie_secure,
            path="/",
        )
        return response

    return [Route("/auth/oidc/login", login), Route("/auth/oidc/callback", callback)]
