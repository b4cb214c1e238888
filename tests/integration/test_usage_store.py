"""One contract for both UsageStore adapters (in-process and Redis ring buffers)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.inventory.ports import UsageSample
from infra.usage import InProcessUsageStore, RedisUsageStore


@pytest.fixture(params=["in-process", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    if request.param == "in-process":
        yield InProcessUsageStore(window=300)
        return
    s = RedisUsageStore(request.getfixturevalue("redis_url"), window=300)
    yield s
    await s.close()


def sample(sid: uuid.UUID, at: datetime, cpu: int) -> UsageSample:
    return UsageSample(sid, at, cpu, 1024, 50.0, 2048)


async def test_keeps_the_last_five_minutes_in_order(store: Any) -> None:
    sid = uuid.uuid4()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(400):
        await store.append(sample(sid, start + timedelta(seconds=i), i))
    recent = await store.recent(sid)
    assert len(recent) == 300
    assert [s.cpu_millicores for s in recent] == list(range(100, 400))
    assert [s.cpu_millicores for s in await store.recent(sid, 10)] == list(range(390, 400))


async def test_sessions_are_kept_apart_and_unknown_ones_are_empty(store: Any) -> None:
    a, b = uuid.uuid4(), uuid.uuid4()
    now = datetime(2026, 1, 1, tzinfo=UTC)
    await store.append(sample(a, now, 1))
    await store.append(sample(b, now, 2))
    assert [s.cpu_millicores for s in await store.recent(a)] == [1]
    assert await store.recent(uuid.uuid4()) == []
    await store.forget(a)
    assert await store.recent(a) == []


async def test_a_clusters_second_is_appended_at_once(store: Any) -> None:
    """`append_many`: many sessions' samples in one call keep each session's window and order."""
    a, b = uuid.uuid4(), uuid.uuid4()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for second in range(0, 320, 40):  # 40 seconds per call, both sessions interleaved
        batch = []
        for i in range(second, second + 40):
            batch += [sample(a, start + timedelta(seconds=i), i), sample(b, start + timedelta(seconds=i), -i)]
        await store.append_many(batch)
    await store.append_many([])
    assert [s.cpu_millicores for s in await store.recent(a)] == list(range(20, 320))
    assert [s.cpu_millicores for s in await store.recent(b, 5)] == [-i for i in range(315, 320)]
