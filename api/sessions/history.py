"""Usage history over GraphQL (issue 15): allocation and utilisation over time per cluster, node,
organisation or group, and the credits spent while GPUs sat idle. Both read the per-minute
history (domain.sessions.history) as far as the viewer administers: a platform admin sees
everything, an organisation or group admin their scopes, a member nothing."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.ids import to_global
from api.common.money import Credits
from api.context import Info
from api.credits.queries import utc
from api.credits.types import _owner_name
from domain.policies.model import PolicyScopeKind
from domain.sessions import history
from domain.sessions.history import HistoryDimension as HistoryDimensionModel
from domain.sessions.history import IdleCreditsDimension as IdleCreditsDimensionModel

UsageHistoryDimension = strawberry.enum(
    HistoryDimensionModel,
    name="UsageHistoryDimension",
    description="What a usage history is split by (a node's key is `<cluster>/<node>`).",
)
IdleCreditsDimension = strawberry.enum(IdleCreditsDimensionModel, name="IdleCreditsDimension")

_KEY_TYPE = {
    HistoryDimensionModel.ORGANIZATION: ("Organization", PolicyScopeKind.ORGANIZATION),
    HistoryDimensionModel.GROUP: ("Group", PolicyScopeKind.GROUP),
}
_IDLE_KEY_TYPE = {
    IdleCreditsDimensionModel.ORGANIZATION: ("Organization", PolicyScopeKind.ORGANIZATION),
    IdleCreditsDimensionModel.GROUP: ("Group", PolicyScopeKind.GROUP),
    IdleCreditsDimensionModel.USER: ("User", PolicyScopeKind.USER),
}


@strawberry.type(description="One step of a usage history series.")
class UsageHistoryPoint:
    at: datetime = strawberry.field(description="The step's start.")
    sessions: int = strawberry.field(description="Sessions that ran in the step.")
    card_equivalents: float = strawberry.field(
        description="GPUs allocated (card equivalents: the billed ratio), on average over the step."
    )
    gpu_util_percent: float | None = strawberry.field(
        description="Mean GPU utilisation of the allocated cards (weighted by card equivalents) over the minutes "
        "with samples; null when no GPU minute of the step has any."
    )
    gpu_memory_mib: float = strawberry.field(description="GPU memory in use, on average over the step.")
    cpu_millicores: float = strawberry.field(description="CPU in use, on average over the step.")
    memory_mib: float = strawberry.field(description="Memory in use, on average over the step.")
    cpu_millicores_allocated: float = strawberry.field(description="CPU allocated, on average over the step.")
    memory_mib_allocated: float = strawberry.field(description="Memory allocated, on average over the step.")
    no_data_minutes: int = strawberry.field(
        description="Session-minutes of the step without any usage sample (their use counts as unknown, not 0)."
    )


@strawberry.type(description="One key's series: a cluster, node, organisation or group.")
class UsageHistorySeries:
    key: str = strawberry.field(description="Cluster id, `<cluster>/<node>`, or the organisation's or group's UUID.")
    points: list[UsageHistoryPoint] = strawberry.field(description="Oldest first; steps without sessions left out.")
    dimension: strawberry.Private[HistoryDimensionModel]

    @strawberry.field(description="Global ID of the Organization or Group; null for clusters and nodes.")
    def id(self) -> relay.GlobalID | None:
        found = _KEY_TYPE.get(self.dimension)
        return to_global(found[0], UUID(self.key)) if found else None

    @strawberry.field(description="The organisation's or group's name; the key itself for clusters and nodes.")
    async def name(self, info: Info) -> str:
        found = _KEY_TYPE.get(self.dimension)
        if found is None:
            return self.key
        return await _owner_name(info, found[1], UUID(self.key)) or self.key


@strawberry.type(
    description="Allocation and utilisation over time from the per-minute usage history, in the scopes you "
    "administer (nothing for a member)."
)
class UsageHistory:
    since: datetime
    until: datetime
    by: UsageHistoryDimension  # type: ignore[valid-type]
    step_seconds: int
    series: list[UsageHistorySeries]


@strawberry.type(description="One organisation, group or user of an idle-credits report.")
class IdleCreditsRow:
    sessions: int = strawberry.field(description="GPU sessions with history in the period.")
    minutes: int = strawberry.field(description="Their recorded minutes.")
    idle_minutes: int = strawberry.field(description="Minutes whose mean GPU util was below the threshold.")
    no_data_minutes: int = strawberry.field(description="Minutes without samples (never counted idle).")
    charged: Credits = strawberry.field(description="What the ledger charged these sessions in the period.")
    idle_charged: Credits = strawberry.field(
        description="The part of it paid while idle: each session's charges × its idle minutes / its minutes."
    )
    key: strawberry.Private[UUID]
    dimension: strawberry.Private[IdleCreditsDimensionModel]

    @strawberry.field
    def id(self) -> relay.GlobalID:
        return to_global(_IDLE_KEY_TYPE[self.dimension][0], self.key)

    @strawberry.field(description="Organisation or group name, or user name.")
    async def name(self, info: Info) -> str | None:
        return await _owner_name(info, _IDLE_KEY_TYPE[self.dimension][1], self.key)


@strawberry.type(
    description="Credits spent on GPU sessions while their GPU util stayed below a threshold, in the scopes you "
    "administer (nothing for a member)."
)
class IdleCreditsReport:
    since: datetime
    until: datetime
    below_percent: float
    by: IdleCreditsDimension  # type: ignore[valid-type]
    charged: Credits
    idle_charged: Credits
    rows: list[IdleCreditsRow] = strawberry.field(description="Most idle credits first.")


@strawberry.type
class HistoryQuery:
    @strawberry.field(
        description="Allocation (card equivalents, CPU, memory) and utilisation (GPU util and memory, CPU, memory) "
        "over [since, until) (default: now) per cluster, node, organisation or group, from the per-minute usage "
        "history, in the scopes you administer. `stepSeconds` (whole minutes) defaults to the finest step giving "
        "at most 500 points; at most 1500 points."
    )
    async def usage_history(
        self,
        info: Info,
        since: datetime,
        by: UsageHistoryDimension,  # type: ignore[valid-type]
        until: datetime | None = None,
        step_seconds: int | None = None,
    ) -> UsageHistory:
        actor = info.context.require_actor()
        c = info.context.container
        start, end = utc(since), utc(until) or c.clock.now()
        assert start is not None and end is not None
        query = history.history_query(start, end, HistoryDimensionModel(by.value), step_seconds)
        found = await history.usage_history(c.history, actor, query)
        return UsageHistory(
            since=query.since,
            until=query.until,
            by=query.by,
            step_seconds=query.step_seconds,
            series=[
                UsageHistorySeries(
                    key=s.key,
                    dimension=query.by,
                    points=[
                        UsageHistoryPoint(
                            at=p.at,
                            sessions=p.sessions,
                            card_equivalents=p.card_equivalents,
                            gpu_util_percent=p.gpu_util_percent,
                            gpu_memory_mib=p.gpu_memory_mib,
                            cpu_millicores=p.cpu_millicores,
                            memory_mib=p.memory_mib,
                            cpu_millicores_allocated=p.cpu_millicores_allocated,
                            memory_mib_allocated=p.memory_mib_allocated,
                            no_data_minutes=p.no_data_minutes,
                        )
                        for p in s.points
                    ],
                )
                for s in found.series
            ],
        )

    @strawberry.field(
        description="Credits spent in [since, until) (default: now) on GPU sessions while their GPU util stayed "
        "below `belowPercent` (default 5), per organisation, group or user, from the per-minute usage history "
        "and the ledger's charges, in the scopes you administer."
    )
    async def idle_credits_report(
        self,
        info: Info,
        since: datetime,
        by: IdleCreditsDimension,  # type: ignore[valid-type]
        until: datetime | None = None,
        below_percent: float = history.IDLE_GPU_UTIL_PERCENT,
    ) -> IdleCreditsReport:
        actor = info.context.require_actor()
        c = info.context.container
        start, end = utc(since), utc(until) or c.clock.now()
        assert start is not None and end is not None
        dimension = IdleCreditsDimensionModel(by.value)
        r = await history.idle_credits_report(c.history, actor, start, end, dimension, below_percent)
        return IdleCreditsReport(
            since=r.since,
            until=r.until,
            below_percent=r.below_percent,
            by=r.by,
            charged=Credits.of(r.charged_micro),
            idle_charged=Credits.of(r.idle_charged_micro),
            rows=[
                IdleCreditsRow(
                    sessions=row.sessions,
                    minutes=row.minutes,
                    idle_minutes=row.idle_minutes,
                    no_data_minutes=row.no_data_minutes,
                    charged=Credits.of(row.charged_micro),
                    idle_charged=Credits.of(row.idle_charged_micro),
                    key=row.key,
                    dimension=dimension,
                )
                for row in r.rows
            ],
        )
