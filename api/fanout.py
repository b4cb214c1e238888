"""Subscriptions executed once per topic, their messages encoded once and sent to every subscriber
(issue 15, subscriptions at scale).

A `sessionUsage` subscription's messages after the first are a function of the session's usage
event only: the same document with the same variables gives every subscriber the same bytes,
whoever they are (who may see the session is decided once, by the subscriber's own first
execution; the live samples carry nothing that depends on the viewer). So the subscribers of one
(document, operation name, variables) form a group: one leader execution of the subscription
(in the lane, as any subscription step) turns each event into one result, encoded to JSON once;
each member only splices its operation id into the frame and queues the text in its bounded
outbox (api.ws.Outbox: a socket that cannot keep up is still closed, the per-user caps still
count each member's operation).

A member joins before its own first execution (the current window, which also checks it may see
the session) and the leader has subscribed to the topic before any member's first execution, so
no event falls between a member's window and its live messages (one may come twice, as it may
for an unshared subscription). When the leader's stream ends (or fails), every member completes
its operation; a member that finds its group already ended runs its own, unshared subscription.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from typing import Any

from strawberry.types.execution import ExecutionResult

from infra.events import Turn, refresh_turn

log = logging.getLogger("gshare.ws")

# root fields whose messages after the first depend on the topic's event only (not the viewer)
SHARED_FIELDS = frozenset({"sessionUsage"})
_PENDING_LIMIT = 100  # messages a member may miss while its own first message is computed

Key = tuple[str, str, str]  # document, operation name, canonical JSON of the variables


def next_payload(result: ExecutionResult) -> dict[str, Any]:
    """The `next` message's payload for a result, as strawberry's `Operation.send_next` makes it."""
    payload: dict[str, Any] = {"data": result.data}
    if result.errors:
        payload["errors"] = [err.formatted for err in result.errors]
    if result.extensions:
        payload["extensions"] = result.extensions
    return payload


class Member:
    """One subscriber's place in a group: the payloads (encoded JSON) are handed to `send` once
    its own first message is queued; until then they wait (a few at most)."""

    __slots__ = ("_pending", "_send", "ended", "group")

    def __init__(self, group: Group) -> None:
        self.group = group
        self._send: Callable[[str], None] | None = None
        self._pending: list[str] = []
        self.ended = asyncio.Event()

    def offer(self, payload: str) -> None:
        if self._send is not None:
            self._send(payload)
        elif len(self._pending) < _PENDING_LIMIT:
            self._pending.append(payload)

    def attach(self, send: Callable[[str], None]) -> None:
        pending, self._pending = self._pending, []
        for payload in pending:
            send(payload)
        self._send = send


class Group:
    def __init__(self, streams: SharedStreams, key: Key) -> None:
        self.streams = streams
        self.key = key
        self.members: set[Member] = set()
        self.ready = asyncio.Event()  # the leader has subscribed (its first result came) or ended
        self.ended = False
        self.task: asyncio.Task[None] | None = None
        self.results = 0

    async def lead(
        self, open_stream: Callable[[], Awaitable[Any]], lane: asyncio.Semaphore, encode: Callable[[Any], str]
    ) -> None:
        turn = Turn(lane)
        token = refresh_turn.set(turn)
        try:
            source = await open_stream()
            if isinstance(source, ExecutionResult):  # refused before it began (a validation error)
                return
            async with aclosing(source):
                first = True
                while True:
                    await turn.take()
                    try:
                        result = await source.__anext__()
                    except StopAsyncIteration:
                        return
                    finally:
                        turn.give_back()
                    if not isinstance(result, ExecutionResult) or (first and result.errors):
                        return  # the members run their own subscriptions (they see why)
                    if first:
                        first = False
                        self.ready.set()
                        continue
                    self.results += 1
                    payload = encode(next_payload(result))
                    for member in list(self.members):
                        member.offer(payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a shared subscription failed; its subscribers complete")
        finally:
            refresh_turn.reset(token)
            self.ended = True
            self.ready.set()
            for member in self.members:
                member.ended.set()
            self.streams.forget(self)


class SharedStreams:
    """The groups of shared subscriptions in this process, by (document, operation, variables)."""

    def __init__(self) -> None:
        self._groups: dict[Key, Group] = {}

    def __len__(self) -> int:
        return len(self._groups)

    def group(self, key: Key) -> Group | None:
        return self._groups.get(key)

    def forget(self, group: Group) -> None:
        if self._groups.get(group.key) is group:
            del self._groups[group.key]

    @contextlib.asynccontextmanager
    async def member(
        self,
        key: Key,
        open_stream: Callable[[], Awaitable[Any]],
        lane: asyncio.Semaphore,
        encode: Callable[[Any], str],
    ) -> AsyncIterator[Member]:
        """A place in `key`'s group (led by `open_stream`'s subscription if the group is new),
        once its leader has subscribed; `member.group.ended` when it could not."""
        group = self._groups.get(key)
        if group is None or group.ended:
            group = self._groups[key] = Group(self, key)
            group.task = asyncio.create_task(group.lead(open_stream, lane, encode))
        member = Member(group)
        group.members.add(member)
        if group.ended:
            member.ended.set()
        try:
            await group.ready.wait()
            yield member
        finally:
            group.members.discard(member)
            if not group.members and not group.ended:
                self.forget(group)
                if group.task is not None:
                    group.task.cancel()
