"""`GET /exports/ledger.csv`: the ledger history as CSV, with the filters of `ledgerHistory`;
`GET /exports/usage.csv`: a usage report as CSV, with the arguments of `usageReport`.

Query parameters: `account` (an Account, Organization, Group or User global ID), `accountKind`
(SYSTEM, ORGANIZATION, CONSUMPTION, GROUP, USER; with `account` or alone for SYSTEM), `kind`
(ALLOCATION, TAKE_BACK, REFILL, CHARGE), `since`, `until` (ISO 8601; no zone = UTC). Rows are
newest first and the whole history is streamed in pages.

Usage report parameters: `scopeKind` (ORGANIZATION, GROUP, USER), `scope` (its global ID), `by`
(GROUP, USER, OFFERING), `interval` (DAY, WEEK, MONTH), `since`, `until` (default: this month).

Both are authenticated like /graphql: the session cookie or `Authorization: Bearer gsp_…`
(read-only tokens may export).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from enum import Enum
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from api.context import SESSION_COOKIE
from api.credits.inputs import AccountInput, account_ref
from api.credits.queries import transfer_query
from domain.common.errors import CommonErrorCode, DomainError, InvalidValueError
from domain.credits import services as credits
from domain.credits.model import AccountKind, AccountRef, TransferKind
from domain.tenancy import services as tenancy
from domain.tenancy.model import Actor
from infra.bootstrap import Container

EXPORT_PAGE = 5000
_STATUS = {
    CommonErrorCode.UNAUTHENTICATED: 401,
    CommonErrorCode.NOT_FOUND: 404,
    CommonErrorCode.PERMISSION_DENIED: 403,
}


async def _actor(container: Container, request: Request) -> Actor | None:
    header = request.headers.get("authorization")
    async with container.uow() as uow:
        if header:
            scheme, _, token = header.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                return None
            actor = await tenancy.actor_from_token(uow, container.clock, token.strip())
            await uow.commit()  # records last-used
            return actor
        cookie = request.cookies.get(SESSION_COOKIE)
        if cookie:
            return await tenancy.actor_from_login_session(uow, container.clock, cookie)
    return None


def _enum(value: str | None, enum: type[Enum], field: str) -> Any:
    if value is None:
        return None
    try:
        return enum[value.upper()]
    except KeyError as exc:
        raise InvalidValueError(field, f"unknown {field} {value!r}") from exc


def _time(value: str | None, field: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError as exc:
        raise InvalidValueError(field, "not an ISO 8601 date-time") from exc


def _account(params: dict[str, str]) -> AccountRef | None:
    kind = _enum(params.get("accountKind"), AccountKind, "accountKind")
    account_id = params.get("account")
    if kind is None and account_id is None:
        return None
    return account_ref(AccountInput(kind=kind, id=account_id), "account")  # type: ignore[arg-type]


def _error(exc: DomainError) -> Response:
    body = {"code": str(exc.code), "field": exc.field, "message": exc.message}
    return JSONResponse(body, status_code=_STATUS.get(exc.code, 400))  # type: ignore[call-overload]


def ledger_csv_route(container: Container) -> Route:
    async def export(request: Request) -> Response:
        actor = await _actor(container, request)
        if actor is None:
            return _error(DomainError(CommonErrorCode.UNAUTHENTICATED, "sign in first"))
        cr = container.credits
        params = dict(request.query_params)
        try:
            query = transfer_query(
                _account(params),
                _enum(params.get("kind"), TransferKind, "kind"),
                _time(params.get("since"), "since"),
                _time(params.get("until"), "until"),
                limit=EXPORT_PAGE,
            )
            # the first page is read before answering, so refusals get a proper status
            first = await credits.ledger_history(actor, cr.ledger, cr.directory, query)
        except DomainError as exc:
            return _error(exc)

        async def rows() -> AsyncIterator[str]:
            page = first
            yield credits.transfers_csv(page)
            while len(page) == EXPORT_PAGE:
                q = transfer_query(
                    query.account, query.kind, query.since, query.until, before_seq=page[-1][0], limit=EXPORT_PAGE
                )
                page = await credits.ledger_history(actor, cr.ledger, cr.directory, q)
                if page:
                    yield credits.transfers_csv(page).split("\n", 1)[1]  # without the header again

        return StreamingResponse(
            rows(),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": 'attachment; filename="ledger.csv"', "cache-control": "no-store"},
        )

    return Route("/exports/ledger.csv", export, methods=["GET"])


def usage_csv_route(container: Container) -> Route:
    from api.credits.inputs import ScopeInput, budget_scope
    from api.credits.queries import usage_query
    from api.credits.types import usage_key_name
    from api.dataloaders import build_loaders
    from domain.credits.usage import UsageDimension, UsageInterval, usage_csv
    from domain.policies.model import PolicyScopeKind

    async def export(request: Request) -> Response:
        actor = await _actor(container, request)
        if actor is None:
            return _error(DomainError(CommonErrorCode.UNAUTHENTICATED, "sign in first"))
        params = dict(request.query_params)
        try:
            kind = _enum(params.get("scopeKind"), PolicyScopeKind, "scopeKind")
            if kind is None:
                raise InvalidValueError("scopeKind", "scopeKind is required")
            scope = budget_scope(ScopeInput(kind=kind, id=params.get("scope")))  # type: ignore[arg-type]
            query = usage_query(
                container.clock.now(),
                scope,
                _time(params.get("since"), "since"),
                _time(params.get("until"), "until"),
                _enum(params.get("by"), UsageDimension, "by"),
                _enum(params.get("interval"), UsageInterval, "interval"),
            )
            assert container.credits.reports is not None
            report = await credits.usage_report(actor, container.credits.reports, container.credits.directory, query)
        except DomainError as exc:
            return _error(exc)
        info = _LoaderInfo(build_loaders(container.uow))
        names = {t.key: await usage_key_name(info, query.by, t.key) or "" for t in report.totals}  # type: ignore[arg-type]
        return Response(
            usage_csv(report, names),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": 'attachment; filename="usage.csv"', "cache-control": "no-store"},
        )

    return Route("/exports/usage.csv", export, methods=["GET"])


class _LoaderInfo:
    """Just enough of a resolver's `info` for the name helpers: the request's DataLoaders."""

    def __init__(self, loaders: Any) -> None:
        self.context = self
        self.loaders = loaders
