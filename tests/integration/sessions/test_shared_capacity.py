"""Several processes share capacity decisions cheaply (issue 14, part 4): two containers on one
database (two replicas' unit-of-work factories, each with its own cached scheduler) decide in
turn; each catches up with the other's decisions by applying their deltas instead of
rebuilding from every row, and what each then holds equals a rebuild from the rows; no card
is given twice. An inventory change still makes both rebuild."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from domain.inventory.model import Card, Cluster, Node, SharingMode
from domain.scheduling import services as scheduling
from domain.scheduling.model import GpuRequest

MODEL = "T4-shared-cap"


def _request(cluster: str) -> GpuRequest:
    return GpuRequest(
        str(uuid.uuid4()), MODEL, exclusive_cards=1, cpu_millicores=500, memory_mib=1024, clusters=frozenset({cluster})
    )


async def _decide(container: Any, change: Any) -> Any:
    async with container.uow() as uow:
        state = await uow.capacity.lock()
        result = change(state)
        await uow.capacity.save(state)
        await uow.commit()
    return result


async def _matches_the_rows(container: Any) -> tuple[dict[str, Any], list[Any]]:
    async with container.uow() as uow:
        state = await uow.capacity.lock()
        held = {a.workload_id: a.to_dict() for a in state.scheduler.allocations()}
        queue = [e.to_dict() for e in state.queue.entries()]
        fresh, _, _ = await uow.capacity._build()
        assert held == {a.workload_id: a.to_dict() for a in fresh.scheduler.allocations()}
        assert queue == [e.to_dict() for e in fresh.queue.entries()]
        await uow.commit()
    return held, queue


@pytest.fixture
async def replica_b(container: Any) -> Any:
    from infra.bootstrap import build_container
    from infra.settings import Settings

    b = build_container(Settings(database_url=container.database_url, demo=False), container.database_url)
    yield b
    await b.aclose()


async def test_two_processes_catch_up_by_deltas_and_never_double_book(container: Any, replica_b: Any) -> None:
    a, b = container, replica_b
    cluster = f"shared-{uuid.uuid4().hex[:6]}"
    nodes = [
        Node(f"{cluster}-{i}", f"n{i}", cluster, SharingMode.EXCLUSIVE, 16000, 65536,
             tuple(Card(f"GPU-{cluster}-{i}-{j}", MODEL, 16384) for j in range(2)))
        for i in range(3)
    ]  # fmt: skip
    async with a.uow() as uow:
        await uow.capacity.put_cluster(Cluster(cluster, cluster), "simulated")
        await uow.capacity.replace_nodes(cluster, nodes)
        await uow.commit()
    for x in (a, b):  # both caches current after the inventory change (a rebuild each)
        await _matches_the_rows(x)
    before = {id(x): (x.uow.capacity_cache.rebuilds, x.uow.capacity_cache.catch_ups) for x in (a, b)}

    # eight requests for six cards, alternating processes: six placed, two queued
    placed: list[str] = []
    for i in range(8):
        x = (a, b)[i % 2]
        admission = await _decide(x, lambda st: scheduling.admit(st.scheduler, st.queue, _request(cluster)))
        if admission.allocation is not None:
            placed.append(admission.allocation.workload_id)
    assert len(placed) == 6
    # b releases one that a placed: the first queued request gets the card
    await _decide(b, lambda st: scheduling.release(st.scheduler, st.queue, placed[0]))

    # (other tests' simulated clusters may still report in the background: compare ours)
    held_a, queue_a = await _matches_the_rows(a)
    held_b, queue_b = await _matches_the_rows(b)
    ours = {w: d for w, d in held_a.items() if d["placement"]["cluster_id"] == cluster}
    assert ours == {w: d for w, d in held_b.items() if d["placement"]["cluster_id"] == cluster}
    waiting = [e for e in queue_a if e["request"]["offering"] == MODEL]
    assert waiting == [e for e in queue_b if e["request"]["offering"] == MODEL] and len(waiting) == 1
    assert len(ours) == 6
    cards = [s["card_uuid"] for d in ours.values() for s in d["placement"]["shares"]]
    assert len(cards) == len(set(cards)) == 6  # no card given twice
    for x in (a, b):
        rebuilds, catch_ups = before[id(x)]
        assert x.uow.capacity_cache.rebuilds == rebuilds, "caught up by deltas, not rebuilt"
        assert x.uow.capacity_cache.catch_ups > catch_ups

    # an inventory change is no delta: both rebuild once
    async with a.uow() as uow:
        await uow.capacity.replace_nodes(cluster, [])
        await uow.commit()
    for x in (a, b):
        rebuilds = x.uow.capacity_cache.rebuilds
        await _matches_the_rows(x)
        assert x.uow.capacity_cache.rebuilds == rebuilds + 1
    async with a.uow() as uow:  # leave the shared database as it was
        state = await uow.capacity.lock()
        for w in list(ours) + [e["request"]["workload_id"] for e in waiting]:
            if state.scheduler.allocation(w) is not None:
                state.scheduler.release(w)
            elif w in state.queue:
                state.queue.remove(w)
        await uow.capacity.save(state)
        await uow.commit()
