"""The composition root: settings in, wired adapters out, for each driver (api, workers,
operator, tests). Embedded vs production is decided here, once."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from domain.common.clock import Clock, IdGenerator, SystemClock, UuidGenerator
from domain.ports import EventBus
from domain.tenancy.auth import PasswordHasher, SecretGenerator
from infra.db.base import make_engine, make_sessionmaker
from infra.db.uow import SqlUnitOfWorkFactory
from infra.events import InProcessEventBus, RedisEventBus
from infra.security import Argon2PasswordHasher, UrandomSecrets
from infra.settings import Settings

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
    extras: dict[str, Any] = field(default_factory=dict)

    async def aclose(self) -> None:
        close = getattr(self.events, "close", None)
        if close is not None:
            await close()
        await self.engine.dispose()


def build_container(
    settings: Settings,
    database_url: str,
    *,
    clock: Clock | None = None,
    events: EventBus | None = None,
) -> Container:
    engine = make_engine(database_url)
    bus: EventBus = events or (RedisEventBus(settings.redis_url) if settings.redis_url else InProcessEventBus())
    return Container(
        settings=settings,
        database_url=database_url,
        engine=engine,
        uow=SqlUnitOfWorkFactory(make_sessionmaker(engine), bus),
        events=bus,
        clock=clock or SystemClock(),
        ids=UuidGenerator(),
        hasher=Argon2PasswordHasher(),
        secrets=UrandomSecrets(),
    )
