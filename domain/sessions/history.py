"""Usage history (issue 15): the live per-second samples rolled up per session and minute, kept
for the retention the admin sets, read back as allocation and utilisation over time per
cluster, node, organisation or group, and as the credits spent while GPUs sat idle.

The live path never writes here: a periodic job (`record_history`) reads the last minutes of
each RUNNING session from the `UsageStore` and writes one row per session and whole minute.
Rows are keyed by (session, minute) and recomputed from the same samples, so a run that is
repeated, or overlaps the previous one, writes the same rows again. A minute the session ran
without samples is still written, with `samples = 0`: its allocation counts, its use is
unknown ("no data"), never zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from fractions import Fraction
from typing import Protocol
from uuid import UUID

from domain.common.errors import InvalidValueError
from domain.inventory.ports import UsageSample
from domain.sessions.model import Session
from domain.tenancy.model import Actor, Role

MINUTE = timedelta(minutes=1)
# complete minutes each run rewrites: the UsageStore keeps 300 one-second samples, so the four
# whole minutes before the current one are always wholly in it
LOOKBACK_MINUTES = 4
# the most points one series may have
MAX_POINTS = 1500
# the steps a query picks from when it names none (the finest giving at most DEFAULT_POINTS)
STEPS_SECONDS = (60, 300, 900, 3600, 6 * 3600, 86400)
DEFAULT_POINTS = 500
IDLE_GPU_UTIL_PERCENT = 5.0


def minute_of(at: datetime) -> datetime:
    t = at.astimezone(UTC)
    return t.replace(second=0, microsecond=0)


@dataclass(frozen=True, slots=True)
class UsageMinute:
    """One session's minute: what it held (allocation) and what it used (mean and max of its
    samples; None without samples)."""

    session_id: UUID
    minute: datetime  # the minute's start, UTC
    cluster_id: str
    node_id: str
    organization_id: UUID
    group_id: UUID
    owner_id: UUID
    card_equivalents: float  # the placement's billed ratio (0 for a CPU-only session)
    cpu_millicores_allocated: int
    memory_mib_allocated: int
    samples: int
    gpu_util_mean: float | None = None
    gpu_util_max: float | None = None
    gpu_memory_mib_mean: float | None = None
    gpu_memory_mib_max: int | None = None
    cpu_millicores_mean: float | None = None
    cpu_millicores_max: int | None = None
    memory_mib_mean: float | None = None
    memory_mib_max: int | None = None


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 3)


def roll_up(session: Session, samples: Sequence[UsageSample], now: datetime) -> list[UsageMinute]:
    """The whole minutes of the last `LOOKBACK_MINUTES` that `session` ran in (from the minute
    holding its `running_since`), each with the samples that fall in it. A session without a
    placement (not running anywhere) has no minutes."""
    if session.placement is None or session.running_since is None:
        return []
    current = minute_of(now)
    first = max(current - LOOKBACK_MINUTES * MINUTE, minute_of(session.running_since))
    by_minute: dict[datetime, list[UsageSample]] = {}
    for s in samples:
        by_minute.setdefault(minute_of(s.at), []).append(s)
    p = session.placement
    ratio = float(Fraction(str(p.get("ratio", "0"))))
    out: list[UsageMinute] = []
    m = first
    while m < current:
        got = by_minute.get(m, [])
        base = UsageMinute(
            session_id=session.id,
            minute=m,
            cluster_id=str(p.get("cluster_id") or session.cluster_id or ""),
            node_id=str(p.get("node_id") or ""),
            organization_id=session.organization_id,
            group_id=session.group_id,
            owner_id=session.owner_id,
            card_equivalents=ratio,
            cpu_millicores_allocated=session.cpu_millicores,
            memory_mib_allocated=session.memory_mib,
            samples=len(got),
        )
        if got:
            base = replace(
                base,
                gpu_util_mean=_mean([s.gpu_util_percent for s in got]),
                gpu_util_max=max(s.gpu_util_percent for s in got),
                gpu_memory_mib_mean=_mean([s.gpu_memory_mib for s in got]),
                gpu_memory_mib_max=max(s.gpu_memory_mib for s in got),
                cpu_millicores_mean=_mean([s.cpu_millicores for s in got]),
                cpu_millicores_max=max(s.cpu_millicores for s in got),
                memory_mib_mean=_mean([s.memory_mib for s in got]),
                memory_mib_max=max(s.memory_mib for s in got),
            )
        out.append(base)
        m += MINUTE
    return out


# ---------------------------------------------------------------------- who sees what


@dataclass(frozen=True, slots=True)
class HistoryReach:
    """The history rows a viewer may read: everything (a platform admin), else the rows of
    the organisations and groups they administer; a plain member reads none."""

    everything: bool = False
    organization_ids: frozenset[UUID] = frozenset()
    group_ids: frozenset[UUID] = frozenset()

    @property
    def nothing(self) -> bool:
        return not self.everything and not self.organization_ids and not self.group_ids

    def covers(self, organization_id: UUID, group_id: UUID) -> bool:
        return self.everything or organization_id in self.organization_ids or group_id in self.group_ids


def reach_of(actor: Actor) -> HistoryReach:
    if actor.is_super_admin:
        return HistoryReach(everything=True)
    groups = frozenset(g for g, role in actor.group_roles.items() if role == Role.GROUP_ADMIN)
    return HistoryReach(organization_ids=actor.org_admin_of, group_ids=groups)


# ---------------------------------------------------------------------- allocation and utilisation


class HistoryDimension(StrEnum):
    CLUSTER = "cluster"
    NODE = "node"  # keyed "<cluster>/<node>"
    ORGANIZATION = "organization"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class HistoryQuery:
    since: datetime  # inclusive
    until: datetime  # exclusive
    by: HistoryDimension
    step_seconds: int

    def __post_init__(self) -> None:
        if self.since >= self.until:
            raise InvalidValueError("until", "until must be after since")
        if self.step_seconds < 60 or self.step_seconds % 60:
            raise InvalidValueError("stepSeconds", "the step must be a whole number of minutes, at least 60")
        if self.points > MAX_POINTS:
            raise InvalidValueError(
                "stepSeconds", f"at most {MAX_POINTS} points per series: choose a longer step or a shorter period"
            )

    @property
    def points(self) -> int:
        span = (self.until - self.since).total_seconds()
        return int(-(-span // self.step_seconds))

    @property
    def step_minutes(self) -> int:
        return self.step_seconds // 60

    def bucket_of(self, minute: datetime) -> datetime:
        """The start of the step holding `minute` (steps count from `since`)."""
        offset = int((minute - self.since).total_seconds()) // self.step_seconds
        return self.since + timedelta(seconds=offset * self.step_seconds)


def history_query(since: datetime, until: datetime, by: HistoryDimension, step_seconds: int | None) -> HistoryQuery:
    """A query whose period is aligned to whole minutes; without a step, the finest of
    `STEPS_SECONDS` giving at most `DEFAULT_POINTS` points."""
    start, end = minute_of(since), minute_of(until + MINUTE - timedelta(microseconds=1))
    if step_seconds is None:
        span = max(60.0, (end - start).total_seconds())
        step_seconds = next((s for s in STEPS_SECONDS if span / s <= DEFAULT_POINTS), STEPS_SECONDS[-1])
    return HistoryQuery(start, end, by, step_seconds)


@dataclass(frozen=True, slots=True)
class HistoryCell:
    """The sums of one key's rows in one step (what the adapter adds up)."""

    key: str
    bucket: datetime
    rows: int  # session-minutes
    sessions: int
    card_minutes: float  # Σ card equivalents
    sampled_card_minutes: float  # Σ card equivalents over rows with samples
    gpu_util_card_minutes: float  # Σ mean GPU util × card equivalents over rows with samples
    gpu_memory_mib_minutes: float
    cpu_millicores_minutes: float
    memory_mib_minutes: float
    cpu_allocated_minutes: float
    memory_allocated_minutes: float
    no_data_minutes: int


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    at: datetime
    sessions: int
    card_equivalents: float  # mean allocated over the step
    gpu_util_percent: float | None  # mean util of the allocated cards (weighted by card equivalents)
    gpu_memory_mib: float  # mean in use over the step (minutes without data count as none)
    cpu_millicores: float
    memory_mib: float
    cpu_millicores_allocated: float
    memory_mib_allocated: float
    no_data_minutes: int


