"""Issue 19, Must show 2: admissions decided together (group commit) decide exactly as the
same admissions decided one after the other, in the same order, from the same state: every
decision (placed, queued, refused and by which step with which numbers), every placement and
every hold, and the queue and the wallets after."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any
from uuid import UUID

from domain.credits.model import AccountRef
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.scheduling.model import Allocation
from domain.scheduling.queue import QueueEntry
from domain.sessions import services as s
from domain.sessions.errors import AdmissionRefused
from domain.sessions.model import SessionState as S
from tests.unit.sessions.world import C, Cluster1, Registry, SessionsWorld

# (who, preset): quarter cards (L), whole cards and CPU sessions from two users of G1. The
# member's 1 credit pays for one quarter card-hour (0.9): its later GPU asks are refused at
# step 6 (a queued one too: the wallet must be able to pay); G1 may run 9 sessions at once:
# the 10th and later are refused at step 4 (in series before the lock; in a batch under it,
# with the numbers of those decided before them); the two cards fill up and GPU asks queue.
BURST = [
    ("member", "L"), ("gadmin", "whole"), ("member", "whole"), ("gadmin", "L"), ("member", "L"),
    ("gadmin", "L"), ("member", "cpu"), ("gadmin", "whole"), ("gadmin", "L"), ("member", "L"),
    ("gadmin", "cpu"), ("gadmin", "L"), ("member", "cpu"), ("gadmin", "L"), ("gadmin", "whole"),
]  # fmt: skip


async def _world() -> SessionsWorld:
    w = await SessionsWorld.build(credits_=0)
    await w.fund("member", 1)
    await w.fund("gadmin", 20)
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), max_concurrent_sessions=9))
    return w


async def _create(w: SessionsWorld, i: int) -> Any:
    who, preset = BURST[i]
    try:
        return await s.session_create(w.svc, w.actor(who), w.request(preset, name=f"b{i}"))
    except AdmissionRefused as exc:
        return exc


async def _decisions(batched: bool) -> tuple[list[Any], list[Any], dict[str, Any], list[int]]:
    w = await _world()
    if batched:  # all at once: they gather while the first batch is decided
        outcomes = await asyncio.gather(*(_create(w, i) for i in range(len(BURST))))
    else:
        outcomes = [await _create(w, i) for i in range(len(BURST))]
    index = {o.id: i for i, o in enumerate(outcomes) if not isinstance(o, AdmissionRefused)}
    decisions = []
    for o in outcomes:
        if isinstance(o, AdmissionRefused):
            decisions.append(("refused", o.step, o.code, o.message))
            continue
        stored = w.state.sessions[o.id]
        hold = await w.ledger.get_hold(stored.hold_id) if stored.hold_id else None
        placement = None
        if stored.placement is not None:
            placement = {k: v for k, v in stored.placement.items() if k != "workload_id"}
        decisions.append(
            (
                stored.state,
                stored.state_reason,
                placement,
                stored.hold_seq,
                None if hold is None else (hold.amount_micro, hold.status, hold.idempotency_key.split(":")[2:]),
            )
        )
    placed = [Allocation.from_dict(a) for a in w.state.capacity.allocations]
    allocations = sorted((index[UUID(a.workload_id)], a.placement.card_uuids) for a in placed)
    queue = [index[UUID(QueueEntry.from_dict(e).workload_id)] for e in w.state.capacity.queue]
    balances = await w.ledger.balances([AccountRef.user(w.t.users[n].id) for n in ("member", "gadmin")])
    wallets = {str(a.owner_id == w.t.users["member"].id): (b.balance_micro, b.held_micro) for a, b in balances.items()}
    return decisions, [allocations, queue], wallets, list(w.svc.admissions.sizes)


async def test_a_burst_decided_in_batches_decides_as_in_series() -> None:
    serial, serial_capacity, serial_wallets, serial_sizes = await _decisions(batched=False)
    batched, batched_capacity, batched_wallets, batched_sizes = await _decisions(batched=True)
    assert set(serial_sizes) == {1}
    assert max(batched_sizes) > 1, batched_sizes  # they were decided together
    for i, (one, other) in enumerate(zip(serial, batched, strict=True)):
        assert one == other, (i, BURST[i])
    assert serial_capacity == batched_capacity
    assert serial_wallets == batched_wallets
    # the burst meant something: placed, queued, and refused at steps 4 and 6
    states = [d[0] for d in serial]
    assert {"refused"} < set(states) and len(set(states)) >= 3, states
    assert {d[1] for d in serial if d[0] == "refused"} == {4, 6}, serial
    assert serial_wallets["True"] == (C, int(Fraction(9, 10) * C))  # the member holds one quarter card-hour


class _TakesMany(Cluster1):
    """A cluster taking a batch's workloads in one call (`AppliesMany`); the second workload
    of its first call cannot be applied."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[UUID]] = []

    async def apply_many(self, specs: Any) -> list[Exception | None]:
        self.calls.append([spec.session_id for spec in specs])
        outcomes: list[Exception | None] = []
        for spec in specs:
            if len(self.calls) == 1 and len(outcomes) == 1:
                outcomes.append(RuntimeError("the API server refused it"))
            else:
                self.applied.append(spec)
                outcomes.append(None)
        return outcomes


async def test_a_batch_hands_its_sessions_off_in_one_call_and_a_failed_one_fails_alone() -> None:
    w = await SessionsWorld.build()
    cluster = _TakesMany()
    w.svc.clusters = Registry(cluster)
    made = await asyncio.gather(
        *(s.session_create(w.svc, w.actor("gadmin"), w.request("cpu", name=f"c{i}")) for i in range(8))
    )
    assert max(w.svc.admissions.sizes) > 1, w.svc.admissions.sizes
    handed = [sid for call in cluster.calls for sid in call]
    assert sorted(handed) == sorted(m.id for m in made)  # each once
    assert len(cluster.calls) < len(made)  # together: one call per batch
    failed = cluster.calls[0][1]
    for m in made:
        stored = w.state.sessions[m.id]
        if m.id == failed:
            assert stored.state is S.FAILED
            assert stored.state_reason == "step 8 (hand-off): the API server refused it"
        else:
            assert stored.state is S.SCHEDULED, (stored.state, stored.state_reason)
    placed = {Allocation.from_dict(a).workload_id for a in w.state.capacity.allocations}
    assert placed == {str(m.id) for m in made if m.id != failed}  # the failed one's place is freed
    assert [spec.session_id for spec in cluster.applied] == [sid for sid in handed if sid != failed]


class _OneByOne(Cluster1):
    """A cluster without `apply_many` (as the Kubernetes adapter): one call per workload."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = 0
        self.most_in_flight = 0

    async def apply(self, spec: Any) -> None:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0)  # an API call: the others of the batch go out meanwhile
        self.in_flight -= 1
        await super().apply(spec)


async def test_a_cluster_taking_one_workload_a_call_gets_a_batchs_calls_at_once() -> None:
    w = await SessionsWorld.build()
    cluster = _OneByOne()
    w.svc.clusters = Registry(cluster)
    made = await asyncio.gather(
        *(s.session_create(w.svc, w.actor("gadmin"), w.request("cpu", name=f"k{i}")) for i in range(8))
    )
    assert max(w.svc.admissions.sizes) > 1, w.svc.admissions.sizes
    assert sorted(spec.session_id for spec in cluster.applied) == sorted(m.id for m in made)
    assert cluster.most_in_flight > 1  # not one after the other
    assert all(w.state.sessions[m.id].state is S.SCHEDULED for m in made)
