"""The queue's exact refusals, its change counter (a store re-writes its copy only when the
version moved) and the plain data of a request's model choices."""

from __future__ import annotations

import pytest

from domain.common.errors import DomainError
from domain.scheduling.model import GpuRequest, ModelChoice
from domain.scheduling.queue import GpuQueue


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
