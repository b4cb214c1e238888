"""Per-request context: the container, the acting user, request id and the DataLoaders
(built per request: a module-level loader would cache forever)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.types import Info as _Info

from domain.common.errors import CommonErrorCode, DomainError, PermissionDeniedError
from domain.tenancy.model import Actor
from infra.bootstrap import Container
from infra.request_context import request_id as current_request_id

if TYPE_CHECKING:
    from api.dataloaders import Loaders

SESSION_COOKIE = "gshare_session"


@dataclass
class Context:
    request: Request | WebSocket
    response: Response | WebSocket | None
    container: Container
    actor: Actor | None
    auth_method: str | None  # "cookie", "token" or None
    loaders: Loaders
    request_id: str = field(default_factory=current_request_id.get)
    connection_params: dict[str, Any] | None = None
    session_secret: str | None = None

    @property
    def client_ip(self) -> str | None:
        client = self.request.client
        return client.host if client else None

    def require_actor(self) -> Actor:
        if self.actor is None:
            raise DomainError(CommonErrorCode.UNAUTHENTICATED, "sign in first")
        return self.actor

    def require_writer(self) -> Actor:
        actor = self.require_actor()
        if actor.read_only:
            raise PermissionDeniedError("this token is read-only")
        return actor


Info = _Info[Context, None]
