"""Catalog objects and scope names by id, kept per process (issue 19: an admission read its
offering, preset, image, group and organisation, five statements, every time).

What is kept: offerings, presets, images and registries, and groups and organisations (an
admission needs their names), each by id; the resource policies and the budgets of each scope
(a scope without any is kept as such); for at most `ttl` seconds. A change forgets the object
the moment it commits (a policy or budget change forgets everything: they are rare):

- in this process synchronously, from the unit of work's commit (`on_committed`): the
  cached repositories announce every write of a cached kind on the `references` topic;
- in other processes from the EventBus (`follow`), the same announcement.

A read that started before a change was announced is not kept (a generation counter), so a
read racing a change cannot put the old object back; a unit of work that wrote an object
reads it from its own transaction, never from the cache. What can be stale: another
process sees a change as late as its EventBus delivers it (or `ttl`, if Redis drops it)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar
from uuid import UUID

from domain.credits.budgets import Budget, BudgetScope
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.ports import EventBus

log = logging.getLogger(__name__)

REFERENCES_TOPIC = "references"
T = TypeVar("T")


class ReferenceCache:
    def __init__(
        self, ttl_seconds: float = 30.0, *, max_entries: int = 20_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl_seconds
        self.max_entries = max_entries
        self._clock = clock
        self._entries: dict[tuple[str, Hashable], tuple[Any, float]] = {}
        self.generation = 0
        self.hits = 0

    def get(self, kind: str, object_id: Hashable) -> Any | None:
        entry = self._entries.get((kind, object_id))
        if entry is None or entry[1] <= self._clock():
            return None
        self.hits += 1
        return entry[0]

    def put(self, kind: str, object_id: Hashable, value: Any, generation: int) -> None:
        if self.ttl <= 0 or generation != self.generation:
            return
        if len(self._entries) >= self.max_entries:
            self._entries.clear()
        self._entries[(kind, object_id)] = (value, self._clock() + self.ttl)

    def forget(self, kind: str | None, object_id: UUID | None) -> None:
        """Drop one object (None: everything)."""
        self.generation += 1
        if kind is None or object_id is None:
            self._entries.clear()
        else:
            self._entries.pop((kind, object_id), None)

    def _forget(self, topic: str, payload: dict[str, Any]) -> None:
        if topic != REFERENCES_TOPIC:
            return
        try:  # an announcement that names nothing readable forgets everything
            self.forget(str(payload["kind"]), UUID(str(payload["id"])))
        except (KeyError, ValueError):
            self.forget(None, None)

    def on_committed(self, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        for topic, payload in events:
            self._forget(topic, payload)

    async def follow(self, bus: EventBus) -> None:
        """Forget what other processes change (runs for the life of the process)."""
        async with bus.subscribe(REFERENCES_TOPIC) as events:
            async for topic, payload in events:
                self._forget(topic, payload)


class _Cached:
    """A repository whose reads by id of the cached kinds go through the cache and whose
    writes of them are announced after commit; everything else goes to `inner`."""

    def __init__(self, inner: Any, cache: ReferenceCache, publish: Callable[[str, dict[str, Any]], None]) -> None:
        self.inner = inner
        self.cache = cache
        self._publish = publish
        self._written: set[tuple[str, UUID]] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def _read(self, kind: str, object_id: UUID, read: Callable[[UUID], Awaitable[T | None]]) -> T | None:
        if (kind, object_id) in self._written:
            return await read(object_id)
        found = self.cache.get(kind, object_id)
        if found is not None:
            return found  # type: ignore[no-any-return]
        generation = self.cache.generation
        value = await read(object_id)
        if value is not None:
            self.cache.put(kind, object_id, value, generation)
        return value

    def _wrote(self, kind: str, object_id: UUID) -> None:
        self._written.add((kind, object_id))
        self._publish(REFERENCES_TOPIC, {"kind": kind, "id": str(object_id)})


class CachedCatalogRepository(_Cached):
    async def get_offering(self, offering_id: UUID) -> Any:
        return await self._read("offering", offering_id, self.inner.get_offering)

    async def get_preset(self, preset_id: UUID) -> Any:
        return await self._read("preset", preset_id, self.inner.get_preset)

    async def get_image(self, image_id: UUID) -> Any:
        return await self._read("image", image_id, self.inner.get_image)

    async def get_registry(self, registry_id: UUID) -> Any:
        return await self._read("registry", registry_id, self.inner.get_registry)

    async def update_offering(self, o: Any) -> None:
        await self.inner.update_offering(o)
        self._wrote("offering", o.id)

    async def delete_offering(self, offering_id: UUID) -> None:
        await self.inner.delete_offering(offering_id)
        self._wrote("offering", offering_id)

    async def update_preset(self, p: Any) -> None:
        await self.inner.update_preset(p)
        self._wrote("preset", p.id)

    async def delete_preset(self, preset_id: UUID) -> None:
        await self.inner.delete_preset(preset_id)
        self._wrote("preset", preset_id)

    async def update_registry(self, r: Any) -> None:
        await self.inner.update_registry(r)
        self._wrote("registry", r.id)

    async def delete_registry(self, registry_id: UUID) -> None:
        await self.inner.delete_registry(registry_id)
        self._wrote("registry", registry_id)

    async def update_image(self, i: Any) -> None:
        await self.inner.update_image(i)
        self._wrote("image", i.id)

    async def delete_image(self, image_id: UUID) -> None:
        await self.inner.delete_image(image_id)
        self._wrote("image", image_id)


class CachedTenancyRepository(_Cached):
    async def get_group(self, group_id: UUID) -> Any:
        return await self._read("group", group_id, self.inner.get_group)

    async def get_organization(self, org_id: UUID) -> Any:
        return await self._read("organization", org_id, self.inner.get_organization)

    async def update_group(self, group: Any) -> None:
        await self.inner.update_group(group)
        self._wrote("group", group.id)

    async def delete_group(self, group_id: UUID) -> None:
        await self.inner.delete_group(group_id)
        self._wrote("group", group_id)

    async def update_organization(self, org: Any) -> None:
        await self.inner.update_organization(org)
        self._wrote("organization", org.id)

    async def delete_organization(self, org_id: UUID) -> None:
        await self.inner.delete_organization(org_id)
        self._written.add(("organization", org_id))
        self._publish(REFERENCES_TOPIC, {"all": True})  # its groups went with it


_NONE = object()  # a scope known to have no policy


class CachedPolicies:
    """A `PolicyRepository` whose reads by scope go through the cache (issue 19: every
    admission reads its scope chain's policies); a change forgets them here at once and in
    other processes when its announcement arrives."""

    def __init__(self, inner: Any, cache: ReferenceCache, events: EventBus) -> None:
        self.inner = inner
        self.cache = cache
        self.events = events

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def get(self, scope: PolicyScope) -> ResourcePolicy | None:
        return (await self.for_scopes([scope])).get(scope)

    async def for_scopes(self, scopes: Sequence[PolicyScope]) -> Mapping[PolicyScope, ResourcePolicy]:
        found: dict[PolicyScope, ResourcePolicy] = {}
        missing = []
        for scope in scopes:
            kept = self.cache.get("policy", scope)
            if kept is None:
                missing.append(scope)
            elif kept is not _NONE:
                found[scope] = kept
        if missing:
            generation = self.cache.generation
            read = await self.inner.for_scopes(missing)
            for scope in missing:
                self.cache.put("policy", scope, read.get(scope, _NONE), generation)
            found.update(read)
        return found

    async def _changed(self) -> None:
        self.cache.forget(None, None)
        await _announce(self.events)

    async def put(self, policy: ResourcePolicy) -> None:
        try:
            await self.inner.put(policy)
        finally:
            await self._changed()

    async def delete(self, scope: PolicyScope) -> bool:
        try:
            return bool(await self.inner.delete(scope))
        finally:
            await self._changed()


class CachedBudgets:
    """A `BudgetRepository` whose reads by scope go through the cache (as `CachedPolicies`;
    the spend against a budget is read from the ledger each time, never kept)."""

    def __init__(self, inner: Any, cache: ReferenceCache, events: EventBus) -> None:
        self.inner = inner
        self.cache = cache
        self.events = events

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def for_scopes(self, scopes: Sequence[BudgetScope]) -> Sequence[Budget]:
        found: list[Budget] = []
        missing = []
        for scope in scopes:
            kept = self.cache.get("budgets", scope)
            if kept is None:
                missing.append(scope)
            else:
                found.extend(kept)
        if missing:
            generation = self.cache.generation
            read = list(await self.inner.for_scopes(missing))
            for scope in missing:
                self.cache.put("budgets", scope, tuple(b for b in read if b.scope == scope), generation)
            found.extend(read)
        return found

    async def _changed(self) -> None:
        self.cache.forget(None, None)
        await _announce(self.events)

    async def put(self, budget: Budget) -> Budget:
        try:
            return await self.inner.put(budget)  # type: ignore[no-any-return]
        finally:
            await self._changed()

    async def delete(self, budget_id: UUID) -> bool:
        try:
            return bool(await self.inner.delete(budget_id))
        finally:
            await self._changed()


async def _announce(events: EventBus) -> None:
    try:
        await events.publish(REFERENCES_TOPIC, {"all": True})
    except Exception:  # committed: other processes forget within `ttl` at the latest
        log.warning("a policy or budget change was not announced", exc_info=True)
