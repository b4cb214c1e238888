"""Actors resolved from a bearer token or a login cookie, kept for a few seconds.

Resolving a credential reads the token or login session, the user, their memberships and the
organisations they administer: four statements and a transaction on every API call, a tenth
of a `sessionCreate`'s CPU. The cache keeps the resolved `Actor` per credential for at most
`ttl` seconds and forgets a user's entries the moment a change to their account, roles,
memberships, active group or credentials commits:

- in this process synchronously, from the unit of work's commit (`on_committed`), so the
  next request after a mutation never sees the old actor;
- in other API processes from the EventBus (`follow`), the `user:<id>` topic the tenancy
  use cases announce after commit.

A resolution that started before an invalidation is not cached (a generation counter), so a
read racing a change cannot put the old actor back. What can be stale: a token past its
`expiresAt` is honoured for at most `ttl` more seconds, and another process may see a change
as late as its EventBus delivers it (or `ttl`, if Redis pub/sub drops the message)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.ports import EventBus
from domain.tenancy.model import Actor
from domain.tenancy.services import user_topic

log = logging.getLogger(__name__)

USER_TOPICS = user_topic("*")  # type: ignore[arg-type]  # a prefix pattern: every user's announcements


@dataclass(frozen=True, slots=True)
class _Entry:
    actor: Actor
    until: float


class ActorCache:
    def __init__(
        self, ttl_seconds: float = 10.0, *, max_entries: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self.generation = 0
        self.hits = 0

    @staticmethod
    def _key(credential: str) -> str:
        return hashlib.sha256(credential.encode()).hexdigest()  # secrets are not kept in memory

    def get(self, credential: str) -> Actor | None:
        entry = self._entries.get(self._key(credential))
        if entry is None or entry.until <= self._clock():
            return None
        self.hits += 1
        return entry.actor

    def put(self, credential: str, actor: Actor, generation: int) -> None:
        """Keep `actor` unless something was invalidated since `generation` was read."""
        if self.ttl <= 0 or generation != self.generation:
            return
        if len(self._entries) >= self.max_entries:
            now = self._clock()
            self._entries = {k: e for k, e in self._entries.items() if e.until > now}
            if len(self._entries) >= self.max_entries:
                self._entries.clear()
        self._entries[self._key(credential)] = _Entry(actor, self._clock() + self.ttl)

    def forget_user(self, user_id: UUID | None) -> None:
        """Drop one user's entries (None: everyone's)."""
        self.generation += 1
        if user_id is None:
            self._entries.clear()
            return
        self._entries = {k: e for k, e in self._entries.items() if e.actor.user_id != user_id}

    def _forget(self, topic: str, payload: dict[str, Any]) -> None:
        if not topic.startswith(USER_TOPICS[:-1]):
            return
        try:  # an announcement that names nobody readable forgets everyone
            user_id: UUID | None = UUID(str(payload["userId"]))
        except (KeyError, ValueError):
            user_id = None
        self.forget_user(user_id)

    def on_committed(self, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Called by the unit of work right after a commit, with the events it will publish."""
        for topic, payload in events:
            self._forget(topic, payload)

    async def follow(self, bus: EventBus) -> None:
        """Forget what other processes change (runs for the life of the API process)."""
        async with bus.subscribe(USER_TOPICS) as events:
            async for topic, payload in events:
                self._forget(topic, payload)
