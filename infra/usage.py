"""UsageStore adapters: the last five minutes of per-second samples per session, in-process
(embedded) or in Redis lists (several API processes), plus fan-out of new samples."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from domain.inventory.ports import UsageSample
from domain.ports import EventBus
from domain.sessions.ports import UsageStore

WINDOW_SECONDS = 300


def usage_topic(session_id: object) -> str:
    return f"usage:{session_id}"


def usage_event(sample: UsageSample) -> dict[str, object]:
    return {
        "at": sample.at.isoformat(),
        "cpu": sample.cpu_millicores,
        "memory": sample.memory_mib,
        "gpu": sample.gpu_util_percent,
        "gpuMemory": sample.gpu_memory_mib,
    }


async def record_usage(store: UsageStore, events: EventBus, samples: Sequence[UsageSample]) -> None:
    """Store a second of samples (one call) and announce them to the live subscriptions (one
    `publish_many`): the path every source takes (node agents, the Prometheus poller, the
    simulated cluster). Raises when the store refused them; a failed announcement only loses
    the live update (the store has them)."""
    if not samples:
        return
    await store.append_many(samples)
    await events.publish_many([(usage_topic(s.session_id), usage_event(s)) for s in samples])


def _encode(s: UsageSample) -> str:
    return json.dumps(
        {
            "s": str(s.session_id),
            "t": s.at.isoformat(),
            "c": s.cpu_millicores,
            "m": s.memory_mib,
            "g": s.gpu_util_percent,
            "gm": s.gpu_memory_mib,
        }
    )


def _decode(raw: str | bytes) -> UsageSample:
    d = json.loads(raw)
    return UsageSample(
        UUID(d["s"]), datetime.fromisoformat(d["t"]), int(d["c"]), int(d["m"]), float(d["g"]), int(d["gm"])
    )


class InProcessUsageStore:
    def __init__(self, window: int = WINDOW_SECONDS) -> None:
        self.window = window
        self._buffers: dict[UUID, deque[UsageSample]] = {}

    async def append(self, sample: UsageSample) -> None:
        buf = self._buffers.setdefault(sample.session_id, deque(maxlen=self.window))
        buf.append(sample)

    async def append_many(self, samples: Sequence[UsageSample]) -> None:
        for sample in samples:
            await self.append(sample)

    async def recent(self, session_id: UUID, seconds: int = WINDOW_SECONDS) -> list[UsageSample]:
        buf = self._buffers.get(session_id)
        if not buf:
            return []
        newest = buf[-1].at
        return [s for s in buf if (newest - s.at).total_seconds() < seconds]

    async def forget(self, session_id: UUID) -> None:
        self._buffers.pop(session_id, None)


class RedisUsageStore:
    """One capped list per session (`LPUSH` + `LTRIM`), expiring when samples stop."""

    def __init__(self, url: str, window: int = WINDOW_SECONDS) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(url)
        self.window = window

    def _key(self, session_id: UUID) -> str:
        return f"gshare:usage:{session_id}"

    async def append(self, sample: UsageSample) -> None:
        await self.append_many([sample])

    async def append_many(self, samples: Sequence[UsageSample]) -> None:
        """Every sample in one pipeline: one round trip for all of a cluster's sessions (each
        list's push, trim and expiry stay together in the MULTI block)."""
        if not samples:
            return
        async with self._redis.pipeline(transaction=True) as pipe:
            for sample in samples:
                key = self._key(sample.session_id)
                pipe.lpush(key, _encode(sample))
                pipe.ltrim(key, 0, self.window - 1)
                pipe.expire(key, self.window * 2)
            await pipe.execute()

    async def recent(self, session_id: UUID, seconds: int = WINDOW_SECONDS) -> list[UsageSample]:
        raw = await self._redis.lrange(self._key(session_id), 0, self.window - 1)
        samples = [_decode(r) for r in reversed(raw)]
        if not samples:
            return []
        newest = samples[-1].at
        return [s for s in samples if (newest - s.at).total_seconds() < seconds]

    async def forget(self, session_id: UUID) -> None:
        await self._redis.delete(self._key(session_id))

    async def close(self) -> None:
        await self._redis.aclose()


class RedisIdleMarks:
    """`IdleMarks` in one Redis hash (`gshare:idle-since`: session id → ISO instant), shared by
    every worker process and kept across their restarts. A mark is set with HSETNX, so two
    runs never move it."""

    KEY = "gshare:idle-since"

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(url, decode_responses=True)

    async def all(self) -> dict[UUID, datetime]:
        raw = await self._redis.hgetall(self.KEY)  # type: ignore[misc]
        return {UUID(k): datetime.fromisoformat(v) for k, v in raw.items()}

    async def mark(self, session_id: UUID, since: datetime) -> datetime:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hsetnx(self.KEY, str(session_id), since.isoformat())
            pipe.hget(self.KEY, str(session_id))
            _, stored = await pipe.execute()
        return datetime.fromisoformat(stored)

    async def clear(self, session_ids: Sequence[UUID]) -> None:
        if session_ids:
            await self._redis.hdel(self.KEY, *(str(s) for s in session_ids))  # type: ignore[misc]

    async def close(self) -> None:
        await self._redis.aclose()
