"""The `Billing` port over PostgreSQL: set-based, one transaction over sessions and ledger.

Sessions and the credits ledger share the database, so metering ticks and settlements are
one statement (plus opening missing consumption accounts) instead of a ledger call and a
session update in separate transactions, which a crash between them could turn into a double
charge. The statement, in order:

1. locks the selected sessions with their meters (ascending id; ticks `SKIP LOCKED` a session
   a use case is changing right now: it is billed on the next tick, exactly, because what is
   due is always recomputed from its seconds), then the wallets and consumption accounts it
   touches (ascending id, as `infra.credits.sql.lock_accounts` does), then their holds (the
   ledger's own order: accounts before holds). Rows read through these locks are the latest
   versions (the meter is locked too, not only read: an amount a settlement posted after
   this statement began must be seen, or it would be charged again);
2. computes due = floor(rate_micro × ratio_num × seconds / (ratio_den × 3600)) in exact
   numeric arithmetic, once per session in the locking CTE (the later CTEs are inlined by
   the planner and would recompute it), delta = due − charged_micro, the part the hold covers
   and the excess paid from the available balance, capped per wallet with running sums (one
   sort, one pass) so that balance − held never goes below zero (the CHECK the ledger relies
   on); what cannot be paid stays unpaid and is billed later (the tick pauses the session
   first);
3. inserts one charge transfer per session with a deterministic key (and an id derived from
   it, md5 as a uuid), `session:<id>:meter:<now>` for a tick,
   `session:<id>:settle:<hold seq>:<seconds>` for a settlement. The unique key is what
   guarantees that no key is ever charged twice. A tick does not look its keys up: replayed
   (a redelivered tick has the same `now`), it finds nothing due, as `charged_micro` already
   counts what the first run posted, and inserts nothing. Should a key be in the ledger all
   the same (a concurrent tick committed it after this statement began, or a session is due
   more at an instant already billed, e.g. its rate changed), the INSERT fails on the unique
   key, the whole transaction is rolled back and run again with one index probe per key
   (`_PROBED`): those keys post and move nothing. Settlements and the sweep, small, always
   probe. (A plain INSERT rather than ON CONFLICT DO NOTHING: no speculative insertion, and
   no join of the inserted rows back to their sessions);
4. updates the holds (covered part out; renewal to one window ahead, or closing with the
   rest released), the cached balances of wallets and consumption accounts (one aggregated
   row update each, held = sum of open holds kept), and the sessions' meters
   (`session_meters.charged_micro`; the sessions rows themselves are not written, see
   `SessionMeterRow` in infra/db/models/sessions.py).

Where a 100 000-session tick spends its ≈ 3.8 s of server time (`python -m
tests.bench.metering`; about 2.3 × the bare UPDATE of the sessions it is compared with, from
auto_explain): inserting the transfers (heap and nine indexes, ≈ 1.45 s), locking sessions
with their meters (≈ 0.45 s), wallets (≈ 0.1 s) and holds (≈ 0.2 s), the joins and windows
(≈ 0.5 s), the hold, wallet and meter updates (≈ 0.3, 0.25 and 0.2 s: HOT, those tables keep
half of each page free) and the reference check on the inserted transfers (a statement
trigger, see infra/db/models/credits.py; ≈ 0.3 s). Writing `charged_micro` on the sessions
rows instead of a meter of their own cost ≈ 1.8 s, a new version of each wide row and an
entry in each of its seven indexes. Per-key probes (≈ 0.25 s) are made only on a retry.
Tried without a gain: updating sessions and holds by the ctid they were locked at,
inserting in key order, time-ordered transfer ids, the updates in another order, holds
locked unsorted, a merge join in the reference check.

Written as SQL text rather than SQLAlchemy Core: a dozen data-modifying and window CTEs read
(and review) better as the SQL they are; every value is a bound parameter, and the three
selections are fixed strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from domain.credits.model import AccountKind, AccountRef
from domain.sessions.ports import BillingLine, BillingResult
from infra.credits.sql import A, Transactor, sqlstate

# a hold is closed only for sessions that no longer run. Not QUEUED: a queued request holds
# nothing (its hold is dropped when it queues, a preempted one's is settled), except a session
# re-queued after its node was lost, which keeps its hold for the next run (DESIGN)
CLOSING_STATES = (
    "PAUSING", "PAUSED", "STOPPING", "STOPPED", "FAILED", "EXPIRED", "PREEMPTED", "REJECTED", "SUCCEEDED",
)  # fmt: skip
_CLOSING_SQL = "(" + ",".join(f"'{state}'" for state in CLOSING_STATES) + ")"

_SELECT_TICK = "s.state = 'RUNNING' AND s.gpu IS NOT NULL"
_SELECT_SWEEP = (
    "s.state IN ('PAUSING','PAUSED','STOPPING','STOPPED','FAILED','EXPIRED','PREEMPTED','QUEUED','REJECTED',"
    "'SUCCEEDED') AND s.gpu IS NOT NULL AND s.hold_id IS NOT NULL "
    "AND EXISTS (SELECT 1 FROM credit_holds oh WHERE oh.id = s.hold_id AND oh.status = 'open')"
)
_SELECT_IDS = "s.id = ANY(CAST(:ids AS uuid[])) AND s.gpu IS NOT NULL"

_SETTINGS = text("SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)")
_ORGS = "SELECT DISTINCT s.organization_id FROM sessions s WHERE {where}"

_BILL = """
WITH ls AS (
    -- what is due and the renewal target are computed here, once per session (this CTE is
    -- materialized: later CTEs are inlined and would recompute the numeric arithmetic)
    SELECT s.id, s.owner_id, s.organization_id, s.group_id, s.name, s.state, s.hold_id, x.closing,
           greatest(0, div(x.rate * x.rn * x.secs, x.rd * 3600)::bigint - m.charged_micro) AS delta,
           div(x.rate * x.rn * least(CAST(:window AS bigint), CASE WHEN s.expires_at IS NULL
               THEN CAST(:window AS bigint)
               ELSE greatest(60, floor(extract(epoch FROM (s.expires_at - CAST(:now AS timestamptz)))))::bigint
               END), x.rd * 3600)::bigint AS window_cost,
           CASE WHEN x.closing
               THEN 'session:' || s.id || ':settle:' || s.hold_seq || ':' || x.secs
               ELSE 'session:' || s.id || ':meter:' || CAST(:period AS text)
           END AS key
    FROM sessions s
    JOIN session_meters m ON m.session_id = s.id
    CROSS JOIN LATERAL (
        SELECT (s.gpu->>'hourly_rate_micro')::numeric AS rate,
               split_part(s.gpu->>'ratio', '/', 1)::numeric AS rn,
               split_part(s.gpu->>'ratio', '/', 2)::numeric AS rd,
               s.billed_seconds + CASE WHEN s.running_since IS NULL THEN 0
                   ELSE greatest(0, floor(extract(epoch FROM (CAST(:now AS timestamptz) - s.running_since))))::bigint
               END AS secs,
               CAST(:close AS boolean) AND s.state IN {closing} AS closing
    ) x
    WHERE {where}
    ORDER BY s.id
    FOR UPDATE OF s, m {skip}
),
la AS (
    SELECT a.id, a.kind, a.user_id, a.organization_id, a.balance_micro, a.held_micro
    FROM credit_accounts a
    WHERE (a.kind = 'user' AND a.organization_id IS NULL AND a.group_id IS NULL
           AND a.user_id IN (SELECT owner_id FROM ls))
       OR (a.kind = 'consumption' AND a.group_id IS NULL AND a.user_id IS NULL
           AND a.organization_id IN (SELECT organization_id FROM ls))
    ORDER BY a.id
    FOR UPDATE
),
lh AS (
    SELECT ls.id AS session_id, h.amount_micro, h.status
    FROM ls JOIN credit_holds h ON h.id = ls.hold_id
    ORDER BY h.id
    FOR UPDATE OF h
),
b AS (
    SELECT ls.id, ls.owner_id, ls.organization_id, ls.group_id, ls.name, ls.state, ls.hold_id, ls.closing,
           ls.delta, ls.key,
           w.id AS wallet_id, w.balance_micro - w.held_micro AS avail, c.id AS sink_id,
           coalesce(lh.status = 'open', false) AS hold_open,
           CASE WHEN lh.status = 'open' THEN lh.amount_micro ELSE 0 END AS hold_amt,
           -- a running session's hold is renewed to one window ahead (or to its expiry)
           CASE WHEN NOT ls.closing AND lh.status = 'open' AND ls.state = 'RUNNING' THEN ls.window_cost
               ELSE 0 END AS target
    FROM ls
    JOIN la w ON w.kind = 'user' AND w.user_id = ls.owner_id
    JOIN la c ON c.kind = 'consumption' AND c.organization_id = ls.organization_id
    LEFT JOIN lh ON lh.session_id = ls.id
),
k AS (
    -- the hold covers what is due first; the excess is paid from the available balance
    SELECT b.*, least(delta, hold_amt) AS covered, delta - least(delta, hold_amt) AS excess,
           greatest(0, target - (hold_amt - least(delta, hold_amt))) AS need
    FROM b
),
sums AS (
    -- per wallet, in session order: the excess and the hold growth asked before each session
    SELECT k.*,
           sum(excess) OVER upto AS cum_excess, sum(need) OVER upto AS cum_need,
           sum(excess) OVER (PARTITION BY wallet_id) AS wallet_excess
    FROM k
    WINDOW upto AS (PARTITION BY wallet_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
paid AS (
    SELECT sums.*,
           covered + greatest(0, least(excess, avail - (cum_excess - excess)))::bigint AS amount,
           -- what the excess charges leave: they are paid greedily, up to the available balance
           greatest(0, least(need, avail - least(greatest(avail, 0), wallet_excess) - (cum_need - need)))::bigint
               AS growth
    FROM sums
),
res AS (
{res}
),
ins AS (
    INSERT INTO credit_transfers (id, idempotency_key, kind, source_account_id, destination_account_id,
                                  amount_micro, created_at, actor_id, organization_id, group_id, user_id,
                                  hold_id, memo)
    SELECT CAST(md5(key) AS uuid), key, 'charge', wallet_id, sink_id, posted, CAST(:now AS timestamptz), NULL,
           organization_id, group_id, owner_id, CASE WHEN hold_open THEN hold_id END, 'session ' || name
    FROM res
    WHERE posted > 0
),
hold_upd AS (
    UPDATE credit_holds h
    SET amount_micro = CASE WHEN res.closing THEN 0 ELSE res.hold_amt - res.posted_covered + res.growth END,
        charged_micro = h.charged_micro + res.posted,
        status = CASE WHEN NOT res.closing THEN h.status
                      WHEN res.posted > 0 THEN 'settled' ELSE 'released' END,
        updated_at = CAST(:now AS timestamptz)
    FROM res
    WHERE h.id = res.hold_id AND res.hold_open AND (res.closing OR res.posted > 0 OR res.growth > 0)
),
moves AS (
    SELECT wallet_id AS aid, -posted AS dbal,
           CASE WHEN NOT hold_open THEN 0 WHEN closing THEN -hold_amt ELSE growth - posted_covered END AS dheld
    FROM res
    UNION ALL
    SELECT sink_id, posted, 0 FROM res
),
acct_upd AS (
    UPDATE credit_accounts a
    SET balance_micro = a.balance_micro + m.dbal, held_micro = a.held_micro + m.dheld
    FROM (SELECT aid, sum(dbal)::bigint AS dbal, sum(dheld)::bigint AS dheld FROM moves GROUP BY aid) m
    WHERE a.id = m.aid AND (m.dbal <> 0 OR m.dheld <> 0)
),
meter_upd AS (
    UPDATE session_meters m
    SET charged_micro = m.charged_micro + res.posted
    FROM res
    WHERE m.session_id = res.id AND res.posted > 0
),
summary AS (
    SELECT count(*) AS n_sessions, count(*) FILTER (WHERE posted > 0) AS n_transfers,
           coalesce(sum(posted), 0)::bigint AS n_charged
    FROM res
)
SELECT summary.*, l.*
FROM summary LEFT JOIN (
    SELECT id AS session_id, owner_id, posted AS charged, greatest(0, delta - amount) AS unpaid,
           CASE WHEN closing OR NOT hold_open THEN 0 ELSE hold_amt - posted_covered + growth END AS hold_after,
           need - growth AS short, (need > growth AND hold_amt >= target) AS first_short, closing AND hold_open AS closed
    FROM res
    WHERE {lines}
) l ON true
"""


# what is posted: everything paid (a tick's first attempt: a key already in the ledger fails
# the INSERT on the unique key, and the tick is run again with _PROBED) …
_UNPROBED = "    SELECT paid.*, amount AS posted, covered AS posted_covered FROM paid"
# … or all but what a key already in the ledger (a replayed tick or settlement) posted: one
# index probe per session (LATERAL … LIMIT 1 keeps the planner from hashing the whole ledger)
_PROBED = """    SELECT paid.*, CASE WHEN seen.one IS NULL THEN amount ELSE 0 END AS posted,
           CASE WHEN seen.one IS NULL THEN covered ELSE 0 END AS posted_covered
    FROM paid
    LEFT JOIN LATERAL (
        SELECT 1 AS one FROM credit_transfers t WHERE paid.amount > 0 AND t.idempotency_key = paid.key LIMIT 1
    ) seen ON true"""


def _period_key(now: datetime) -> str:
    return now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


class SqlBilling:
    """The `Billing` port. `hold_window_seconds` is how far ahead a running session's hold is
    kept reserved (DESIGN.md "Credits": one window, 1 hour by default)."""

    def __init__(self, engine: AsyncEngine, *, hold_window_seconds: int = 3600, max_attempts: int = 30) -> None:
        self.tx = Transactor(engine, max_attempts=max_attempts)
        self.hold_window_seconds = hold_window_seconds
        self._sinks: set[UUID] = set()  # organisations whose consumption account exists
        self._statements: dict[tuple[str, str, str, bool], Any] = {}

    def _statement(self, where: str, skip: str, lines: str, probe: bool) -> Any:
        key = (where, skip, lines, probe)
        stmt = self._statements.get(key)
        if stmt is None:
            res = _PROBED if probe else _UNPROBED
            sql = _BILL.format(where=where, skip=skip, lines=lines, closing=_CLOSING_SQL, res=res)
            stmt = self._statements[key] = text(sql)
        return stmt

    async def _open_sinks(self, conn: AsyncConnection, where: str, params: dict[str, Any]) -> set[UUID]:
        """Open the consumption accounts the selected sessions pay into (the organisations
        whose account this process has not seen yet); those opened, to remember after commit."""
        orgs = {row[0] for row in await conn.execute(text(_ORGS.format(where=where)), params)}
        missing = orgs - self._sinks
        if missing:
            refs = [AccountRef.consumption(o) for o in sorted(missing)]
            await conn.execute(
                pg_insert(A).on_conflict_do_nothing(index_elements=[A.c.id]),
                [{"id": r.id, "kind": AccountKind.CONSUMPTION.value, "organization_id": r.owner_id} for r in refs],
            )
        return missing

    async def bill(self, now: datetime, session_ids: Sequence[UUID] | None, *, close: bool) -> BillingResult:
        if session_ids is not None and not session_ids:
            return BillingResult(0, 0, 0)
        if session_ids is not None:
            where, skip, lines = _SELECT_IDS, "", "true"
        elif close:
            where, skip, lines = _SELECT_SWEEP, "SKIP LOCKED", "true"
        else:
            where, skip = _SELECT_TICK, "SKIP LOCKED"
            lines = "closing OR need > growth OR delta > amount OR (state = 'RUNNING' AND NOT hold_open)"
        params: dict[str, Any] = {
            "now": now,
            "close": close,
            "window": self.hold_window_seconds,
            "period": _period_key(now),
        }
        if session_ids is not None:
            params["ids"] = list(session_ids)
        # a tick (the big selection) first posts without looking its keys up: a replayed tick
        # finds nothing due (`charged_micro` already counts what it posted) and inserts
        # nothing. Should a key be in the ledger all the same, the INSERT fails on the unique
        # key, and the tick runs again with a probe per key (as settlements always do)
        probe = session_ids is not None or close
        only_ids = {"ids": params["ids"]} if "ids" in params else {}

        opened: set[UUID] = set()

        async def go(conn: AsyncConnection) -> BillingResult:
            # one big statement: JIT compilation costs more than it saves (~10 % of a tick),
            # and its sorts and hashes should stay in memory
            await conn.execute(_SETTINGS)
            opened.clear()
            opened.update(await self._open_sinks(conn, where, only_ids))
            rows = (await conn.execute(self._statement(where, skip, lines, probe), params)).all()
            first = rows[0]
            found = tuple(
                BillingLine(
                    r.session_id,
                    r.owner_id,
                    int(r.charged),
                    int(r.unpaid),
                    int(r.hold_after),
                    int(r.short),
                    bool(r.first_short),
                    bool(r.closed),
                )
                for r in rows
                if r.session_id is not None
            )
            return BillingResult(int(first.n_sessions), int(first.n_transfers), int(first.n_charged), found)

        for attempt in range(1, self.tx.max_attempts + 1):
            try:
                result = await self.tx.run(go)
                break
            except IntegrityError as exc:
                # one of our keys is in the ledger (an unprobed tick's, or one a concurrent
                # tick or settlement committed after this statement began): rolled back
                # whole; the retry probes every key and skips those found
                if sqlstate(exc) != "23505" or attempt == self.tx.max_attempts:
                    raise
                self.tx.retries += 1
                probe = True
        self._sinks |= opened  # only once committed: a rolled-back insert opened nothing
        return result
