"""One contract for every EventBus adapter: in-process and Redis pub/sub."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from infra.events import InProcessEventBus, RedisEventBus


@pytest.fixture(params=["in-process", "redis"])
async def bus(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    if request.param == "in-process":
        yield InProcessEventBus()
        return
    url = request.getfixturevalue("redis_url")
    b = RedisEventBus(url)
    yield b
    await b.close()


async def _next(sub: Any) -> tuple[str, dict[str, Any]]:
    return await asyncio.wait_for(sub.__anext__(), 5)  # type: ignore[no-any-return]


async def test_subscriber_receives_events_of_its_topics_only(bus: Any) -> None:
    topic = f"user:{uuid.uuid4()}"
    async with bus.subscribe(topic) as sub:
        await bus.publish(f"user:{uuid.uuid4()}", {"n": 0})
        await bus.publish(topic, {"n": 1})
        assert await _next(sub) == (topic, {"n": 1})


async def test_prefix_subscription_and_fan_out(bus: Any) -> None:
    prefix = f"session:{uuid.uuid4().hex[:6]}:"
    async with bus.subscribe(prefix + "*") as a, bus.subscribe(prefix + "*") as b:
        await bus.publish(prefix + "x", {"v": 1})
        assert (await _next(a))[1] == {"v": 1}
        assert (await _next(b))[1] == {"v": 1}


async def test_several_events_at_once_arrive_in_their_order(bus: Any) -> None:
    prefix = f"usage:{uuid.uuid4().hex[:6]}:"
    events = [(f"{prefix}{i % 3}", {"i": i}) for i in range(50)]
    async with bus.subscribe(prefix + "*") as every, bus.subscribe(prefix + "1") as one:
        await bus.publish_many(events)
        await bus.publish_many([])  # nothing, and no error
        assert [await _next(every) for _ in events] == events
        assert [await _next(one) for _ in range(len(events[1::3]))] == events[1::3]
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(every.__anext__(), 0.3)


async def test_unsubscribed_listener_gets_nothing_more(bus: Any) -> None:
    topic = f"t:{uuid.uuid4()}"
    async with bus.subscribe(topic) as sub:
        pass
    await bus.publish(topic, {"late": True})
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(sub.__anext__(), 0.3)


async def test_redis_bus_reaches_a_subscriber_in_another_process_instance(redis_url: str) -> None:
    """Two API processes = two bus instances on one Redis."""
    publisher, listener = RedisEventBus(redis_url), RedisEventBus(redis_url)
    try:
        topic = f"cap:{uuid.uuid4()}"
        async with listener.subscribe(topic) as sub:
            await publisher.publish(topic, {"free": 3})
            assert await _next(sub) == (topic, {"free": 3})
    finally:
        await publisher.close()
        await listener.close()


async def test_a_failed_announcement_does_not_fail_a_committed_change(container: Any) -> None:
    """Redis restarting between the commit and the publish: the change stands, the caller is
    not told it failed, and this process's listeners still heard of it."""
    from domain.audit.services import AuditTarget, audit_entry, record
    from infra.db.uow import SqlUnitOfWork
    from tests.support.api import SYSTEM

    class DownBus:
        async def publish(self, topic: str, payload: dict[str, Any]) -> None:
            raise ConnectionError("redis is restarting")

        async def publish_many(self, events: Any) -> None:
            raise ConnectionError("redis is restarting")

    heard: list[str] = []
    factory = container.uow
    uow = SqlUnitOfWork(
        factory.sessionmaker,
        DownBus(),  # type: ignore[arg-type]
        factory.capacity_cache,
        [lambda events: heard.extend(topic for topic, _ in events)],
    )
    async with uow:
        entry = await record(
            uow.audit,
            audit_entry(
                container.ids,
                at=container.clock.now(),
                actor=SYSTEM,
                operation="busDown",
                target=AuditTarget("Test", "bus"),
                success=True,
                result_code="OK",
                duration_ms=0,
            ),
        )
        uow.publish_after_commit("test:topic", {"n": 1})
        await uow.commit()
    assert heard == ["test:topic"]
    async with container.uow() as check:
        assert await check.audit.get(entry.id) is not None
