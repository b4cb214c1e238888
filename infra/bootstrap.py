"""The composition root: settings in, wired adapters out, for each driver (api, workers,
operator, tests). Embedded vs production is decided here, once."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from domain.common.clock import Clock, IdGenerator, SystemClock, UuidGenerator
from domain.ports import EventBus
from domain.sessions.ports import UsageStore
from domain.sessions.services import SessionServices
from domain.tenancy.auth import PasswordHasher, SecretGenerator
from infra.actor_cache import ActorCache
from infra.billing.sql import SqlBilling
from infra.cluster.registry import ClusterAdapters
from infra.credits.wiring import CreditsAdapters, sql_adapters
from infra.db.base import make_engine, make_sessionmaker
from infra.db.uow import SqlUnitOfWorkFactory
from infra.events import InProcessEventBus, RedisEventBus
from infra.faults import with_faults
from infra.ledger_events import PublishingLedger
from infra.reference_cache import CachedBudgets, CachedPolicies
from infra.security import Argon2PasswordHasher, UrandomSecrets
from infra.settings import Settings
from infra.usage_history import SqlUsageHistory

log = logging.getLogger(__name__)


@dataclass
class Container:
    settings: Settings
    database_url: str
    engine: AsyncEngine
    uow: SqlUnitOfWorkFactory
    events: EventBus
    clock: Clock
    ids: IdGenerator
    hasher: PasswordHasher
    secrets: SecretGenerator
    credits: CreditsAdapters
    clusters: ClusterAdapters
    usage: UsageStore
    sessions: SessionServices
    actors: ActorCache = field(default_factory=ActorCache)
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def history(self) -> SqlUsageHistory:
        """The per-minute usage history (the `usage.history` job writes it, reports read it)."""
        found = self.extras.get("usage_history")
        if found is None:
            found = self.extras["usage_history"] = SqlUsageHistory(self.engine)
        return found  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        for resource in (self.events, self.usage):
            close = getattr(resource, "close", None)
            if close is not None:
                await close()
        await self.engine.dispose()


def _semaphore(slots: int) -> Any:
    import asyncio

    semaphore = asyncio.Semaphore(slots)
    return lambda: semaphore


def build_container(
    settings: Settings,
    database_url: str,
    *,
    clock: Clock | None = None,
    events: EventBus | None = None,
) -> Container:
    from infra.usage import InProcessUsageStore, RedisUsageStore

    engine = make_engine(
        database_url, pool_size=settings.database_pool_size, max_overflow=settings.database_max_overflow
    )
    bus: EventBus = events or (RedisEventBus(settings.redis_url) if settings.redis_url else InProcessEventBus())
    uow = SqlUnitOfWorkFactory(make_sessionmaker(engine), bus)
    actors = ActorCache(settings.actor_cache_seconds)
    uow.commit_listeners.append(actors.on_committed)
    the_clock = clock or SystemClock()
    ids = UuidGenerator()
    credits = sql_adapters(engine)
    credits = replace(
        credits,
        ledger=with_faults(PublishingLedger(credits.ledger, bus)),
        # every admission reads its scope chain's policies and budgets: kept per process (issue 19)
        policies=CachedPolicies(credits.policies, uow.references, bus),
        budgets=CachedBudgets(credits.budgets, uow.references, bus),
    )
    clusters = ClusterAdapters()
    usage: UsageStore = RedisUsageStore(settings.redis_url) if settings.redis_url else InProcessUsageStore()
    sessions = SessionServices(
        uow=uow,
        clock=the_clock,
        ids=ids,
        ledger=credits.ledger,
        budgets=credits.budgets,
        policies=credits.policies,
        clusters=clusters,
        hold_window_seconds=settings.hold_window_seconds,
        public_url=settings.own_origin(),
        admission_gate=_semaphore(settings.admission_concurrency),
        billing=SqlBilling(engine, hold_window_seconds=settings.hold_window_seconds),
    )

    return Container(
        settings=settings,
        database_url=database_url,
        engine=engine,
        uow=uow,
        events=bus,
        clock=the_clock,
        ids=ids,
        hasher=Argon2PasswordHasher(),
        secrets=UrandomSecrets(),
        credits=credits,
        clusters=clusters,
        usage=usage,
        sessions=sessions,
        actors=actors,
    )
