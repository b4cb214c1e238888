"""Read models over the capacity state: nodes with what runs on each (admins only), queue
rows and positions."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.common.errors import DomainError
from domain.inventory.model import SharingMode
from domain.scheduling.model import GpuRequest
from domain.scheduling.queue import GpuQueue
from domain.scheduling.scheduler import Scheduler
from domain.sessions import capacity_views as v
from domain.sessions.ports import CapacityState
from domain.tenancy.model import Actor, Role
from tests.unit.scheduling.helpers import A100, card, inventory, node

ADMIN = Actor(UUID(int=1), "ga", group_roles={UUID(int=5): Role.GROUP_ADMIN})
MEMBER = Actor(UUID(int=2), "m", group_roles={UUID(int=5): Role.MEMBER})


def state() -> CapacityState:
    inv = inventory(
        node("n1", SharingMode.HAMI, card("g1"), cpu=8000, mem=32000),
        node("n2", SharingMode.HAMI, card("g2"), cluster="c2"),
        clusters=("c1", "c2"),
    )
    s = Scheduler(inv)
    placed = s.place(GpuRequest("w1", A100, vram_mib=20480, cores=25, cpu_millicores=2000, memory_mib=4000))
    assert placed is not None and placed.placement.node_id == "n1"
    q = GpuQueue()
    for wid in ("q1", "q2"):
        q.enqueue(GpuRequest(str(UUID(int=int(wid[1]) + 100)), A100, exclusive_cards=4))
    q.enqueue(GpuRequest(str(UUID(int=200)), "H100", exclusive_cards=1))
    return CapacityState(s, q, {c.id: c for c in inv.clusters})


def test_nodes_with_what_runs_on_each_are_for_admins() -> None:
    st = state()
    views = v.nodes_view(st, ADMIN)
    assert [(n.node.id, n.cluster.id, [a.request.workload_id for a in n.allocations]) for n in views] == [
        ("n1", "c1", ["w1"]),
        ("n2", "c2", []),
    ]
    assert (views[0].free_cpu_millicores, views[0].free_memory_mib) == (6000, 28000)
    assert [n.node.id for n in v.nodes_view(st, ADMIN, "c2")] == ["n2"]
    assert v.node_view(st, ADMIN, "n2").node.id == "n2"
    with pytest.raises(DomainError) as missing:
        v.node_view(st, ADMIN, "n9")
    assert (missing.value.code.value, missing.value.field, missing.value.message) == (
        "NOT_FOUND",
        "id",
        "node not found",
    )
    with pytest.raises(DomainError) as denied:
        v.nodes_view(st, MEMBER)
    assert (denied.value.code.value, denied.value.message) == (
        "PERMISSION_DENIED",
        "only admins see clusters, nodes and cards",
    )


def test_queue_rows_and_positions() -> None:
    st = state()
    rows = v.queue_rows(st)
    assert [(r.entry.workload_id, r.position, r.length) for r in rows] == [
        (str(UUID(int=101)), 1, 2),
        (str(UUID(int=102)), 2, 2),
        (str(UUID(int=200)), 1, 1),
    ]
    assert [(r.entry.workload_id, r.position) for r in v.queue_rows(st, "H100")] == [(str(UUID(int=200)), 1)]
    second = v.queue_position(st, UUID(int=102))
    assert second is not None and (second.entry.workload_id, second.position, second.length) == (
        str(UUID(int=102)),
        2,
        2,
    )
    assert v.queue_position(st, UUID(int=999)) is None


def test_capacity_covers_one_cluster_or_all() -> None:
    from fractions import Fraction

    st = state()
    everything, one = v.capacity_view(st), v.capacity_view(st, "c2")
    assert [(t.model, t.ratio_used) for t in everything.totals] == [(A100, Fraction(1, 4))]
    assert [(t.model, t.ratio_used) for t in one.totals] == [(A100, Fraction(0))]
    from domain.inventory.bundles import InstanceBundle

    whole = InstanceBundle(A100, 1, 64000, 512000, 1)  # n2's whole card; n1's is shared
    assert v.bundles(st) == [whole] and v.bundles(st, "c2") == [whole] and v.bundles(st, "c1") == []


def test_the_capacity_rows_of_one_cluster_are_that_clusters_only() -> None:
    from domain.inventory.capacity import capacity_by_model, capacity_by_resource

    st = state()
    inv, placements = st.scheduler.inventory, st.scheduler.placements()
    everything, one = v.capacity_view(st), v.capacity_view(st, "c2")
    assert one.by_resource == capacity_by_resource(inv, placements, "c2") != everything.by_resource
    assert one.by_model == capacity_by_model(inv, placements, "c2") != everything.by_model
