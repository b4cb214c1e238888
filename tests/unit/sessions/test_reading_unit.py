"""Reading sessions on in-memory adapters: who may read a session and which organisation or
group a list may ask for, a session's log (live from its cluster, or kept from when its job
ended), and a cluster's listing of its workloads that lacks a running session's."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from domain.sessions import services as s
from domain.sessions.model import JobRun, SessionKind, SessionState
from domain.sessions.ports import SessionFilter
from tests.unit.sessions.test_lifecycle_unit import refusal, running
from tests.unit.sessions.world import Cluster1, Registry, SessionsWorld
from tests.unit.tenancy.world import NOW

S = SessionState


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


class LoggingCluster(Cluster1):
    """A cluster port that can read a container's log (what `log_tail` answers, or raises)."""

    def __init__(self, answer: str | Exception | None = "") -> None:
        super().__init__()
        self.answer = answer
        self.asked: list[tuple[UUID, int]] = []

    async def log_tail(self, session_id: UUID, lines: int) -> str | None:
        self.asked.append((session_id, lines))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def _with_port(w: SessionsWorld, port: Cluster1) -> None:
    w.svc.clusters = Registry(port)  # type: ignore[assignment]


async def test_a_session_is_read_by_who_may_see_it_and_not_found_for_anyone_else(w: SessionsWorld) -> None:
    x = await s.session_create(w.svc, w.actor("member"), w.request())
    async with w.svc.uow() as uow:
        for who in ("member", "gadmin", "orgadmin"):
            assert (await s.session_get(uow, w.actor(who), x.id)).id == x.id
        for actor in (w.t.foreign, w.actor("guest")):
            with pytest.raises(s.DomainError) as err:
                await s.session_get(uow, actor, x.id)
            assert (err.value.code.value, err.value.field, err.value.message) == (
                "NOT_FOUND",
                "id",
                "session not found",
            )
        with pytest.raises(s.DomainError) as gone:
            await s.session_get(uow, w.actor("member"), UUID(int=5))
        assert gone.value.message == "session not found"


async def test_a_list_may_ask_only_for_an_organisation_or_group_the_actor_sees(w: SessionsWorld) -> None:
    t = w.t
    async with w.svc.uow() as uow:
        member = w.actor("member")
        assert await s.sessions_filter(uow, member) == SessionFilter(owner_id=member.user_id)
        assert await s.sessions_filter(uow, member, organization_id=t.org_a.id) == SessionFilter(
            owner_id=member.user_id, organization_ids=frozenset({t.org_a.id})
        )
        running_only = frozenset({S.RUNNING})
        assert await s.sessions_filter(uow, member, group_id=t.g1.id, states=running_only) == SessionFilter(
            owner_id=member.user_id, group_ids=frozenset({t.g1.id}), states=running_only
        )
        admin = w.actor("orgadmin")
        assert await s.sessions_filter(uow, admin, organization_id=t.org_a.id, group_id=t.g2.id) == SessionFilter(
            group_ids=frozenset({t.g2.id})
        )
        assert await refusal(s.sessions_filter(uow, member, organization_id=t.org_b.id)) == (
            "NOT_FOUND", "organizationId", "organization not found",
        )  # fmt: skip
        for group_id in (t.h.id, UUID(int=77)):  # another organisation's group, and none at all
            assert await refusal(s.sessions_filter(uow, member, group_id=group_id)) == (
                "NOT_FOUND", "groupId", "group not found",
            )  # fmt: skip


async def test_the_chain_of_a_session_names_its_scopes(w: SessionsWorld) -> None:
    member = w.actor("member")
    chain = s._chain(member, w.t.g1.id, w.t.org_a.id)
    assert (chain.user_id, chain.group_id, chain.organization_id, chain.user_name) == (
        member.user_id, w.t.g1.id, w.t.org_a.id, "member",
    )  # fmt: skip
    named = s._chain(member, w.t.g1.id, w.t.org_a.id, ("someone", "G1", "Acme"))
    assert (named.user_name, named.group_name, named.organization_name) == ("someone", "G1", "Acme")


