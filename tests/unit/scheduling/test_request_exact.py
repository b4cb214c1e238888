"""A request's rules to the letter (issue 20): its mode, cards wanted, options and rates, each
refusal of `validate` in its words and on its field, its plain data, and what an allocation
costs an hour (what preempting it saves)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.inventory.model import CardShare, GpuKind, Placement
from domain.scheduling.errors import JobCapacityRefused, SchedulingError, SchedulingErrorCode
from domain.scheduling.model import (
    CPU_QUEUE,
    Allocation,
    GpuRequest,
    ModelChoice,
    RequestMode,
    exclusive_ratio,
    fraction_ratio,
    timeslice_ratio,
)
from tests.unit.scheduling.helpers import A30, A100

INVALID = SchedulingErrorCode.GPU_REQUEST_INVALID


def refusal(request: GpuRequest) -> tuple[SchedulingErrorCode, str, str | None]:
    with pytest.raises(SchedulingError) as error:
        request.validate()
    return error.value.code, error.value.message, error.value.field  # type: ignore[return-value]


def test_the_mode_follows_the_admins_kind_first_then_the_ask() -> None:
    assert GpuRequest("w", A100).mode is RequestMode.FRACTION
    assert GpuRequest("w", A100, shared=True).mode is RequestMode.SHARED
    assert GpuRequest("w", A100, exclusive_cards=1).mode is RequestMode.EXCLUSIVE
    assert GpuRequest("w", A100, exclusive_cards=2, shared=True).mode is RequestMode.EXCLUSIVE
    assert GpuRequest("w", A100, exclusive_cards=2, forced_kind=GpuKind.SHARED).mode is RequestMode.SHARED
    assert GpuRequest("w", A100, shared=True, forced_kind=GpuKind.EXCLUSIVE).mode is RequestMode.EXCLUSIVE
    assert GpuRequest("w", A100, exclusive_cards=1, forced_kind=GpuKind.MIG).mode is RequestMode.FRACTION
    assert GpuRequest("w", A100, shared=True, forced_kind=GpuKind.HAMI).mode is RequestMode.FRACTION
    assert GpuRequest("w", CPU_QUEUE, cpu_only=True, forced_kind=GpuKind.EXCLUSIVE).mode is RequestMode.CPU
    assert GpuRequest("w", A100, exclusive_cards=-1).mode is RequestMode.FRACTION


def test_cards_wanted_is_at_least_one_for_whole_cards_and_one_otherwise() -> None:
    assert GpuRequest("w", A100, exclusive_cards=3).cards_wanted == 3
    assert GpuRequest("w", A100, forced_kind=GpuKind.EXCLUSIVE).cards_wanted == 1
    assert GpuRequest("w", A100, exclusive_cards=3, forced_kind=GpuKind.SHARED).cards_wanted == 1
    assert GpuRequest("w", A100, vram_mib=1, cores=1).cards_wanted == 1


def test_options_rates_and_choices() -> None:
    plain = GpuRequest("w", A100, vram_mib=1024, cores=10, hourly_rate_micro=500)
    assert plain.options == (ModelChoice(A100, 1024, 10, 500),)
    assert GpuRequest("c", CPU_QUEUE, cpu_only=True).options == ()
    both = (ModelChoice(A30, 2048, 20, 300), ModelChoice(A100, 1024, 10, 900))
    several = GpuRequest("w", "class", vram_mib=5, cores=5, hourly_rate_micro=7, choices=both)
    assert several.options == both
    assert several.choice(A100) == both[1] and several.choice("H100") is None and several.choice(None) is None
    assert several.rate_for(A30) == 300
    assert several.rate_for(None) == 7  # the request's own rate when no model is known
    assert several.rate_for("H100") == 7


def test_each_refusal_of_validate_in_words_on_its_field() -> None:
    assert refusal(GpuRequest("w", A100, vram_mib=1, cores=1, cpu_millicores=-1)) == (
        INVALID,
        "CPU and memory cannot be negative",
        None,
    )
    assert refusal(GpuRequest("w", A100, vram_mib=1, cores=1, memory_mib=-1))[1] == "CPU and memory cannot be negative"
    cpu_words = (INVALID, "a CPU-only request asks for no GPU", "cpu_only")
    for extra in (
        {"exclusive_cards": 1},
        {"shared": True},
        {"vram_mib": 1},
        {"cores": 1},
        {"choices": (ModelChoice(A100),)},
        {"forced_kind": GpuKind.HAMI},
    ):
        assert refusal(GpuRequest("c", CPU_QUEUE, cpu_only=True, **extra)) == cpu_words  # type: ignore[arg-type]
    GpuRequest("c", CPU_QUEUE, cpu_only=True, cpu_millicores=0, memory_mib=0).validate()
    twice = (ModelChoice(A100, 1, 1), ModelChoice(A100, 2, 2))
    assert refusal(GpuRequest("w", "class", choices=twice)) == (INVALID, "a card model is listed twice", "choices")
    GpuRequest("w", "class", choices=(ModelChoice(A100, 1, 1), ModelChoice(A30, 1, 1))).validate()
    GpuRequest("w", "class", choices=(ModelChoice(A100, 1, 1),)).validate()
    assert refusal(GpuRequest("w", A100, exclusive_cards=-1, vram_mib=1, cores=1)) == (
        INVALID,
        "exclusive card count cannot be negative",
        "exclusive_cards",
    )
    assert refusal(GpuRequest("w", A100, vram_mib=0, cores=5)) == (
        INVALID,
        "a fractional GPU request needs a positive VRAM and core share",
        "vram_mib",
    )
    assert refusal(GpuRequest("w", A100, vram_mib=5, cores=0))[2] == "cores"
    assert refusal(GpuRequest("w", A100, vram_mib=1, cores=0))[2] == "cores"  # 1 MiB is a positive share
    assert refusal(GpuRequest("w", A100, vram_mib=-5, cores=5))[2] == "vram_mib"
    one_bad = (ModelChoice(A100, 1024, 10), ModelChoice(A30, 1024, 0))
    assert refusal(GpuRequest("w", "class", choices=one_bad))[2] == "cores"
    GpuRequest("w", A100, vram_mib=1, cores=1).validate()
    GpuRequest("w", A100, exclusive_cards=0, shared=True).validate()  # sizes count for fractions only


def test_a_job_is_refused_anything_but_whole_cards_in_words() -> None:
    def job(**kw: object) -> tuple[type, SchedulingErrorCode, str, str | None]:
        with pytest.raises(JobCapacityRefused) as error:
            GpuRequest("j", A100, is_job=True, **kw).validate()  # type: ignore[arg-type]
        e = error.value
        return type(e), e.code, e.message, e.field  # type: ignore[return-value]

    slices = (
        "jobs run on exclusive cards only: time-sliced GPUs share one card's "
        "memory without isolation, so a job is never placed on them"
    )
    assert job(shared=True) == (JobCapacityRefused, SchedulingErrorCode.JOB_TIMESLICE_REFUSED, slices, "shared")
    assert job(forced_kind=GpuKind.SHARED, exclusive_cards=1)[2:] == (slices, "forced_kind")
    mig = (
        "jobs run on exclusive cards only: a MIG instance cannot take part in "
        "multi-GPU (NCCL) training and a process can use only one instance"
    )
    assert job(forced_kind=GpuKind.MIG, vram_mib=1, cores=1) == (
        JobCapacityRefused,
        SchedulingErrorCode.JOB_MIG_REFUSED,
        mig,
        "forced_kind",
    )
    assert job(vram_mib=1, cores=1) == (
        JobCapacityRefused,
        SchedulingErrorCode.JOB_FRACTION_REFUSED,
        "jobs run on exclusive cards only: ask for one or more whole cards",
        "exclusive_cards",
    )
    assert job(forced_kind=GpuKind.HAMI, exclusive_cards=1)[1] is SchedulingErrorCode.JOB_FRACTION_REFUSED
    GpuRequest("j", A100, is_job=True, exclusive_cards=2).validate()
    GpuRequest("j", A100, is_job=True, forced_kind=GpuKind.EXCLUSIVE).validate()
    GpuRequest("j", CPU_QUEUE, is_job=True, cpu_only=True).validate()


def test_a_request_round_trips_through_plain_data_field_by_field() -> None:
    request = GpuRequest(
        "w",
        "class",
        vram_mib=1,
        cores=2,
        exclusive_cards=3,
        shared=True,
        cpu_millicores=4,
        memory_mib=5,
        priority=6,
        is_job=True,
        preemptible=True,
        clusters=frozenset({"b", "a"}),
        forced_kind=GpuKind.MIG,
        hourly_rate_micro=7,
        cpu_only=True,
        choices=(ModelChoice(A100, 8, 9, 10),),
    )
    data = request.to_dict()
    assert data == {
        "workload_id": "w",
        "offering": "class",
        "vram_mib": 1,
        "cores": 2,
        "exclusive_cards": 3,
        "shared": True,
        "cpu_millicores": 4,
        "memory_mib": 5,
        "priority": 6,
        "is_job": True,
        "preemptible": True,
        "clusters": ["a", "b"],
        "forced_kind": "mig",
        "hourly_rate_micro": 7,
        "cpu_only": True,
        "choices": [{"model": A100, "vram_mib": 8, "cores": 9, "hourly_rate_micro": 10}],
    }
    assert GpuRequest.from_dict(data) == request
    plain = GpuRequest("p", A100)
    assert plain.to_dict()["clusters"] is None and plain.to_dict()["forced_kind"] is None
    assert GpuRequest.from_dict({"workload_id": "p", "offering": A100}) == plain
    assert GpuRequest.from_dict(plain.to_dict()) == plain


def test_ratios_are_exact_fractions() -> None:
    assert fraction_ratio(20480, 10, 81920, 100) == Fraction(1, 4)
    assert fraction_ratio(8192, 40, 81920, 100) == Fraction(2, 5)
    assert exclusive_ratio(3) == Fraction(3)
    assert timeslice_ratio(4) == Fraction(1, 4)


def test_an_allocation_costs_the_placed_models_rate_times_its_ratio() -> None:
    choices = (ModelChoice(A30, 1, 1, 300), ModelChoice(A100, 1, 1, 900))
    request = GpuRequest("w", "class", hourly_rate_micro=50, choices=choices)
    share = (CardShare("g", 1, 1),)
    on_a100 = Allocation(request, Placement("c", "n", GpuKind.HAMI, share, Fraction(1, 3), 0, 0, A100))
    assert on_a100.hourly_cost_micro == Fraction(300)
    assert on_a100.workload_id == "w"
    unknown = Allocation(request, Placement("c", "n", GpuKind.HAMI, share, Fraction(1, 2), 0, 0))
    assert unknown.hourly_cost_micro == Fraction(25)
    data = on_a100.to_dict()
    assert data == {"request": request.to_dict(), "placement": on_a100.placement.to_dict()}
    assert Allocation.from_dict(data) == on_a100
