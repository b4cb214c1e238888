"""Guarded sharing-mode and replica changes: the pre-check and the runbook plan."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from domain.common.errors import DomainError
from domain.inventory.changes import RUNBOOK_STEPS, plan_sharing_mode_change
from domain.inventory.errors import InventoryErrorCode
from domain.inventory.model import Card, CardShare, Cluster, GpuKind, Inventory, Node, Placement, SharingMode
from domain.scheduling.model import GpuRequest
from domain.scheduling.scheduler import Scheduler
from infra.cluster.simulated import load_inventory_yaml

A30 = "A30-24GB"


def test_switching_a_hami_node_to_time_slicing_plans_the_runbook() -> None:
    inv = load_inventory_yaml()
    s = Scheduler(inv)
    on_node = s.place(GpuRequest("w", "A100-80GB", vram_mib=20480, cores=25))
    assert on_node is not None and on_node.placement.node_id == "hami-a100-1"
    plan = plan_sharing_mode_change(
        inv, {a.workload_id: a.placement for a in s.allocations()}, "hami-a100-1", SharingMode.TIMESLICING, 2
    )
    assert plan.steps == RUNBOOK_STEPS
    assert plan.drain == ("w",)
    assert plan.new_node.sharing_mode is SharingMode.TIMESLICING
    assert all(c.timeslice_replicas == 2 for c in plan.new_node.cards)
    # the node keeps listing nvidia.com/gpu (and HAMi's resources) until they are removed
    assert "nvidia.com/gpu" in plan.stale_after


def test_lowering_replicas_below_what_is_allocated_is_refused() -> None:
    inv = load_inventory_yaml()
    s = Scheduler(inv)
    for i in range(10):
        assert s.place(GpuRequest(f"s{i}", A30, shared=True)) is not None
    allocations = {a.workload_id: a.placement for a in s.allocations()}
    with pytest.raises(DomainError) as short:
        plan_sharing_mode_change(inv, allocations, "a30-ts-1", SharingMode.TIMESLICING, 2)
    assert short.value.code is InventoryErrorCode.SHARING_CHANGE_SHARED_CAPACITY_SHORT
    assert "10 are allocated" in short.value.message
    plan = plan_sharing_mode_change(inv, allocations, "a30-ts-1", SharingMode.TIMESLICING, 3)
    assert plan.shared_total_before == 16 and plan.shared_total_after == 12
    assert len(plan.drain) == 10


def test_mig_cards_cannot_be_time_sliced_and_no_op_changes_are_refused() -> None:
    inv = load_inventory_yaml()
    with pytest.raises(DomainError) as mig:
        plan_sharing_mode_change(inv, {}, "h100-mig-1", SharingMode.TIMESLICING, 2)
    assert mig.value.code is InventoryErrorCode.SHARING_CHANGE_INVALID
    with pytest.raises(DomainError) as same:
        plan_sharing_mode_change(inv, {}, "hami-a100-1", SharingMode.HAMI)
    assert same.value.code is InventoryErrorCode.SHARING_CHANGE_INVALID


# ---------------------------------------------------------------- exact rules, on a small inventory

A30_CARD, L4 = ("A30-24GB", 24576), ("L4-24GB", 23034)


def card(uuid: str, model: tuple[str, int] = A30_CARD, replicas: int = 1) -> Card:
    return Card(uuid, model[0], model[1], timeslice_replicas=replicas)


def node(nid: str, mode: SharingMode, *cards: Card, cluster: str = "c1", **kw: Any) -> Node:
    return Node(nid, nid, cluster, mode, 32000, 131072, cards, **kw)


def shared(nid: str, uuid: str, cluster: str = "c1", kind: GpuKind = GpuKind.SHARED) -> Placement:
    return Placement(cluster, nid, kind, (CardShare(uuid, 6144, 25, timeslice=True),), Fraction(1, 4), 1000, 1024)


def small() -> Inventory:
    """c1: ts-a (2 A30 × 4 slices), ts-b (an L4 × 2 slices), hami-a (an A30); c2: ts-c (an A30 × 4)."""
    return Inventory(
        (Cluster("c1", "one"), Cluster("c2", "two")),
        (
            node("ts-a", SharingMode.TIMESLICING, card("a1", replicas=4), card("a2", replicas=4)),
            node("ts-b", SharingMode.TIMESLICING, card("l1", L4, replicas=2)),
            node("hami-a", SharingMode.HAMI, card("h1")),
            node("ts-c", SharingMode.TIMESLICING, card("c1", replicas=4), cluster="c2"),
        ),
    )


def refused(call: Any) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        call()
    return (err.value.code.value, err.value.field, err.value.message)


def test_only_time_slices_of_the_nodes_models_in_its_cluster_are_counted() -> None:
    allocations = {
        "s1": shared("ts-a", "a1"),
        "s2": shared("ts-b", "l1"),  # another model
        "s3": shared("hami-a", "h1", kind=GpuKind.HAMI),  # the model, but a HAMi share
        "s4": shared("ts-c", "c1", cluster="c2"),  # the model, another cluster
    }
    plan = plan_sharing_mode_change(small(), allocations, "ts-a", SharingMode.TIMESLICING, 3)
    assert (plan.shared_allocated, plan.shared_total_before, plan.shared_total_after) == (1, 8, 6)
    assert plan.drain == ("s1",) and plan.from_mode is plan.to_mode is SharingMode.TIMESLICING
    assert [c.timeslice_replicas for c in plan.new_node.cards] == [3, 3]
    # a cordoned time-slicing node offers no slices
    cordoned = small().replace_node(replace(small().node("ts-a"), cordoned=True))
    assert plan_sharing_mode_change(cordoned, {}, "hami-a", SharingMode.EXCLUSIVE).shared_total_before == 0


def test_a_change_may_leave_exactly_the_allocated_slices_and_no_fewer() -> None:
    allocations = {f"s{i}": shared("ts-a", "a1" if i % 2 else "a2") for i in range(6)}
    assert plan_sharing_mode_change(small(), allocations, "ts-a", SharingMode.TIMESLICING, 3).shared_total_after == 6
    assert refused(lambda: plan_sharing_mode_change(small(), allocations, "ts-a", SharingMode.TIMESLICING, 2)) == (
        "SHARING_CHANGE_SHARED_CAPACITY_SHORT",
        "replicas",
        "after the change the cluster would have 4 time-slices of A30-24GB but 6 are allocated; free some first",
    )
    # a change of mode is refused on the mode; every model of the node is named
    mixed = Inventory(
        (Cluster("c1", "one"),),
        (node("ts-m", SharingMode.TIMESLICING, card("m1", L4, replicas=2), card("m2", replicas=2)),),
    )
    four = {f"s{i}": shared("ts-m", "m1") for i in range(4)}
    assert refused(lambda: plan_sharing_mode_change(mixed, four, "ts-m", SharingMode.EXCLUSIVE)) == (
        "SHARING_CHANGE_SHARED_CAPACITY_SHORT",
        "mode",
        "after the change the cluster would have 0 time-slices of A30-24GB, L4-24GB but 4 are allocated; "
        "free some first",
    )


def test_a_change_that_takes_no_slices_away_is_not_refused_when_the_cluster_is_short_already() -> None:
    """ts-a cordoned still holds two slices: the cluster has 0 of 2, and switching the HAMi A30
    to exclusive changes nothing of that."""
    inv = small().replace_node(replace(small().node("ts-a"), cordoned=True))
    allocations = {"s1": shared("ts-a", "a1"), "s2": shared("ts-a", "a2")}
    plan = plan_sharing_mode_change(inv, allocations, "hami-a", SharingMode.EXCLUSIVE)
    assert (plan.shared_allocated, plan.shared_total_before, plan.shared_total_after) == (2, 0, 0)


def test_replicas_and_no_op_refusals_name_their_field() -> None:
    inv = small()
    assert refused(lambda: plan_sharing_mode_change(inv, {}, "ts-a", SharingMode.TIMESLICING, 0)) == (
        "SHARING_CHANGE_INVALID", "replicas", "replicas must be at least 1",
    )  # fmt: skip
    one = plan_sharing_mode_change(inv, {}, "ts-a", SharingMode.TIMESLICING, 1)
    assert [c.timeslice_replicas for c in one.new_node.cards] == [1, 1] and one.shared_total_after == 2
    assert refused(lambda: plan_sharing_mode_change(inv, {}, "ts-a", SharingMode.TIMESLICING, 4)) == (
        "SHARING_CHANGE_INVALID", "mode", "node ts-a already runs in timeslicing mode with these replicas",
    )  # fmt: skip
    # replicas left out keep the cards' own
    assert refused(lambda: plan_sharing_mode_change(inv, {}, "ts-a", SharingMode.TIMESLICING)) == (
        "SHARING_CHANGE_INVALID", "mode", "node ts-a already runs in timeslicing mode with these replicas",
    )  # fmt: skip
    demo = load_inventory_yaml()
    assert refused(lambda: plan_sharing_mode_change(demo, {}, "h100-mig-1", SharingMode.TIMESLICING, 2)) == (
        "SHARING_CHANGE_INVALID", "mode", "node h100-mig-1 has MIG cards; MIG and time-slicing do not mix on a card",
    )  # fmt: skip


def test_leaving_time_slicing_gives_every_card_one_replica_and_keeps_what_the_node_lists() -> None:
    inv = small()
    plan = plan_sharing_mode_change(inv, {}, "ts-a", SharingMode.EXCLUSIVE)
    assert [c.timeslice_replicas for c in plan.new_node.cards] == [1, 1]
    # nothing was reported: the node lists what its old mode served until relabelled
    assert plan.new_node.advertised_resources == {"nvidia.com/gpu.shared": 8}
    assert plan.stale_after == ("nvidia.com/gpu.shared",)
    reported = inv.replace_node(replace(inv.node("ts-a"), advertised_resources={"nvidia.com/gpu.shared": 8, "x": 1}))
    assert plan_sharing_mode_change(reported, {}, "ts-a", SharingMode.HAMI).new_node.advertised_resources == {
        "nvidia.com/gpu.shared": 8, "x": 1,
    }  # fmt: skip
    # a MIG node leaving exclusive for HAMi: its MIG cards keep one replica
    demo = load_inventory_yaml()
    mig = plan_sharing_mode_change(demo, {}, "h100-mig-1", SharingMode.HAMI)
    assert [c.timeslice_replicas for c in mig.new_node.cards] == [1, 1, 1, 1]
