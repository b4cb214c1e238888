"""The callback verifier's stores: cluster keys from PostgreSQL, replay caches in Redis or
PostgreSQL. Both replay caches record a `jti` with one atomic insert-if-absent."""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from infra.callbacks.verify import PublicKey, load_public_key
from infra.db.models.clusters_extra import CallbackJtiRow
from infra.db.models.inventory import ClusterRow


class SqlClusterKeyStore:
    """`clusters.callback_public_key`, read on every verification (a deregistered or re-keyed
    cluster is refused at once, in every API process); parsed keys are memoised by PEM text."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessionmaker
        self._parsed: dict[str, PublicKey] = {}

    async def public_key_for(self, cluster_id: str) -> PublicKey | None:
        async with self._sessions() as s:
            pem = await s.scalar(
                select(ClusterRow.callback_public_key).where(
                    ClusterRow.id == cluster_id, ClusterRow.kind == "kubernetes"
                )
            )
        if not pem:
            return None
        key = self._parsed.get(pem)
        if key is None:
            try:
                key = load_public_key(pem)
            except ValueError:
                return None
            if len(self._parsed) > 1000:
                self._parsed.clear()
            self._parsed[pem] = key
        return key


class SqlReplayCache:
    """`callback_jtis`: INSERT … ON CONFLICT DO UPDATE only over an expired row, RETURNING tells
    whether this call recorded it. Expired rows are swept now and then."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], float] = time.time,
        sweep_interval: float = 60.0,
    ) -> None:
        self._sessions = sessionmaker
        self._clock = clock
        self._sweep_interval = sweep_interval
        self._next_sweep = 0.0

    async def remember(self, cluster_id: str, jti: str, expires_at: int) -> bool:
        now = self._clock()
        values = insert(CallbackJtiRow).values(cluster_id=cluster_id, jti=jti, expires_at=int(expires_at))
        stmt = values.on_conflict_do_update(
            index_elements=["cluster_id", "jti"],
            set_={"expires_at": values.excluded.expires_at},
            where=CallbackJtiRow.expires_at < int(now),
        ).returning(CallbackJtiRow.jti)
        async with self._sessions() as s:
            recorded = (await s.execute(stmt)).scalar_one_or_none() is not None
            if now >= self._next_sweep:
                self._next_sweep = now + self._sweep_interval
                await s.execute(delete(CallbackJtiRow).where(CallbackJtiRow.expires_at < int(now)))
            await s.commit()
        return recorded


class RedisReplayCache:
    """`SET gshare:jti:<cluster>:<jti> 1 NX EXAT <expires_at>`."""

    PREFIX = "gshare:callback-jti:"

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(url)
        self._clock = clock

    async def remember(self, cluster_id: str, jti: str, expires_at: int) -> bool:
        ttl = max(1, int(expires_at - self._clock()) + 1)
        recorded = await self._redis.set(f"{self.PREFIX}{cluster_id}:{jti}", b"1", nx=True, ex=ttl)
        return bool(recorded)

    async def close(self) -> None:
        await self._redis.aclose()


def sessionmaker_for(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
