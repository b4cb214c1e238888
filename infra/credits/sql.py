"""PostgreSQL adapters for the credits and policies ports (SQLAlchemy 2 Core over asyncpg).

Locking: every call that moves money runs in one transaction that first locks the account
rows it touches with `SELECT … FOR UPDATE` in ascending id order (then, where needed, the hold
or schedule row), so concurrent transfers never deadlock and never read a stale balance. The
balance check is made in Python against the locked rows (for a refusal with numbers) and again
by the CHECK constraints on the cached columns. Serialization failures and deadlocks
(SQLSTATE 40001 / 40P01, e.g. when run SERIALIZABLE) retry the whole transaction.

Hot path (`post`): BEGIN; lock the two accounts; one statement that inserts the transfer
(ON CONFLICT on the idempotency key DO NOTHING) and moves both balances; COMMIT.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from fractions import Fraction
from typing import Any, TypeVar, cast
from uuid import UUID

import asyncpg
from sqlalchemy import Table, and_, bindparam, case, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.engine import Row
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from domain.common.errors import NotFoundError
from domain.common.money import MicroCredits
from domain.credits.budgets import Budget, BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.errors import (
    HoldClosedError,
    IdempotencyKeyReusedError,
    InvalidTransferError,
)
from domain.credits.model import (
    AccountKind,
    AccountRef,
    Attribution,
    Balance,
    Hold,
    HoldRequest,
    HoldResult,
    HoldStatus,
    Period,
    Transfer,
    TransferKind,
    TransferRequest,
    TransferResult,
    charge_split,
    check_can_pay,
)
from domain.credits.ports import TransferQuery
from domain.credits.refills import RefillCadence, RefillMode, RefillSchedule
from domain.policies.model import PolicyScope, PolicyScopeKind, ResourcePolicy
from infra.db.base import to_async_url
from infra.db.models.credits import (
    BudgetRow,
    CreditAccountRow,
    CreditHoldRow,
    CreditTransferRow,
    RefillScheduleRow,
)
from infra.db.models.policies import ResourcePolicyRow

A = cast(Table, CreditAccountRow.__table__)
T = cast(Table, CreditTransferRow.__table__)
H = cast(Table, CreditHoldRow.__table__)
R = cast(Table, RefillScheduleRow.__table__)
B = cast(Table, BudgetRow.__table__)
P = cast(Table, ResourcePolicyRow.__table__)

RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})  # serialization failure, deadlock
_T = TypeVar("_T")


def make_ledger_engine(url: str, *, pool_size: int = 20, max_overflow: int = 20) -> AsyncEngine:
    """An engine for the ledger's hot path: no pre-ping (with asyncpg a ping costs three round
    trips per checkout, more than a transfer). A connection found dead is invalidated by
    SQLAlchemy and the call is retried; a retried transfer is safe because of its key."""
    return create_async_engine(to_async_url(url), pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=False)


def _retryable(exc: DBAPIError) -> bool:
    return exc.connection_invalidated or sqlstate(exc) in RETRYABLE_SQLSTATES


def sqlstate(exc: BaseException) -> str | None:
    orig = getattr(exc, "orig", None)
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


class Transactor:
    """Runs a function in one transaction, retrying it whole on 40001/40P01."""

    def __init__(self, engine: AsyncEngine, *, isolation_level: str | None = None, max_attempts: int = 30) -> None:
        self.engine = engine
        self.isolation_level = isolation_level
        self.max_attempts = max_attempts
        self.retries = 0  # observed retries (tests and the benchmark report it)
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    def read(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A connection for one read-only statement: in autocommit, so without the BEGIN and
        ROLLBACK round trips a transaction around a single SELECT would cost."""
        return self._autocommit.connect()

    async def run(self, fn: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        for attempt in range(1, self.max_attempts + 1):
            try:
                async with self.engine.connect() as conn:
                    if self.isolation_level is not None:
                        conn = await conn.execution_options(isolation_level=self.isolation_level)
                    async with conn.begin():
                        return await fn(conn)
            except DBAPIError as exc:
                if not _retryable(exc) or attempt == self.max_attempts:
                    raise
                self.retries += 1
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
        raise AssertionError("unreachable")


# ------------------------------------------------------------------------------- accounts


def _owner_columns(ref: AccountRef) -> dict[str, UUID | None]:
    cols: dict[str, UUID | None] = {"organization_id": None, "group_id": None, "user_id": None}
    if ref.kind in (AccountKind.ORGANIZATION, AccountKind.CONSUMPTION):
        cols["organization_id"] = ref.owner_id
    elif ref.kind is AccountKind.GROUP:
        cols["group_id"] = ref.owner_id
    elif ref.kind is AccountKind.USER:
        cols["user_id"] = ref.owner_id
    return cols


def _ref_from_columns(kind: str, org: UUID | None, group: UUID | None, user: UUID | None) -> AccountRef:
    k = AccountKind(kind)
    owner = {
        AccountKind.SYSTEM: None,
        AccountKind.ORGANIZATION: org,
        AccountKind.CONSUMPTION: org,
        AccountKind.GROUP: group,
        AccountKind.USER: user,
    }[k]
    return AccountRef(k, owner)


_LOCK_ACCOUNTS = (
    select(A.c.id, A.c.balance_micro, A.c.held_micro)
    .where(A.c.id.in_(bindparam("ids", expanding=True)))
    .order_by(A.c.id)
    .with_for_update()
)
_OPEN_ACCOUNT = pg_insert(A).on_conflict_do_nothing(index_elements=[A.c.id])


async def _open_accounts(conn: AsyncConnection, refs: Sequence[AccountRef]) -> None:
    """Create missing account rows; a missing owner (FK) is NotFound."""
    try:
        await conn.execute(_OPEN_ACCOUNT, [{"id": r.id, "kind": r.kind.value, **_owner_columns(r)} for r in refs])
    except IntegrityError as exc:
        if sqlstate(exc) == "23503":
            raise NotFoundError("account owner", "account") from exc
        raise


async def lock_accounts(conn: AsyncConnection, refs: Sequence[AccountRef]) -> dict[AccountRef, Balance]:
    """Lock (creating if needed) every account, ascending id order; their balances."""
    by_id = {r.id: r for r in refs}
    ids = sorted(by_id)
    rows = (await conn.execute(_LOCK_ACCOUNTS, {"ids": ids})).all()
    if len(rows) < len(ids):
        found = {row.id for row in rows}
        await _open_accounts(conn, [by_id[i] for i in ids if i not in found])
        rows = (await conn.execute(_LOCK_ACCOUNTS, {"ids": ids})).all()
    return {by_id[row.id]: Balance(by_id[row.id], row.balance_micro, row.held_micro) for row in rows}


_ADD_HELD = update(A).where(A.c.id == bindparam("aid")).values(held_micro=A.c.held_micro + bindparam("delta"))

# ------------------------------------------------------------------------------ transfers

_TRANSFER_COLUMNS = (
    "id",
    "idempotency_key",
    "kind",
    "source_account_id",
    "destination_account_id",
    "amount_micro",
    "created_at",
    "actor_id",
    "organization_id",
    "group_id",
    "user_id",
    "hold_id",
    "memo",
)
_INS = (
    pg_insert(T)
    .values({c: bindparam(f"t_{c}") for c in _TRANSFER_COLUMNS})
    .on_conflict_do_nothing(index_elements=[T.c.idempotency_key])
    .returning(T.c.seq, T.c.source_account_id, T.c.destination_account_id, T.c.amount_micro)
    .cte("ins")
)
_MOVED = (
    update(A)
    .where(or_(A.c.id == _INS.c.source_account_id, A.c.id == _INS.c.destination_account_id))
    .values(
        balance_micro=A.c.balance_micro
        + case(
            (A.c.id == _INS.c.destination_account_id, _INS.c.amount_micro),
            else_=-_INS.c.amount_micro,
        )
    )
    .returning(A.c.id)
    .cte("moved")
)
# one round trip: insert the transfer unless its key exists, and move both balances
_POST = select(_INS.c.seq).add_cte(_MOVED)

# The same as one self-contained statement (its own transaction in autocommit): lock both
# accounts in id order, insert the transfer only if both exist, move both balances. The CHECK
# on the cached columns refuses an overdraft (SQLSTATE 23514) and so rolls it all back.
_LOCKED = (
    select(A.c.id)
    .where(A.c.id.in_([bindparam("t_source_account_id"), bindparam("t_destination_account_id")]))
    .order_by(A.c.id)
    .with_for_update()
    .cte("locked")
)
_INS_LOCKED = (
    pg_insert(T)
    .from_select(
        list(_TRANSFER_COLUMNS),
        select(*(bindparam(f"t_{c}", type_=T.c[c].type) for c in _TRANSFER_COLUMNS)).where(
            select(func.count()).select_from(_LOCKED).scalar_subquery() == 2
        ),
    )
    .on_conflict_do_nothing(index_elements=[T.c.idempotency_key])
    .returning(T.c.seq, T.c.source_account_id, T.c.destination_account_id, T.c.amount_micro)
    .cte("ins")
)
_MOVED_LOCKED = (
    update(A)
    .where(
        or_(
            A.c.id == _INS_LOCKED.c.source_account_id,
            A.c.id == _INS_LOCKED.c.destination_account_id,
        )
    )
    .values(
        balance_micro=A.c.balance_micro
        + case(
            (A.c.id == _INS_LOCKED.c.destination_account_id, _INS_LOCKED.c.amount_micro),
            else_=-_INS_LOCKED.c.amount_micro,
        )
    )
    .returning(A.c.id)
    .cte("moved")
)
_POST_ATOMIC = select(_INS_LOCKED.c.seq).add_cte(_MOVED_LOCKED)
# The hot path hands this statement, compiled once by SQLAlchemy for asyncpg, straight to the
# driver (asyncpg prepares and caches it per connection): SQLAlchemy's per-execute machinery
# costs more client CPU than the statement costs the server.
_POST_ATOMIC_COMPILED = _POST_ATOMIC.compile(dialect=asyncpg_dialect())  # type: ignore[no-untyped-call]
_POST_ATOMIC_SQL = str(_POST_ATOMIC_COMPILED)
_POST_ATOMIC_ORDER = tuple(_POST_ATOMIC_COMPILED.positiontup or ())
_POST_ATOMIC_CONSTANTS = {k: v for k, v in _POST_ATOMIC_COMPILED.params.items() if not k.startswith("t_")}


class _Retry(Exception):
    pass


_BY_KEY = select(T).where(T.c.idempotency_key == bindparam("key"))


def _transfer_params(r: TransferRequest) -> dict[str, Any]:
    a = r.attribution
    return {
        "t_id": r.transfer_id,
        "t_idempotency_key": r.idempotency_key,
        "t_kind": r.kind.value,
        "t_source_account_id": r.source.id,
        "t_destination_account_id": r.destination.id,
        "t_amount_micro": r.amount_micro,
        "t_created_at": r.created_at,
        "t_actor_id": r.actor_id,
        "t_organization_id": a.organization_id,
        "t_group_id": a.group_id,
        "t_user_id": a.user_id,
        "t_hold_id": r.hold_id,
        "t_memo": r.memo,
    }


def _row_matches(r: TransferRequest, row: Row[Any]) -> bool:
    a = r.attribution
    return (
        row.kind == r.kind.value
        and row.source_account_id == r.source.id
        and row.destination_account_id == r.destination.id
        and row.amount_micro == r.amount_micro
        and row.hold_id == r.hold_id
        and (row.organization_id, row.group_id, row.user_id) == (a.organization_id, a.group_id, a.user_id)
    )


def _replayed(r: TransferRequest, row: Row[Any]) -> TransferResult:
    """The first posting, rebuilt from its row (the refs equal the request's: ids match)."""
    if not _row_matches(r, row):
        raise IdempotencyKeyReusedError(r.idempotency_key)
    first = Transfer(
        row.id,
        row.idempotency_key,
        r.kind,
        r.source,
        r.destination,
        row.amount_micro,
        row.created_at,
        row.actor_id,
        r.attribution,
        row.hold_id,
        row.memo,
    )
    return TransferResult(first, True)


async def post_locked(
    conn: AsyncConnection, request: TransferRequest, balances: dict[AccountRef, Balance]
) -> TransferResult:
    """Post one transfer whose accounts are locked in `balances` (kept up to date)."""
    source = balances[request.source]
    if request.source.kind is not AccountKind.SYSTEM and source.available_micro < request.amount_micro:
        existing = (await conn.execute(_BY_KEY, {"key": request.idempotency_key})).first()
        if existing is not None:
            return _replayed(request, existing)
        check_can_pay(request.source, source, request.amount_micro)
    seq = (await conn.execute(_POST, _transfer_params(request))).scalar()
    if seq is None:  # the key exists: compare and replay (nothing moved)
        existing = (await conn.execute(_BY_KEY, {"key": request.idempotency_key})).one()
        return _replayed(request, existing)
    balances[request.source] = Balance(request.source, source.balance_micro - request.amount_micro, source.held_micro)
    dest = balances[request.destination]
    balances[request.destination] = Balance(
        request.destination, dest.balance_micro + request.amount_micro, dest.held_micro
    )
    return TransferResult(request.to_transfer(), False)


# ---------------------------------------------------------------------------------- holds


def _hold_from_row(row: Row[Any]) -> Hold:
    return Hold(
        row.id,
        row.idempotency_key,
        row.user_id,
        row.amount_micro,
        row.reserved_micro,
        row.charged_micro,
        HoldStatus(row.status),
        row.created_at,
        row.updated_at,
        Attribution(row.organization_id, row.group_id, row.user_id),
        row.memo,
    )


_HOLD_BY_ID = select(H).where(H.c.id == bindparam("hid"))
_LOCK_HOLD = _HOLD_BY_ID.with_for_update()
_HOLD_BY_KEY = select(H).where(H.c.idempotency_key == bindparam("key"))


_NEW_HOLD = pg_insert(H)


class SqlWalletHolds:
    """The `WalletHolds` port on a unit of work's session: holds that commit with the
    admission's session rows (issue 19), written as the ledger's `reserve` writes them."""

    def __init__(self, session: Any, on_hold: Callable[[HoldRequest], None] | None = None) -> None:
        self.session = session
        self._on_hold = on_hold  # fault injection (infra.faults), after each hold is written

    async def lock_wallets(self, user_ids: Sequence[UUID]) -> Mapping[UUID, Balance]:
        conn = await self.session.connection()
        refs = [AccountRef.user(u) for u in user_ids]
        locked = await lock_accounts(conn, refs)
        return {r.owner_id: locked[r] for r in refs if r.owner_id is not None}

    async def add(self, requests: Sequence[HoldRequest]) -> Sequence[Hold]:
        if not requests:
            return []
        conn = await self.session.connection()
        rows = [
            {
                "id": r.hold_id,
                "idempotency_key": r.idempotency_key,
                "account_id": AccountRef.user(r.user_id).id,
                "user_id": r.user_id,
                "amount_micro": r.amount_micro,
                "reserved_micro": r.amount_micro,
                "charged_micro": 0,
                "status": HoldStatus.OPEN.value,
                "organization_id": r.attribution.organization_id,
                "group_id": r.attribution.group_id,
                "memo": r.memo,
                "created_at": r.created_at,
                "updated_at": r.created_at,
            }
            for r in requests
        ]
        await conn.execute(_NEW_HOLD, rows)  # new keys (a session's first hold): nothing to return
        deltas: dict[UUID, int] = {}
        for r in requests:
            wallet = AccountRef.user(r.user_id).id
            deltas[wallet] = deltas.get(wallet, 0) + r.amount_micro
        await conn.execute(_ADD_HELD, [{"aid": a, "delta": d} for a, d in sorted(deltas.items())])
        if self._on_hold is not None:
            for r in requests:
                self._on_hold(r)
        return [
            Hold(
                r.hold_id,
                r.idempotency_key,
                r.user_id,
                r.amount_micro,
                r.amount_micro,
                0,
                HoldStatus.OPEN,
                r.created_at,
                r.created_at,
                r.attribution,
                r.memo,
            )
            for r in requests
        ]


_ATTRIBUTION = {
    BudgetScopeKind.ORGANIZATION: T.c.organization_id,
    BudgetScopeKind.GROUP: T.c.group_id,
    BudgetScopeKind.USER: T.c.user_id,
}


def _charges_of(scope: BudgetScope, since: datetime, until: datetime) -> list[Any]:
    return [
        T.c.kind == TransferKind.CHARGE.value,
        _ATTRIBUTION[scope.kind] == scope.id,
        T.c.created_at >= since,
        T.c.created_at < until,
    ]


def _history_filters(query: TransferQuery) -> list[Any]:
    """The filters of a history query, without its cursor."""
    found: list[Any] = []
    if query.account is not None:
        aid = query.account.id
        found.append(or_(T.c.source_account_id == aid, T.c.destination_account_id == aid))
    if query.kind is not None:
        found.append(T.c.kind == query.kind.value)
    if query.since is not None:
        found.append(T.c.created_at >= query.since)
    if query.until is not None:
        found.append(T.c.created_at < query.until)
    return found


class SqlLedger:
    """The `Ledger` port over PostgreSQL. Construct with an AsyncEngine (`make_engine(url)`);
    `isolation_level="SERIALIZABLE"` is supported (retries on 40001)."""

    def __init__(self, engine: AsyncEngine, *, isolation_level: str | None = None, max_attempts: int = 30) -> None:
        self.tx = Transactor(engine, isolation_level=isolation_level, max_attempts=max_attempts)

    async def post(self, request: TransferRequest) -> TransferResult:
        """Fast path: one self-contained statement in autocommit. Anything unusual (a replayed
        key, an account not yet opened, an overdraft refused by the CHECK) falls back to the
        transactional path, which answers it with the right result or typed error."""
        if self.tx.isolation_level is not None:
            return await self._post_in_transaction(request)
        params = {**_POST_ATOMIC_CONSTANTS, **_transfer_params(request)}
        args = [params[name] for name in _POST_ATOMIC_ORDER]
        for attempt in range(1, self.tx.max_attempts + 1):
            try:
                seq = await self._post_atomic(args)
                break
            except asyncpg.PostgresError as exc:
                if exc.sqlstate == "23514":  # overdraft: the locked path explains it with numbers
                    return await self._post_in_transaction(request)
                if exc.sqlstate not in RETRYABLE_SQLSTATES or attempt == self.tx.max_attempts:
                    raise
            except _Retry:
                if attempt == self.tx.max_attempts:
                    raise
            self.tx.retries += 1
        if seq is None:  # key already used, or an account to open
            return await self._post_in_transaction(request)
        return TransferResult(request.to_transfer(), False)

    async def _post_atomic(self, args: list[Any]) -> int | None:
        async with self.tx.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver = cast(asyncpg.Connection, raw.driver_connection)
            try:
                return cast(int | None, await driver.fetchval(_POST_ATOMIC_SQL, *args))
            except (
                asyncpg.InterfaceError,
                asyncpg.InternalClientError,  # the protocol saw the server go away mid-call
                asyncpg.PostgresConnectionError,
                OSError,
            ) as exc:
                await conn.invalidate(exc)  # a dead connection: drop it, try another
                raise _Retry from exc

    async def _post_in_transaction(self, request: TransferRequest) -> TransferResult:
        async def go(conn: AsyncConnection) -> TransferResult:
            balances = await lock_accounts(conn, [request.source, request.destination])
            return await post_locked(conn, request, balances)

        return await self.tx.run(go)

    async def post_many(self, requests: Sequence[TransferRequest]) -> list[TransferResult]:
        if not requests:
            return []

        async def go(conn: AsyncConnection) -> list[TransferResult]:
            refs = {a for r in requests for a in (r.source, r.destination)}
            balances = await lock_accounts(conn, list(refs))
            return [await post_locked(conn, r, balances) for r in requests]

        return await self.tx.run(go)

    async def balances(self, accounts: Sequence[AccountRef]) -> Mapping[AccountRef, Balance]:
        by_id = {a.id: a for a in accounts}
        async with self.tx.read() as conn:
            rows = (
                await conn.execute(select(A.c.id, A.c.balance_micro, A.c.held_micro).where(A.c.id.in_(list(by_id))))
            ).all()
        found = {row.id: Balance(by_id[row.id], row.balance_micro, row.held_micro) for row in rows}
        return {a: found.get(a.id, Balance(a)) for a in accounts}

    async def history(self, query: TransferQuery) -> Sequence[tuple[int, Transfer]]:
        src, dst = A.alias("src"), A.alias("dst")
        stmt = (
            select(
                T,
                src.c.kind.label("s_kind"),
                src.c.organization_id.label("s_org"),
                src.c.group_id.label("s_group"),
                src.c.user_id.label("s_user"),
                dst.c.kind.label("d_kind"),
                dst.c.organization_id.label("d_org"),
                dst.c.group_id.label("d_group"),
                dst.c.user_id.label("d_user"),
            )
            .join(src, src.c.id == T.c.source_account_id)
            .join(dst, dst.c.id == T.c.destination_account_id)
            .where(*_history_filters(query))
            .order_by(T.c.seq.desc())
            .limit(query.limit)
        )
        if query.before_seq is not None:
            stmt = stmt.where(T.c.seq < query.before_seq)
        async with self.tx.read() as conn:
            rows = (await conn.execute(stmt)).all()
        return [
            (
                row.seq,
                Transfer(
                    row.id,
                    row.idempotency_key,
                    TransferKind(row.kind),
                    _ref_from_columns(row.s_kind, row.s_org, row.s_group, row.s_user),
                    _ref_from_columns(row.d_kind, row.d_org, row.d_group, row.d_user),
                    row.amount_micro,
                    row.created_at,
                    row.actor_id,
                    Attribution(row.organization_id, row.group_id, row.user_id),
                    row.hold_id,
                    row.memo,
                ),
            )
            for row in rows
        ]

    async def count(self, query: TransferQuery) -> int:
        stmt = select(func.count()).select_from(T).where(*_history_filters(query))
        async with self.tx.read() as conn:
            return int((await conn.execute(stmt)).scalar_one())

    async def reserve(self, request: HoldRequest) -> HoldResult:
        wallet = AccountRef.user(request.user_id)

        async def go(conn: AsyncConnection) -> HoldResult:
            balances = await lock_accounts(conn, [wallet])
            existing = (await conn.execute(_HOLD_BY_KEY, {"key": request.idempotency_key})).first()
            if existing is None:
                check_can_pay(wallet, balances[wallet], request.amount_micro)
                a = request.attribution
                inserted = (
                    await conn.execute(
                        pg_insert(H)
                        .values(
                            id=request.hold_id,
                            idempotency_key=request.idempotency_key,
                            account_id=wallet.id,
                            user_id=request.user_id,
                            amount_micro=request.amount_micro,
                            reserved_micro=request.amount_micro,
                            charged_micro=0,
                            status=HoldStatus.OPEN.value,
                            organization_id=a.organization_id,
                            group_id=a.group_id,
                            memo=request.memo,
                            created_at=request.created_at,
                            updated_at=request.created_at,
                        )
                        .on_conflict_do_nothing(index_elements=[H.c.idempotency_key])
                        .returning(H)
                    )
                ).first()
                if inserted is not None:
                    await conn.execute(_ADD_HELD, {"aid": wallet.id, "delta": request.amount_micro})
                    return HoldResult(_hold_from_row(inserted), False)
                existing = (await conn.execute(_HOLD_BY_KEY, {"key": request.idempotency_key})).one()
            hold = _hold_from_row(existing)
            if not request.matches(hold):
                raise IdempotencyKeyReusedError(request.idempotency_key)
            return HoldResult(hold, True)

        return await self.tx.run(go)

    async def _locked_hold(
        self, conn: AsyncConnection, hold_id: UUID, extra: Sequence[AccountRef] = ()
    ) -> tuple[Hold, dict[AccountRef, Balance]]:
        """Lock the hold's wallet (and `extra` accounts), then the hold row."""
        row = (await conn.execute(_HOLD_BY_ID, {"hid": hold_id})).first()
        if row is None:
            raise NotFoundError("hold", "holdId")
        balances = await lock_accounts(conn, [AccountRef.user(row.user_id), *extra])
        locked = (await conn.execute(_LOCK_HOLD, {"hid": hold_id})).one()
        return _hold_from_row(locked), balances

    async def renew_hold(self, hold_id: UUID, amount_micro: MicroCredits, now: datetime) -> Hold:
        async def go(conn: AsyncConnection) -> Hold:
            hold, balances = await self._locked_hold(conn, hold_id)
            if hold.status is not HoldStatus.OPEN:
                raise HoldClosedError(hold.status.value)
            delta = amount_micro - hold.amount_micro
            if delta > 0:
                check_can_pay(hold.wallet, balances[hold.wallet], delta)
            await conn.execute(_ADD_HELD, {"aid": hold.wallet.id, "delta": delta})
            row = (
                await conn.execute(
                    update(H).where(H.c.id == hold_id).values(amount_micro=amount_micro, updated_at=now).returning(H)
                )
            ).one()
            return _hold_from_row(row)

        return await self.tx.run(go)

    async def charge_hold(self, hold_id: UUID, charge: TransferRequest, *, settle: bool) -> TransferResult:
        async def go(conn: AsyncConnection) -> TransferResult:
            hold, balances = await self._locked_hold(conn, hold_id, [charge.destination])
            existing = (await conn.execute(_BY_KEY, {"key": charge.idempotency_key})).first()
            if existing is not None:
                return _replayed(charge, existing)
            if hold.status is not HoldStatus.OPEN:
                raise HoldClosedError(hold.status.value)
            if charge.kind is not TransferKind.CHARGE or charge.source != hold.wallet:
                raise InvalidTransferError("a hold is charged from its own wallet", "holdId")
            if charge.hold_id != hold_id:
                raise InvalidTransferError("the charge must name its hold", "holdId")
            covered, _excess = charge_split(hold, charge.amount_micro)
            rest = hold.amount_micro - covered
            freed = covered + (rest if settle else 0)
            wallet = balances[hold.wallet]
            # free the covered part first, so the charge can use it
            balances[hold.wallet] = Balance(hold.wallet, wallet.balance_micro, wallet.held_micro - covered)
            await conn.execute(_ADD_HELD, {"aid": hold.wallet.id, "delta": -freed})
            result = await post_locked(conn, charge, balances)
            await conn.execute(
                update(H)
                .where(H.c.id == hold_id)
                .values(
                    amount_micro=0 if settle else rest,
                    charged_micro=H.c.charged_micro + charge.amount_micro,
                    status=(HoldStatus.SETTLED if settle else HoldStatus.OPEN).value,
                    updated_at=charge.created_at,
                )
            )
            return result

        return await self.tx.run(go)

    async def release_hold(self, hold_id: UUID, now: datetime) -> Hold:
        async def go(conn: AsyncConnection) -> Hold:
            hold, _ = await self._locked_hold(conn, hold_id)
            if hold.status is not HoldStatus.OPEN:
                return hold
            await conn.execute(_ADD_HELD, {"aid": hold.wallet.id, "delta": -hold.amount_micro})
            row = (
                await conn.execute(
                    update(H)
                    .where(H.c.id == hold_id)
                    .values(amount_micro=0, status=HoldStatus.RELEASED.value, updated_at=now)
                    .returning(H)
                )
            ).one()
            return _hold_from_row(row)

        return await self.tx.run(go)

    async def holds_of(self, user_id: UUID, *, open_only: bool = True) -> Sequence[Hold]:
        stmt = select(H).where(H.c.user_id == user_id).order_by(H.c.created_at.desc())
        if open_only:
            stmt = stmt.where(H.c.status == HoldStatus.OPEN.value)
        async with self.tx.read() as conn:
            return [_hold_from_row(r) for r in await conn.execute(stmt)]

    async def open_holds(self, *, created_before: datetime, key_prefix: str) -> Sequence[Hold]:
        stmt = (
            select(H)
            .where(
                H.c.status == HoldStatus.OPEN.value,
                H.c.created_at < created_before,
                H.c.idempotency_key.startswith(key_prefix, autoescape=True),
            )
            .order_by(H.c.created_at)
        )
        async with self.tx.read() as conn:
            return [_hold_from_row(r) for r in await conn.execute(stmt)]

    async def get_hold(self, hold_id: UUID) -> Hold | None:
        async with self.tx.read() as conn:
            row = (await conn.execute(_HOLD_BY_ID, {"hid": hold_id})).first()
        return None if row is None else _hold_from_row(row)

    async def spend(self, scope: BudgetScope, since: datetime, until: datetime) -> MicroCredits:
        stmt = select(func.coalesce(func.sum(T.c.amount_micro), 0)).where(*_charges_of(scope, since, until))
        async with self.tx.read() as conn:
            return int((await conn.execute(stmt)).scalar_one())

    async def spend_by(
        self, scope: BudgetScope, since: datetime, until: datetime, by: BudgetScopeKind
    ) -> Mapping[UUID, MicroCredits]:
        column = _ATTRIBUTION[by]
        stmt = (
            select(column, func.sum(T.c.amount_micro))
            .where(*_charges_of(scope, since, until), column.is_not(None))
            .group_by(column)
        )
        async with self.tx.read() as conn:
            return {row[0]: int(row[1]) for row in await conn.execute(stmt)}

    async def total(self) -> int:
        """Sum of every cached balance: always 0 (tests and audits)."""
        async with self.tx.read() as conn:
            return int((await conn.execute(select(func.coalesce(func.sum(A.c.balance_micro), 0)))).scalar_one())


# -------------------------------------------------------------------------------- refills


def _schedule_from_row(row: Row[Any], accounts: Mapping[UUID, AccountRef]) -> RefillSchedule:
    return RefillSchedule(
        row.id,
        accounts[row.source_account_id],
        RefillMode(row.mode),
        row.amount_micro,
        RefillCadence(row.cadence),
        row.anchor_day,
        row.created_by,
        row.created_at,
        row.last_period_start,
        accounts[row.target_account_id] if row.target_account_id else None,
        row.members_of_group_id,
        row.active,
        row.memo,
    )


class SqlRefillSchedules:
    def __init__(self, ledger: SqlLedger) -> None:
        self.tx = ledger.tx

    async def add(self, schedule: RefillSchedule) -> None:
        async def go(conn: AsyncConnection) -> None:
            refs = [schedule.source] + ([schedule.target] if schedule.target else [])
            await _open_accounts(conn, refs)
            await conn.execute(
                R.insert().values(
                    id=schedule.id,
                    source_account_id=schedule.source.id,
                    target_account_id=schedule.target.id if schedule.target else None,
                    members_of_group_id=schedule.members_of_group,
                    mode=schedule.mode.value,
                    amount_micro=schedule.amount_micro,
                    cadence=schedule.cadence.value,
                    anchor_day=schedule.anchor_day,
                    active=schedule.active,
                    last_period_start=schedule.last_period_start,
                    created_by=schedule.created_by,
                    created_at=schedule.created_at,
                    memo=schedule.memo,
                )
            )

        await self.tx.run(go)

    async def _select(self, *where: Any) -> list[RefillSchedule]:
        async with self.tx.engine.connect() as conn:
            rows = (await conn.execute(select(R).where(*where).order_by(R.c.created_at))).all()
            ids = {r.source_account_id for r in rows} | {r.target_account_id for r in rows if r.target_account_id}
            accounts = {
                a.id: _ref_from_columns(a.kind, a.organization_id, a.group_id, a.user_id)
                for a in (await conn.execute(select(A).where(A.c.id.in_(list(ids))))).all()
            }
        return [_schedule_from_row(r, accounts) for r in rows]

    async def get(self, schedule_id: UUID) -> RefillSchedule | None:
        found = await self._select(R.c.id == schedule_id)
        return found[0] if found else None

    async def all(self, source: AccountRef | None = None) -> Sequence[RefillSchedule]:
        return await self._select(*([R.c.source_account_id == source.id] if source else []))

    async def set_active(self, schedule_id: UUID, active: bool) -> bool:
        async def go(conn: AsyncConnection) -> bool:
            result = await conn.execute(update(R).where(R.c.id == schedule_id).values(active=active))
            return bool(result.rowcount)

        return await self.tx.run(go)

    async def apply_period(
        self, schedule_id: UUID, period_start: datetime, requests: Sequence[TransferRequest]
    ) -> list[TransferResult] | None:
        async def go(conn: AsyncConnection) -> list[TransferResult] | None:
            claimed = (
                await conn.execute(
                    update(R)
                    .where(R.c.id == schedule_id, R.c.last_period_start < period_start)
                    .values(last_period_start=period_start)
                    .returning(R.c.id)
                )
            ).first()
            if claimed is None:
                exists = (await conn.execute(select(R.c.id).where(R.c.id == schedule_id))).first()
                if exists is None:
                    raise NotFoundError("refill schedule")
                return None
            if not requests:
                return []
            refs = {a for r in requests for a in (r.source, r.destination)}
            balances = await lock_accounts(conn, list(refs))
            return [await post_locked(conn, r, balances) for r in requests]

        return await self.tx.run(go)


# -------------------------------------------------------------------------------- budgets


def _budget_from_row(row: Row[Any]) -> Budget:
    return Budget(
        row.id,
        BudgetScope(BudgetScopeKind(row.scope_kind), row.scope_id),
        row.limit_micro,
        BudgetAction(row.action),
        row.created_at,
        row.updated_at,
        Period(row.period),
        tuple(row.alert_thresholds),
        row.updated_by,
    )


class SqlBudgets:
    def __init__(self, engine: AsyncEngine) -> None:
        self.tx = Transactor(engine)

    async def put(self, budget: Budget) -> Budget:
        s = budget.scope
        values = {
            "id": budget.id,
            "scope_kind": s.kind.value,
            "scope_id": s.id,
            "organization_id": s.id if s.kind is BudgetScopeKind.ORGANIZATION else None,
            "group_id": s.id if s.kind is BudgetScopeKind.GROUP else None,
            "user_id": s.id if s.kind is BudgetScopeKind.USER else None,
            "period": budget.period.value,
            "limit_micro": budget.limit_micro,
            "action": budget.action.value,
            "alert_thresholds": list(budget.alert_thresholds),
            "created_at": budget.created_at,
            "updated_at": budget.updated_at,
            "updated_by": budget.updated_by,
        }
        insert = pg_insert(B).values(values)
        stmt = insert.on_conflict_do_update(
            index_elements=[B.c.scope_kind, B.c.scope_id, B.c.period],
            set_={
                c: insert.excluded[c] for c in ("limit_micro", "action", "alert_thresholds", "updated_at", "updated_by")
            },
        ).returning(B)

        async def go(conn: AsyncConnection) -> Budget:
            try:
                return _budget_from_row((await conn.execute(stmt)).one())
            except IntegrityError as exc:
                if sqlstate(exc) == "23503":
                    raise NotFoundError(s.kind.value, "scope") from exc
                raise

        return await self.tx.run(go)

    async def get(self, budget_id: UUID) -> Budget | None:
        async with self.tx.read() as conn:
            row = (await conn.execute(select(B).where(B.c.id == budget_id))).first()
        return None if row is None else _budget_from_row(row)

    async def for_scopes(self, scopes: Sequence[BudgetScope]) -> Sequence[Budget]:
        if not scopes:
            return []
        cond = or_(*(and_(B.c.scope_kind == s.kind.value, B.c.scope_id == s.id) for s in scopes))
        async with self.tx.read() as conn:
            rows = (await conn.execute(select(B).where(cond))).all()
        return [_budget_from_row(r) for r in rows]

    async def delete(self, budget_id: UUID) -> bool:
        async def go(conn: AsyncConnection) -> bool:
            return bool((await conn.execute(delete(B).where(B.c.id == budget_id))).rowcount)

        return await self.tx.run(go)

    async def all(self) -> Sequence[Budget]:
        async with self.tx.read() as conn:
            rows = (await conn.execute(select(B).order_by(B.c.created_at))).all()
        return [_budget_from_row(r) for r in rows]


# ------------------------------------------------------------------------------- policies


def _scope_key(scope: PolicyScope) -> str:
    return f"{scope.kind.value}:{scope.id or ''}"


def _frac_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _policy_from_row(row: Row[Any]) -> ResourcePolicy:
    kind = PolicyScopeKind(row.scope_kind)
    scope_id = {
        PolicyScopeKind.GLOBAL: None,
        PolicyScopeKind.ORGANIZATION: row.organization_id,
        PolicyScopeKind.GROUP: row.group_id,
        PolicyScopeKind.USER: row.user_id,
    }[kind]
    return ResourcePolicy(
        scope=PolicyScope(kind, scope_id),
        max_concurrent_sessions=row.max_concurrent_sessions,
        max_gpus=Fraction(row.max_gpus) if row.max_gpus is not None else None,
        model_caps={m: Fraction(v) for m, v in (row.model_caps or {}).items()},
        max_vram_mib=row.max_vram_mib,
        max_cpu_millicores=row.max_cpu_millicores,
        max_memory_mib=row.max_memory_mib,
        storage_quota_mib=row.storage_quota_mib,
        idle_timeout_seconds=row.idle_timeout_seconds,
        max_session_seconds=row.max_session_seconds,
        approval_required=row.approval_required,
        default_priority=row.default_priority,
        preemptible=row.preemptible,
        allowed_clusters=frozenset(row.allowed_clusters) if row.allowed_clusters is not None else None,
        updated_at=row.updated_at,
        updated_by=row.updated_by,
    )


class SqlPolicies:
    def __init__(self, engine: AsyncEngine) -> None:
        self.tx = Transactor(engine)

    async def get(self, scope: PolicyScope) -> ResourcePolicy | None:
        return (await self.for_scopes([scope])).get(scope)

    async def for_scopes(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, ResourcePolicy]:
        keys = [_scope_key(s) for s in scopes]
        async with self.tx.read() as conn:
            rows = (await conn.execute(select(P).where(P.c.scope_key.in_(keys)))).all()
        policies = [_policy_from_row(r) for r in rows]
        return {p.scope: p for p in policies}

    async def put(self, policy: ResourcePolicy) -> None:
        s = policy.scope
        values: dict[str, Any] = {
            "scope_key": _scope_key(s),
            "scope_kind": s.kind.value,
            "organization_id": s.id if s.kind is PolicyScopeKind.ORGANIZATION else None,
            "group_id": s.id if s.kind is PolicyScopeKind.GROUP else None,
            "user_id": s.id if s.kind is PolicyScopeKind.USER else None,
            "max_concurrent_sessions": policy.max_concurrent_sessions,
            "max_gpus": _frac_text(policy.max_gpus) if policy.max_gpus is not None else None,
            "model_caps": {m: _frac_text(v) for m, v in policy.model_caps.items()},
            "max_vram_mib": policy.max_vram_mib,
            "max_cpu_millicores": policy.max_cpu_millicores,
            "max_memory_mib": policy.max_memory_mib,
            "storage_quota_mib": policy.storage_quota_mib,
            "idle_timeout_seconds": policy.idle_timeout_seconds,
            "max_session_seconds": policy.max_session_seconds,
            "approval_required": policy.approval_required,
            "default_priority": policy.default_priority,
            "preemptible": policy.preemptible,
            "allowed_clusters": sorted(policy.allowed_clusters) if policy.allowed_clusters is not None else None,
            "updated_at": policy.updated_at,
            "updated_by": policy.updated_by,
        }
        insert = pg_insert(P).values(values)
        stmt = insert.on_conflict_do_update(
            index_elements=[P.c.scope_key],
            set_={c: insert.excluded[c] for c in values if c != "scope_key"},
        )

        async def go(conn: AsyncConnection) -> None:
            try:
                await conn.execute(stmt)
            except IntegrityError as exc:
                if sqlstate(exc) == "23503":
                    raise NotFoundError(s.kind.value, "scope") from exc
                raise

        await self.tx.run(go)

    async def delete(self, scope: PolicyScope) -> bool:
        async def go(conn: AsyncConnection) -> bool:
            result = await conn.execute(delete(P).where(P.c.scope_key == _scope_key(scope)))
            return bool(result.rowcount)

        return await self.tx.run(go)

    async def all(self) -> Sequence[ResourcePolicy]:
        async with self.tx.read() as conn:
            rows = (await conn.execute(select(P).order_by(P.c.scope_key))).all()
        return [_policy_from_row(r) for r in rows]
