"""The queue's exact refusals, its change counter (a store re-writes its copy only when the
version moved) and the plain data of a request's model choices."""

from __future__ import annotations

import pytest

from domain.common.errors import DomainError
from domain.inventory.model import Card, Cluster, Inventory, Node, SharingMode
from domain.scheduling.model import GpuRequest, ModelChoice
from domain.scheduling.queue import GpuQueue, QueuePosition
from domain.scheduling.scheduler import Scheduler
from domain.scheduling.services import admit


def refusal(call: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        call()  # type: ignore[operator]
    return (err.value.code.value, err.value.field, err.value.message)


def test_queue_refusals_name_the_workload() -> None:
    q = GpuQueue()
    q.enqueue(GpuRequest("w1", "L4", exclusive_cards=1))
    assert refusal(lambda: q.enqueue(GpuRequest("w1", "L4", exclusive_cards=1))) == (
        "QUEUE_ENTRY_DUPLICATE", "workload_id", "workload w1 is already queued",
    )  # fmt: skip
    unknown = ("QUEUE_ENTRY_UNKNOWN", "workload_id", "workload w9 is not queued")
    assert refusal(lambda: q.remove("w9")) == unknown
    assert refusal(lambda: q.position("w9")) == unknown
    assert len(q) == 1 and "w1" in q


def test_the_version_moves_once_per_change_and_starts_at_zero() -> None:
    q = GpuQueue()
    assert q.version == 0
    q.enqueue(GpuRequest("w1", "L4", exclusive_cards=1))
    q.enqueue(GpuRequest("w2", "A100", exclusive_cards=1))
    assert q.version == 2
    q.remove("w1")
    assert q.version == 3
    with pytest.raises(DomainError):
        q.remove("w1")  # refused: nothing changed
    assert q.version == 3
    loaded = GpuQueue.from_dict(q.to_dict())
    assert ([e.workload_id for e in loaded.entries()], loaded.version) == (["w2"], 1)
    assert (len(GpuQueue.from_dict({})), GpuQueue.from_dict({}).version) == (0, 0)


def test_a_model_choice_in_plain_data() -> None:
    choice = ModelChoice("L4", 11517, 50, 900_000)
    data = {"model": "L4", "vram_mib": 11517, "cores": 50, "hourly_rate_micro": 900_000}
    assert choice.to_dict() == data and ModelChoice.from_dict(data) == choice
    assert ModelChoice.from_dict({"model": "L4"}) == ModelChoice("L4", 0, 0, 0)


def _one_card() -> Scheduler:
    cards = (Card("g1", "L4", 23034),)
    return Scheduler(Inventory((Cluster("c", "c"),), (Node("n", "n", "c", SharingMode.EXCLUSIVE, 8000, 16384, cards),)))


def test_an_arrival_behind_a_waiting_head_keeps_the_arrival_it_is_given() -> None:
    """A request re-admitted with its first arrival (e.g. one resumed) goes where that puts it."""
    s, q = _one_card(), GpuQueue()
    assert admit(s, q, GpuRequest("running", "L4", exclusive_cards=1)).allocation is not None
    head = admit(s, q, GpuRequest("head", "L4", exclusive_cards=1), arrival=10)
    assert head.queued == QueuePosition("L4", 1, 1)
    early = admit(s, q, GpuRequest("early", "L4", exclusive_cards=1), arrival=5)
    assert (early.allocation, early.queued, early.preempted, early.also_admitted) == (
        None, QueuePosition("L4", 1, 2), (), (),
    )  # fmt: skip
    late = admit(s, q, GpuRequest("late", "L4", exclusive_cards=1, priority=-1), arrival=1)
    assert late.queued == QueuePosition("L4", 3, 3)  # a lower priority waits behind, whatever its arrival


def test_a_request_waiting_for_another_offering_does_not_hold_this_one_back() -> None:
    """An A100 request waits at priority 9; an L4 request of priority 5 is judged on its own
    offering: the card is free, so it is placed; taken by preemptible work, that is preempted."""
    s, q = _one_card(), GpuQueue()
    assert admit(s, q, GpuRequest("a100", "A100", exclusive_cards=1, priority=9)).queued is not None
    now = admit(s, q, GpuRequest("l4", "L4", exclusive_cards=1, priority=5))
    assert now.allocation is not None and now.allocation.placement.node_id == "n"
    s, q = _one_card(), GpuQueue()
    assert admit(s, q, GpuRequest("spare", "L4", exclusive_cards=1, preemptible=True)).allocation is not None
    assert admit(s, q, GpuRequest("a100", "A100", exclusive_cards=1, priority=9)).queued is not None
    urgent = admit(s, q, GpuRequest("urgent", "L4", exclusive_cards=1, priority=5))
    assert urgent.allocation is not None and [v.workload_id for v in urgent.preempted] == ["spare"]
    assert sorted(e.workload_id for e in q.entries()) == ["a100", "spare"]
