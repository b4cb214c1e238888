"""Issue 13, finding 5, the parts that need no server: a connection's bounded outbox (a state
subscription's unsent message replaced by the newest, order kept, a full queue refused), the
per-user registry, the lane that lets an event's subscribers re-read their state only a few at
a time, and that every subscription of the schema is classed as state or stream."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import uuid4

from api.schema import build_schema
from api.ws import LATEST_ONLY, STREAMS, ConnectionRegistry, Outbox
from infra.events import InProcessEventBus, Turn, refresh_turn


def nxt(op: str, value: int) -> dict[str, Any]:
    return {"id": op, "type": "next", "payload": {"data": {"v": value}}}


async def test_a_state_subscriptions_unsent_message_is_replaced_by_the_newest_in_place() -> None:
    sent: list[dict[str, Any]] = []
    arrived = asyncio.Queue[None]()

    async def send(message: Any) -> None:
        sent.append(message)
        arrived.put_nowait(None)

    box = Outbox(send, limit=10)
    assert box.put(nxt("a", 1), latest_only=True)
    assert box.put(nxt("b", 1))  # a stream: every message kept
    assert box.put(nxt("a", 2), latest_only=True)
    assert box.put(nxt("b", 2))
    assert box.put(nxt("a", 3), latest_only=True)
    assert box.put({"id": "a", "type": "complete"})
    assert len(box) == 4 and box.coalesced == 2
    writer = asyncio.create_task(box.run())
    for _ in range(4):
        await arrived.get()
    assert sent == [nxt("a", 3), nxt("b", 1), nxt("b", 2), {"id": "a", "type": "complete"}]
    assert box.put(nxt("a", 4), latest_only=True)  # sent already: a new message, queued again
    await arrived.get()
    assert sent[-1] == nxt("a", 4)
    writer.cancel()


async def test_a_full_outbox_refuses_the_next_message() -> None:
    async def never(_message: Any) -> None:
        await asyncio.Event().wait()  # a client that reads nothing

    box = Outbox(never, limit=3)
    assert all(box.put(nxt("s", i)) for i in range(3))
    assert not box.put(nxt("s", 3))
    assert box.put(nxt("state", 1), latest_only=True) is False  # no room for a new operation either
    assert box.put(nxt("s", 0), latest_only=False) is False


def test_the_registry_caps_sockets_and_subscriptions_per_user() -> None:
    registry = ConnectionRegistry(max_sockets=2, max_subscriptions=3)
    alice, bob = uuid4(), uuid4()
    assert registry.open_socket(alice) and registry.open_socket(alice)
    assert not registry.open_socket(alice)
    assert registry.open_socket(bob)  # another user is not affected
    registry.close_socket(alice)
    assert registry.open_socket(alice)
    assert [registry.add_subscription(alice) for _ in range(4)] == [True, True, True, False]
    registry.drop_subscription(alice)
    assert registry.add_subscription(alice) and registry.add_subscription(bob)
    for _ in range(3):
        registry.drop_subscription(alice)
    assert alice not in registry.subscriptions


async def test_an_event_reaching_many_subscribers_is_worked_on_a_few_at_a_time() -> None:
    bus = InProcessEventBus()
    lane = asyncio.Semaphore(2)
    working = most = done = 0
    ready = asyncio.Event()
    subscribed = 0

    async def subscriber() -> None:
        nonlocal working, most, done, subscribed
        turn = Turn(lane)
        refresh_turn.set(turn)  # as the WebSocket handler sets it for each operation's task
        await turn.take()
        async with bus.subscribe("user:1") as events:
            subscribed += 1
            if subscribed == 10:
                ready.set()
            async for _ in events:
                working += 1
                most = max(most, working)
                for _ in range(5):  # the re-read of its state
                    await asyncio.sleep(0)
                working -= 1
                done += 1
                turn.give_back()  # it has sent its message
                return

    tasks = [asyncio.create_task(subscriber()) for _ in range(10)]
    await ready.wait()
    await bus.publish("user:1", {"userId": "1"})
    await asyncio.gather(*tasks)
    assert done == 10 and most == 2
    assert lane._value == 2  # every turn given back


def test_every_subscription_is_classed_as_state_or_stream() -> None:
    subscription = build_schema()._schema.subscription_type
    assert subscription is not None
    fields = set(subscription.fields)
    assert not LATEST_ONLY & STREAMS
    assert fields == LATEST_ONLY | STREAMS, (fields - LATEST_ONLY - STREAMS, (LATEST_ONLY | STREAMS) - fields)


async def test_a_socket_that_cannot_keep_up_is_closed_with_4013() -> None:
    from types import SimpleNamespace

    from api.fanout import SharedStreams
    from api.ws import CLOSE_SLOW_CONSUMER, GShareTransportWSHandler

    closed: list[tuple[int, str]] = []

    class StalledSocket:
        async def send_json(self, _message: Any) -> None:
            await asyncio.Event().wait()  # the client reads nothing

        async def close(self, code: int, reason: str) -> None:
            closed.append((code, reason))

    settings = SimpleNamespace(max_subscriptions_per_connection=20, websocket_outbox_messages=5)
    view = SimpleNamespace(
        container=SimpleNamespace(settings=settings),
        connections=ConnectionRegistry(max_sockets=1, max_subscriptions=1),
        refresh_lane=asyncio.Semaphore(1),
        shared_streams=SharedStreams(),
    )
    handler = GShareTransportWSHandler(
        view=view, websocket=StalledSocket(), context=None, root_value=None, schema=None,
        connection_init_wait_timeout=None,
    )  # fmt: skip
    for i in range(5):
        await handler.send_message(nxt("usage", i))  # type: ignore[arg-type]
    assert closed == []
    await handler.send_message(nxt("usage", 5))  # type: ignore[arg-type]
    assert closed == [(CLOSE_SLOW_CONSUMER, "SLOW_CONSUMER: over 5 messages waiting to be sent")]
    await handler.send_message(nxt("usage", 6))  # type: ignore[arg-type]
    assert len(closed) == 1  # closed once; nothing queued after


async def test_encoded_frames_wait_in_order_among_messages_and_count_against_the_limit() -> None:
    sent: list[object] = []
    three = asyncio.Event()

    async def send(message: Any) -> None:
        sent.append(message)
        if len(sent) == 3:
            three.set()

    async def send_text(text: str) -> None:
        await send(text)

    outbox = Outbox(send, limit=3, send_text=send_text)
    assert outbox.put(nxt("a", 1))  # type: ignore[arg-type]
    assert outbox.put_text('{"id":"u","type":"next","payload":{"data":1}}')
    assert outbox.put(nxt("b", 2))  # type: ignore[arg-type]
    assert not outbox.put_text("{}")  # full: the caller closes the socket
    writer = asyncio.create_task(outbox.run())
    await asyncio.wait_for(three.wait(), 5)
    writer.cancel()
    assert sent == [nxt("a", 1), '{"id":"u","type":"next","payload":{"data":1}}', nxt("b", 2)]
