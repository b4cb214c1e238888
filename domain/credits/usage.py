"""Usage reports: a scope's charges over a period, split by group, user or offering, and
optionally per day, week or month (for charts and CSV).

A charge says whose spend it is (its attribution) but not what it paid for. Metering charges
name their session in their idempotency key (`session:<id>:meter:<period>`,
`session:<id>:settle:<hold>:<seconds>`), and a session names its offering, so reports by
offering join through that reference; no money is recorded twice. A charge without a session
reference (posted by hand) falls under no offering.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from uuid import UUID

from domain.common import spreadsheet
from domain.common.errors import InvalidValueError
from domain.common.money import MicroCredits, micro_to_credits_str
from domain.credits.budgets import BudgetScope, BudgetScopeKind

SESSION_KEY_PREFIX = "session:"
_UUID_LENGTH = 36
# the most points one report may have per key (a year of days)
MAX_PERIODS = 400


class UsageDimension(StrEnum):
    """What a report is split by."""

    GROUP = "group"
    USER = "user"
    OFFERING = "offering"


class UsageInterval(StrEnum):
    """The length of each point of a report's time series (UTC; weeks start on Monday)."""

    DAY = "day"
    WEEK = "week"
    MONTH = "month"


# which splits are finer than the scope itself
ALLOWED_SPLITS: dict[BudgetScopeKind, frozenset[UsageDimension]] = {
    BudgetScopeKind.ORGANIZATION: frozenset(UsageDimension),
    BudgetScopeKind.GROUP: frozenset({UsageDimension.USER, UsageDimension.OFFERING}),
    BudgetScopeKind.USER: frozenset({UsageDimension.OFFERING}),
}


@dataclass(frozen=True, slots=True)
class UsageQuery:
    scope: BudgetScope
    since: datetime  # inclusive
    until: datetime  # exclusive
    by: UsageDimension | None = None
    interval: UsageInterval | None = None

    def __post_init__(self) -> None:
        if self.since >= self.until:
            raise InvalidValueError("until", "until must be after since")
        if self.by is not None and self.by not in ALLOWED_SPLITS[self.scope.kind]:
            raise InvalidValueError("by", f"a {self.scope.kind} report cannot be split by {self.by}")
        if self.interval is not None and len(periods(self.since, self.until, self.interval)) > MAX_PERIODS:
            raise InvalidValueError("interval", f"at most {MAX_PERIODS} points per report: choose a longer interval")


@dataclass(frozen=True, slots=True)
class UsageCell:
    """What one key spent in one period. `key` is None without a split (or for charges the
    split does not apply to); `period_start` is None without an interval."""

    key: UUID | None
    period_start: datetime | None
    amount_micro: MicroCredits


@dataclass(frozen=True, slots=True)
class UsageTotal:
    key: UUID | None
    amount_micro: MicroCredits


@dataclass(frozen=True, slots=True)
class UsageReport:
    query: UsageQuery
    total_micro: MicroCredits
    totals: tuple[UsageTotal, ...]  # per key, highest spend first
    cells: tuple[UsageCell, ...]  # per key and period (empty without an interval), oldest first
    periods: tuple[datetime, ...]  # every period start of the window (empty without an interval)


def session_of_charge(idempotency_key: str) -> UUID | None:
    """The session a metering charge was posted for, from its idempotency key."""
    if not idempotency_key.startswith(SESSION_KEY_PREFIX):
        return None
    raw = idempotency_key[len(SESSION_KEY_PREFIX) : len(SESSION_KEY_PREFIX) + _UUID_LENGTH]
    rest = idempotency_key[len(SESSION_KEY_PREFIX) + _UUID_LENGTH :]
    if rest and not rest.startswith(":"):
        return None
    try:
        return UUID(raw) if len(raw) == _UUID_LENGTH else None
    except ValueError:
        return None


def period_start(at: datetime, interval: UsageInterval) -> datetime:
    """The start of the period holding `at`, in UTC."""
    t = at.astimezone(UTC)
    day = datetime(t.year, t.month, t.day, tzinfo=UTC)
    if interval is UsageInterval.DAY:
        return day
    if interval is UsageInterval.WEEK:
        return day - timedelta(days=day.weekday())
    return day.replace(day=1)


def _next(start: datetime, interval: UsageInterval) -> datetime:
    if interval is UsageInterval.DAY:
        return start + timedelta(days=1)
    if interval is UsageInterval.WEEK:
        return start + timedelta(days=7)
    return start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(month=start.month + 1)


def periods(since: datetime, until: datetime, interval: UsageInterval) -> list[datetime]:
    """Every period start whose period meets [since, until), oldest first."""
    out: list[datetime] = []
    p = period_start(since, interval)
    while p < until and len(out) <= MAX_PERIODS:
        out.append(p)
        p = _next(p, interval)
    return out


def build_report(query: UsageQuery, cells: Iterable[UsageCell]) -> UsageReport:
    """Totals per key and overall from the adapter's cells (merged if an adapter returned a
    key and period more than once), the series ordered oldest first, keys by spend."""
    merged: dict[tuple[UUID | None, datetime | None], int] = {}
    for c in cells:
        if c.amount_micro:
            at = c.period_start if query.interval is not None else None
            merged[(c.key, at)] = merged.get((c.key, at), 0) + c.amount_micro
    per_key: dict[UUID | None, int] = {}
    for (key, _), amount in merged.items():
        per_key[key] = per_key.get(key, 0) + amount
    totals = tuple(
        UsageTotal(k, v) for k, v in sorted(per_key.items(), key=lambda kv: (-kv[1], kv[0] is None, str(kv[0])))
    )
    series: tuple[UsageCell, ...] = ()
    window: tuple[datetime, ...] = ()
    if query.interval is not None:
        rank = {t.key: i for i, t in enumerate(totals)}
        series = tuple(
            UsageCell(k, p, v)
            for (k, p), v in sorted(merged.items(), key=lambda kv: (kv[0][1] or query.since, rank[kv[0][0]]))
        )
        window = tuple(periods(query.since, query.until, query.interval))
    return UsageReport(query, sum(per_key.values()), totals, series, window)


USAGE_CSV_HEADER = ("scope_kind", "scope_id", "by", "key_id", "key_name", "period_start", "spent_credits")


def usage_csv(report: UsageReport, names: Mapping[UUID | None, str]) -> str:
    """The report as CSV, one row per key (and per period with an interval, zeros included
    so every key has the same periods), keys by spend, periods oldest first."""
    q = report.query
    out = io.StringIO()
    w = spreadsheet.writer(out)
    w.writerow(USAGE_CSV_HEADER)
    amounts = {(c.key, c.period_start): c.amount_micro for c in report.cells}
    for t in report.totals:
        common = (
            q.scope.kind.value,
            str(q.scope.id),
            q.by.value if q.by else "",
            str(t.key or ""),
            spreadsheet.text_cell(names.get(t.key, "")),
        )
        if q.interval is None:
            w.writerow((*common, "", micro_to_credits_str(t.amount_micro)))
            continue
        for p in report.periods:
            w.writerow((*common, p.isoformat(), micro_to_credits_str(amounts.get((t.key, p), 0))))
    return out.getvalue()