@dataclass(frozen=True, slots=True)
class HistorySeries:
    key: str
    points: tuple[HistoryPoint, ...]


@dataclass(frozen=True, slots=True)
class UsageHistoryResult:
    query: HistoryQuery
    series: tuple[HistorySeries, ...]


def build_history(query: HistoryQuery, cells: Iterable[HistoryCell]) -> UsageHistoryResult:
    """One series per key (by key), each point a step; steps without rows are left out."""
    per_key: dict[str, list[HistoryPoint]] = {}
    n = query.step_minutes
    for c in sorted(cells, key=lambda c: (c.key, c.bucket)):
        per_key.setdefault(c.key, []).append(
            HistoryPoint(
                at=c.bucket,
                sessions=c.sessions,
                card_equivalents=round(c.card_minutes / n, 4),
                gpu_util_percent=(
                    round(c.gpu_util_card_minutes / c.sampled_card_minutes, 2) if c.sampled_card_minutes > 0 else None
                ),
                gpu_memory_mib=round(c.gpu_memory_mib_minutes / n, 1),
                cpu_millicores=round(c.cpu_millicores_minutes / n, 1),
                memory_mib=round(c.memory_mib_minutes / n, 1),
                cpu_millicores_allocated=round(c.cpu_allocated_minutes / n, 1),
                memory_mib_allocated=round(c.memory_allocated_minutes / n, 1),
                no_data_minutes=c.no_data_minutes,
            )
        )
    return UsageHistoryResult(query, tuple(HistorySeries(k, tuple(v)) for k, v in sorted(per_key.items())))


