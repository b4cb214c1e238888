"""EventBus adapters: in-process (embedded, one process) and Redis pub/sub (several API
processes). Subscribers get events published after commit; slow subscribers are bounded.

A subscriber may hold a `Turn` of a shared lane (`refresh_turn`, set by the code that drives a
subscription): it gives the turn back while it waits for an event and takes it again before
the event is handed over, so that the work an event causes (a subscription re-reading its
state) runs at most `lane size` at a time, however many subscribers one event reaches."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from contextvars import ContextVar
from types import TracebackType
from typing import Any

log = logging.getLogger(__name__)
_QUEUE_LIMIT = 1000


class Turn:
    """One subscriber's turn in a lane (an `asyncio.Semaphore` shared by many): taken while it
    works, given back while it waits. Taking or giving back twice is a no-op."""

    def __init__(self, lane: asyncio.Semaphore) -> None:
        self.lane = lane
        self.held = False
        # the subscriber only re-reads a state: events queued while it worked are one event
        self.latest_only = False

    async def take(self) -> None:
        if not self.held:
            await self.lane.acquire()
            self.held = True

    def give_back(self) -> None:
        if self.held:
            self.held = False
            self.lane.release()


refresh_turn: ContextVar[Turn | None] = ContextVar("gshare_refresh_turn", default=None)


class _Subscription:
    def __init__(self, bus: InProcessEventBus, topics: tuple[str, ...]) -> None:
        self._bus = bus
        self.topics = topics
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(_QUEUE_LIMIT)
        self.dropped = 0

    async def __aenter__(self) -> _Subscription:
        self._bus._subs.add(self)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._bus._subs.discard(self)

    def __aiter__(self) -> _Subscription:
        return self

    async def __anext__(self) -> tuple[str, dict[str, Any]]:
        turn = refresh_turn.get()
        if turn is None:
            return await self.queue.get()
        turn.give_back()  # waiting costs nobody a turn
        event = await self.queue.get()
        while turn.latest_only and not self.queue.empty():
            event = self.queue.get_nowait()
        await turn.take()
        return event

    def offer(self, topic: str, payload: dict[str, Any]) -> None:
        if topic in self.topics or any(t.endswith("*") and topic.startswith(t[:-1]) for t in self.topics):
            try:
                self.queue.put_nowait((topic, payload))
            except asyncio.QueueFull:  # a stalled client loses events, never the server's memory
                self.dropped += 1
                if self.dropped == 1:  # once per subscriber: a flood must not become a log flood
                    log.warning("dropping events (first: %s) for a slow subscriber", topic)


class InProcessEventBus:
    def __init__(self) -> None:
        self._subs: set[_Subscription] = set()

    async def publish(self, topic: str, payload: dict[str, Any]) -> None:
        await self.publish_many([(topic, payload)])

    async def publish_many(self, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        subs = list(self._subs)
        for topic, payload in events:
            for sub in subs:
                sub.offer(topic, payload)

    def subscribe(self, *topics: str) -> _Subscription:
        return _Subscription(self, topics)


class RedisEventBus:
    """Publishes to Redis channels `gshare:<topic>`; one reader task per process fans
    messages out to local subscribers (so N subscribers cost one Redis connection)."""

    PREFIX = "gshare:"

    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(url)
        self._local = InProcessEventBus()
        self._reader: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def publish(self, topic: str, payload: dict[str, Any]) -> None:
        await self._redis.publish(self.PREFIX + topic, json.dumps(payload, default=str))

    async def publish_many(self, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        if not events:
            return
        async with self._redis.pipeline(transaction=False) as pipe:  # one round trip, in order
            for topic, payload in events:
                pipe.publish(self.PREFIX + topic, json.dumps(payload, default=str))
            await pipe.execute()

    def subscribe(self, *topics: str) -> _Subscription:
        if self._reader is None or self._reader.done():
            self._ready.clear()
            self._reader = asyncio.create_task(self._read())
        bus = self

        class _RedisSubscription(_Subscription):
            async def __aenter__(self) -> _Subscription:
                await super().__aenter__()
                await asyncio.wait_for(bus._ready.wait(), 10)
                return self

        return _RedisSubscription(self._local, topics)

    async def _read(self) -> None:
        backoff = 0.2
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.psubscribe(self.PREFIX + "*")
                self._ready.set()
                backoff = 0.2
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    topic = message["channel"].decode()[len(self.PREFIX) :]
                    try:
                        payload = json.loads(message["data"])
                    except ValueError:
                        continue
                    await self._local.publish(topic, payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis restarted: reconnect with backoff
                log.warning("event bus lost Redis (%s); reconnecting", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self._redis.aclose()
