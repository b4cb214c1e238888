"""The actor cache: entries live `ttl` seconds, a user's change forgets them, and a resolution
that raced a change is not kept."""

from __future__ import annotations

from uuid import uuid4

from domain.tenancy.model import Actor
from domain.tenancy.services import user_topic
from infra.actor_cache import ActorCache


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_lives_ttl_seconds() -> None:
    clock = Clock()
    cache = ActorCache(10, clock=clock)
    actor = Actor(uuid4(), "ada")
    cache.put("gsp_secret", actor, cache.generation)
    assert cache.get("gsp_secret") is actor and cache.get("gsp_other") is None
    clock.now += 10
    assert cache.get("gsp_secret") is None


def test_a_committed_change_forgets_that_user_only() -> None:
    cache = ActorCache(10, clock=Clock())
    ada, bob = Actor(uuid4(), "ada"), Actor(uuid4(), "bob")
    cache.put("a", ada, cache.generation)
    cache.put("b", bob, cache.generation)
    cache.on_committed([("capacity", {}), (user_topic(ada.user_id), {"userId": str(ada.user_id)})])
    assert cache.get("a") is None and cache.get("b") is bob


def test_a_resolution_that_raced_a_change_is_not_kept() -> None:
    cache = ActorCache(10, clock=Clock())
    ada = Actor(uuid4(), "ada")
    started = cache.generation  # the request begins reading the database
    cache.forget_user(ada.user_id)  # meanwhile a change to ada commits
    cache.put("a", ada, started)
    assert cache.get("a") is None


def test_disabled_and_bounded() -> None:
    off = ActorCache(0, clock=Clock())
    off.put("a", Actor(uuid4(), "ada"), off.generation)
    assert off.get("a") is None
    small = ActorCache(10, max_entries=3, clock=Clock())
    for i in range(10):
        small.put(f"k{i}", Actor(uuid4(), f"u{i}"), small.generation)
    assert len(small._entries) <= 3 and small.get("k9") is not None


def test_secrets_are_not_kept_as_keys() -> None:
    cache = ActorCache(10, clock=Clock())
    cache.put("gsp_topsecret", Actor(uuid4(), "ada"), cache.generation)
    assert all("topsecret" not in key for key in cache._entries)