async def test_a_live_sessions_log_is_read_from_its_cluster(w: SessionsWorld) -> None:
    port = LoggingCluster("\n".join(f"l{i}" for i in range(150)))
    _with_port(w, port)
    x: Any = await running(w)
    whole = await s.session_log_tail(w.svc, w.actor("member"), x.id)
    assert whole == s.LogTail("\n".join(f"l{i}" for i in range(50, 150)), True)  # 100 lines unless asked
    assert await s.session_log_tail(w.svc, w.actor("gadmin"), x.id, lines=2) == s.LogTail("l148\nl149", True)
    assert port.asked == [(x.id, 100), (x.id, 2)]
    for lines in (1, s.MAX_LOG_LINES):
        assert (await s.session_log_tail(w.svc, w.actor("member"), x.id, lines=lines)).live
    for lines in (0, s.MAX_LOG_LINES + 1):
        assert await refusal(s.session_log_tail(w.svc, w.actor("member"), x.id, lines=lines)) == (
            "INVALID_VALUE", "lines", "1 to 1000 lines",
        )  # fmt: skip
    assert await refusal(s.session_log_tail(w.svc, w.t.foreign, x.id)) == ("NOT_FOUND", "id", "session not found")
    # every state in which a container may exist is read live
    for state in (S.SCHEDULED, S.STARTING, S.RUNNING, S.PAUSING, S.STOPPING):
        w.state.sessions[x.id] = replace(x, state=state)
        assert (await s.session_log_tail(w.svc, w.actor("member"), x.id, lines=1)) == s.LogTail("l149", True)


async def test_a_container_not_started_or_a_cluster_that_does_not_answer_is_said_in_words(w: SessionsWorld) -> None:
    port = LoggingCluster(None)
    _with_port(w, port)
    x: Any = await running(w)
    assert await s.session_log_tail(w.svc, w.actor("member"), x.id) == s.LogTail(
        "", True, "the container has not started yet"
    )
    port.answer = ConnectionError("refused")
    assert await s.session_log_tail(w.svc, w.actor("member"), x.id) == s.LogTail("", True, "the cluster did not answer")


async def test_an_ended_jobs_log_is_the_one_kept_and_otherwise_none_is_said_why(w: SessionsWorld) -> None:
    port = LoggingCluster("live")
    _with_port(w, port)
    x: Any = await running(w)
    kept = JobRun(log_tail="a\nb\nc", exit_code=1)
    w.state.sessions[x.id] = replace(x, state=S.FAILED, kind=SessionKind.JOB, job=kept)
    assert await s.session_log_tail(w.svc, w.actor("member"), x.id, lines=2) == s.LogTail("b\nc", False)
    w.state.sessions[x.id] = replace(x, state=S.FAILED, kind=SessionKind.JOB, job=JobRun())
    assert await s.session_log_tail(w.svc, w.actor("member"), x.id) == s.LogTail("", False, "no log: the job is FAILED")
    w.state.sessions[x.id] = replace(x, state=S.PAUSED)
    assert await s.session_log_tail(w.svc, w.actor("member"), x.id) == s.LogTail(
        "", False, "no log: the session is PAUSED"
    )
    # a live state on a cluster this control plane has no adapter for: nothing live to read
    w.state.sessions[x.id] = replace(x, cluster_id="gone")
    assert await s.session_log_tail(w.svc, w.actor("member"), x.id) == s.LogTail(
        "", False, "no log: the session is RUNNING"
    )
    assert port.asked == []


async def test_a_running_session_missing_from_its_clusters_listing_is_placed_again(w: SessionsWorld) -> None:
    x: Any = await running(w)  # RUNNING since NOW + 2 s
    listed_at = NOW + timedelta(seconds=40)
    w.t.clock.advance(40)
    # listed, or running for less than the grace, or changed since the listing: not judged
    assert await s.workloads_listed(w.svc, "c1", frozenset({x.id}), listed_at, grace_seconds=10) == []
    assert await s.workloads_listed(w.svc, "c1", frozenset(), listed_at, grace_seconds=38) == []
    assert await s.workloads_listed(w.svc, "c1", frozenset(), NOW + timedelta(seconds=2), grace_seconds=0) == []
    assert await s.workloads_listed(w.svc, "other", frozenset(), listed_at, grace_seconds=10) == []
    assert w.state.sessions[x.id].state is S.RUNNING
    assert await s.workloads_listed(w.svc, "c1", frozenset(), listed_at, grace_seconds=37) == [x.id]
    back = w.state.sessions[x.id]
    # its pod vanished: billed up to the listing, placed again at once, its hold kept
    assert back.billed_seconds == 38 and back.hold_id == x.hold_id
    assert back.state is S.SCHEDULED and back.placement is not None
    notes = [n.message for n in w.state.notifications.values() if n.kind == "session_replaced"]
    assert len(notes) == 1 and notes[0].startswith("session nb: its pod vanished; it is placed again on hami-1")
    # the same listing again: the session was placed after it, nothing moves
    assert await s.workloads_listed(w.svc, "c1", frozenset(), listed_at, grace_seconds=37) == []
