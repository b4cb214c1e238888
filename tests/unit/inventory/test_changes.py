"""Guarded sharing-mode and replica changes: the pre-check and the runbook plan."""

from __future__ import annotations

import pytest

from domain.common.errors import DomainError
from domain.inventory.changes import RUNBOOK_STEPS, plan_sharing_mode_change
from domain.inventory.errors import InventoryErrorCode
from domain.inventory.model import SharingMode
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