# ---------------------------------------------------------------------- idle credits


class IdleCreditsDimension(StrEnum):
    ORGANIZATION = "organization"
    GROUP = "group"
    USER = "user"


@dataclass(frozen=True, slots=True)
class SessionIdleShare:
    """One GPU session's minutes in a period (from the history) and what the ledger charged it
    in that period."""

    session_id: UUID
    organization_id: UUID
    group_id: UUID
    owner_id: UUID
    minutes: int  # minutes it ran (rows), with or without samples
    idle_minutes: int  # minutes with samples whose mean GPU util was below the threshold
    no_data_minutes: int
    charged_micro: int


@dataclass(frozen=True, slots=True)
class IdleCreditsRow:
    key: UUID
    sessions: int
    minutes: int
    idle_minutes: int
    no_data_minutes: int
    charged_micro: int
    idle_charged_micro: int


@dataclass(frozen=True, slots=True)
class IdleCreditsReport:
    since: datetime
    until: datetime
    below_percent: float
    by: IdleCreditsDimension
    charged_micro: int
    idle_charged_micro: int
    rows: tuple[IdleCreditsRow, ...]  # most idle credits first


def idle_charged(share: SessionIdleShare) -> int:
    """The credits a session paid while idle: its charges in the period times the share of its
    recorded minutes that were idle (floored: never more than was paid)."""
    if share.minutes <= 0 or share.idle_minutes <= 0:
        return 0
    return share.charged_micro * min(share.idle_minutes, share.minutes) // share.minutes


