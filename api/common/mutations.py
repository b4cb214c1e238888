"""Running a mutation: authenticate, open a unit of work, call the use case, audit, commit.

A successful change and its audit entry commit together; a refused or failed one rolls back
and its audit entry is written in a transaction of its own, so the log also shows refusals.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Literal, TypeVar, cast

from api.common.errors import UserError, error, errors_from
from api.context import Context
from domain.audit.model import AuditEntry
from domain.audit.services import AuditTarget, audit_entry, record
from domain.common.errors import CommonErrorCode, DomainError
from domain.ports import UnitOfWork
from domain.tenancy.model import Actor
from infra.db.failures import refused_value

log = logging.getLogger(__name__)
R = TypeVar("R")
Auth = Literal["writer", "reader", "anonymous"]


def _entry(
    ctx: Context, actor: Actor | None, operation: str, target: AuditTarget, code: str, started: float
) -> AuditEntry:
    """The audit entry of this request's mutation (`code` "OK" for success)."""
    container = ctx.container
    return audit_entry(
        container.ids,
        at=container.clock.now(),
        actor=actor,
        operation=operation,
        target=target,
        success=code == "OK",
        result_code=code,
        duration_ms=int((time.perf_counter() - started) * 1000),
        request_id=ctx.request_id,
        client_ip=ctx.client_ip,
    )


class Refused(Exception):
    def __init__(self, errors: list[UserError]) -> None:
        self.errors = errors


async def run_mutation(
    ctx: Context,
    operation: str,
    action: Callable[[UnitOfWork, Actor], Awaitable[R]],
    target: Callable[[R], AuditTarget],
    *,
    attempted: AuditTarget | None = None,
    auth: Auth = "writer",
) -> R:
    """Returns the use case's result, or raises `Refused` carrying the typed errors.

    `auth`: "writer" needs a signed-in actor whose token may write, "reader" any signed-in
    actor, "anonymous" none (sign-in itself; the action authenticates and sets `ctx.actor`)."""
    started = time.perf_counter()
    container = ctx.container
    actor = ctx.actor
    try:
        if auth == "writer":
            actor = ctx.require_writer()
        elif auth == "reader":
            actor = ctx.require_actor()
        async with container.uow() as uow:
            result = await action(uow, cast(Actor, actor))
            await record(uow.audit, _entry(ctx, ctx.actor or actor, operation, target(result), "OK", started))
            await uow.commit()
            return result
    except DomainError as exc:
        await _record_failure(ctx, actor, operation, attempted, str(exc.code), started)
        raise Refused(errors_from(exc)) from exc
    except Exception as exc:
        if refused_value(exc):
            await _record_failure(ctx, actor, operation, attempted, "INVALID_VALUE", started)
            raise Refused([_unstorable(operation, exc)]) from exc
        log.exception("mutation %s failed (request %s)", operation, ctx.request_id)
        await _record_failure(ctx, actor, operation, attempted, "INTERNAL_ERROR", started)
        raise


def _unstorable(operation: str, exc: BaseException) -> UserError:
    """The database refused a value (SQLSTATE class 22): the client's input, but a check
    before the database is missing, hence the warning."""
    log.warning("mutation %s: the database refused a value: %s", operation, exc)
    return error(CommonErrorCode.INVALID_VALUE, "a value could not be stored; check the input's lengths and ranges")


async def _record_failure(
    ctx: Context, actor: Actor | None, operation: str, attempted: AuditTarget | None, code: str, started: float
) -> None:
    try:
        async with ctx.container.uow() as uow:
            await record(uow.audit, _entry(ctx, actor, operation, attempted or AuditTarget(), code, started))
            await uow.commit()
    except Exception:  # the refusal must still reach the client
        log.exception("could not audit failed %s", operation)


P = TypeVar("P")


async def mutate(
    ctx: Context,
    operation: str,
    action: Callable[[UnitOfWork, Actor], Awaitable[R]],
    target: Callable[[R], AuditTarget],
    ok: Callable[[R], P],
    refused: Callable[[list[UserError]], P],
    *,
    attempted: AuditTarget | None = None,
    auth: Auth = "writer",
) -> P:
    """`run_mutation`, mapped onto a payload: `ok(result)` or `refused(errors)`."""
    try:
        result = await run_mutation(ctx, operation, action, target, attempted=attempted, auth=auth)
    except Refused as r:
        return refused(r.errors)
    return ok(result)


async def mutate_saga(
    ctx: Context,
    operation: str,
    call: Callable[[Actor], Awaitable[R]],
    target: Callable[[R], AuditTarget],
    ok: Callable[[R], P],
    refused: Callable[[list[UserError]], P],
    *,
    attempted: AuditTarget | None = None,
    audited_by_call: bool = False,
) -> P:
    """For use cases that run their own transactions (the session saga): no unit of work is
    held while they run; the audit entry is written right after, success or refusal
    (`audited_by_call`: the use case wrote the success's entry in its own transaction, made
    by `success_audit`)."""
    started = time.perf_counter()
    actor = ctx.actor
    try:
        actor = ctx.require_writer()
        result = await call(actor)
    except DomainError as exc:
        await _record_failure(ctx, actor, operation, attempted, str(exc.code), started)
        return refused(errors_from(exc))
    except Exception as exc:
        if refused_value(exc):
            await _record_failure(ctx, actor, operation, attempted, "INVALID_VALUE", started)
            return refused([_unstorable(operation, exc)])
        log.exception("mutation %s failed (request %s)", operation, ctx.request_id)
        await _record_failure(ctx, actor, operation, attempted, "INTERNAL_ERROR", started)
        raise
    if not audited_by_call:
        async with ctx.container.uow() as uow:
            await record(uow.audit, _entry(ctx, actor, operation, target(result), "OK", started))
            await uow.commit()
    return ok(result)


def success_audit(
    ctx: Context, actor: Actor, operation: str, target: Callable[[R], AuditTarget]
) -> Callable[[R], AuditEntry]:
    """The success's audit entry, for a use case to write in the transaction of its change."""
    started = time.perf_counter()
    return lambda result: _entry(ctx, actor, operation, target(result), "OK", started)