def build_idle_credits(
    since: datetime,
    until: datetime,
    below_percent: float,
    by: IdleCreditsDimension,
    shares: Iterable[SessionIdleShare],
    reach: HistoryReach,
) -> IdleCreditsReport:
    def key_of(s: SessionIdleShare) -> UUID:
        if by is IdleCreditsDimension.ORGANIZATION:
            return s.organization_id
        return s.group_id if by is IdleCreditsDimension.GROUP else s.owner_id

    sums: dict[UUID, list[int]] = {}
    for s in shares:
        if not reach.covers(s.organization_id, s.group_id):
            continue  # the adapter filters too: a second check costs nothing
        row = sums.setdefault(key_of(s), [0, 0, 0, 0, 0, 0])
        for i, v in enumerate((1, s.minutes, s.idle_minutes, s.no_data_minutes, s.charged_micro, idle_charged(s))):
            row[i] += v
    rows = tuple(
        sorted(
            (IdleCreditsRow(k, *v) for k, v in sums.items()),
            key=lambda r: (-r.idle_charged_micro, -r.charged_micro, str(r.key)),
        )
    )
    return IdleCreditsReport(
        since,
        until,
        below_percent,
        by,
        sum(r.charged_micro for r in rows),
        sum(r.idle_charged_micro for r in rows),
        rows,
    )


# ---------------------------------------------------------------------- port and use cases


class UsageHistory(Protocol):
    async def record(self, minutes: Sequence[UsageMinute]) -> int:
        """Insert or replace each (session, minute) row; how many were written."""
        ...

    async def forget_before(self, before: datetime) -> int:
        """Delete the rows of minutes before `before`; how many went."""
        ...

    async def cells(self, query: HistoryQuery, reach: HistoryReach) -> Sequence[HistoryCell]: ...

    async def idle_shares(
        self, since: datetime, until: datetime, below_percent: float, reach: HistoryReach
    ) -> Sequence[SessionIdleShare]: ...


@dataclass(frozen=True, slots=True)
class HistoryOutcome:
    sessions: int
    minutes: int
    forgotten: int

    def summary(self) -> str:
        return (
            f"{self.minutes} session-minute(s) of {self.sessions} running session(s) recorded, "
            f"{self.forgotten} past the retention deleted"
        )

    def counts(self) -> dict[str, str]:
        """The summary's numbers by name (the periodic run keeps them beside the text)."""
        return {"sessions": str(self.sessions), "minutes": str(self.minutes), "forgotten": str(self.forgotten)}


class _RecentUsage(Protocol):
    async def recent(self, session_id: UUID, seconds: int = 300) -> list[UsageSample]: ...


async def record_history(
    running: Sequence[Session],
    usage: _RecentUsage,
    history: UsageHistory,
    now: datetime,
    retention: timedelta,
) -> HistoryOutcome:
    """Roll the running sessions' last whole minutes into the history and delete what is older
    than the retention."""
    rows: list[UsageMinute] = []
    for s in running:
        samples = await usage.recent(s.id, (LOOKBACK_MINUTES + 1) * 60)
        rows.extend(roll_up(s, samples, now))
    written = await history.record(rows) if rows else 0
    forgotten = await history.forget_before(minute_of(now - retention))
    return HistoryOutcome(len(running), written, forgotten)


async def usage_history(history: UsageHistory, actor: Actor, query: HistoryQuery) -> UsageHistoryResult:
    reach = reach_of(actor)
    if reach.nothing:
        return UsageHistoryResult(query, ())
    return build_history(query, await history.cells(query, reach))


async def idle_credits_report(
    history: UsageHistory,
    actor: Actor,
    since: datetime,
    until: datetime,
    by: IdleCreditsDimension,
    below_percent: float = IDLE_GPU_UTIL_PERCENT,
) -> IdleCreditsReport:
    """What GPU sessions of the viewer's scopes were charged in [since, until) while their GPU
    util stayed below `below_percent` (per minute, from the history), per organisation, group
    or user."""
    if since >= until:
        raise InvalidValueError("until", "until must be after since")
    if not 0 < below_percent <= 100:
        raise InvalidValueError("belowPercent", "a percentage above 0 and at most 100")
    reach = reach_of(actor)
    shares: Sequence[SessionIdleShare] = ()
    if not reach.nothing:
        shares = await history.idle_shares(since, until, below_percent, reach)
    return build_idle_credits(since, until, below_percent, by, shares, reach)
