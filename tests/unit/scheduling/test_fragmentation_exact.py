"""The fragmentation measure's pieces to the letter (issue 20): a request's task type, the
median of a type's CPU and memory, the mix's refresh schedule, its kept types and their
weights, the threshold points and entries of a refresh, and each loss and scarcity step at
its edges (domain/scheduling/fragmentation.py's docstrings)."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.inventory.model import GpuKind
from domain.scheduling.fragmentation import (
    MixView,
    RequestMix,
    TaskType,
    _median,
    fraction_loss,
    instance_loss,
    scarcity_step,
    share,
    slice_loss,
    task_type,
    whole_loss,
    whole_usable,
)
from domain.scheduling.model import CPU_QUEUE, GpuRequest, ModelChoice, RequestMode
from tests.unit.scheduling.helpers import A30, A100, VRAM_80G

FR, EX, SH, CPU = RequestMode.FRACTION, RequestMode.EXCLUSIVE, RequestMode.SHARED, RequestMode.CPU


def test_a_task_type_keeps_fraction_sizes_only_and_whole_cards_only_for_whole_card_requests() -> None:
    fraction = GpuRequest("w", A100, vram_mib=1024, cores=10, cpu_millicores=500, memory_mib=256, exclusive_cards=0)
    assert task_type(fraction) == TaskType(FR, ((A100, 1024, 10),), 0, 500, 256)
    whole = GpuRequest("w", A100, vram_mib=1024, cores=10, exclusive_cards=2)
    assert task_type(whole) == TaskType(EX, ((A100, 0, 0),), 2, 0, 0)
    forced = GpuRequest("w", A100, forced_kind=GpuKind.EXCLUSIVE)
    assert task_type(forced).cards == 1
    sliced = GpuRequest("w", A30, vram_mib=5, cores=5, shared=True, exclusive_cards=0)
    assert task_type(sliced) == TaskType(SH, ((A30, 0, 0),), 0, 0, 0)
    choices = (ModelChoice(A30, 2048, 20), ModelChoice(A100, 1024, 10))
    assert task_type(GpuRequest("w", "class", choices=choices)).sizes == ((A30, 2048, 20), (A100, 1024, 10))
    assert task_type(GpuRequest("c", CPU_QUEUE, cpu_only=True)).sizes == ()
    assert task_type(fraction).gpu_key == (FR, ((A100, 1024, 10),), 0)


def test_the_median_is_the_lower_middle_value_counted_with_repeats() -> None:
    assert _median(Counter({5: 1})) == 5
    assert _median(Counter({1: 1, 9: 1})) == 1  # two values: the lower
    assert _median(Counter({1: 1, 5: 1, 9: 1})) == 5
    assert _median(Counter({1: 2, 9: 1})) == 1
    assert _median(Counter({1: 1, 9: 2})) == 9
    assert _median(Counter({9: 1, 1: 1, 5: 2})) == 5  # read in sorted order
    assert _median(Counter()) == 0


def test_a_refresh_weighs_the_top_types_by_their_share_of_those_kept_with_median_cpu_and_memory() -> None:
    mix = RequestMix(top=2, refresh=4096)
    assert (mix.total, mix.version, mix.weights) == (0, 0, ())
    a = (FR, ((A100, 1024, 10),), 0)
    b = (EX, ((A100, 0, 0),), 1)
    c = (SH, ((A30, 0, 0),), 0)
    assert mix.count(a, 1000, 100) is True  # 1
    assert mix.version == 1 and mix.weights == ((1.0, TaskType(*a, 1000, 100)),)
    assert mix.count(b, 7, 7) is True  # 2
    assert mix.count(a, 3000, 300) is False  # 3
    assert mix.count(a, 2000, 500) is True  # 4: a ×3, b ×1
    assert mix.total == 4 and mix.version == 3
    assert mix.weights == ((0.75, TaskType(*a, 2000, 300)), (0.25, TaskType(*b, 7, 7)))
    for _ in range(4):
        mix.count(c, 1, 1)  # 5..8: c ×4 is the most common; only the top two are kept
    assert mix.weights == ((4 / 7, TaskType(*c, 1, 1)), (3 / 7, TaskType(*a, 2000, 300)))
    assert mix.version == 4


def test_the_refresh_comes_at_powers_of_two_below_the_period_then_every_period() -> None:
    mix = RequestMix(refresh=6)
    key = (FR, ((A100, 1, 1),), 0)
    refreshed = [i for i in range(1, 25) if mix.count(key, 0, 0)]
    assert refreshed == [1, 2, 4, 6, 12, 18, 24]
    assert mix.version == len(refreshed)
    at_the_period = RequestMix(refresh=4)
    assert [i for i in range(1, 10) if at_the_period.count(key, 0, 0)] == [1, 2, 4, 8]
    default = RequestMix()
    assert [i for i in range(1, 40) if default.observe(TaskType(FR, ((A100, 1, 1),), 0, 0, 0))] == [1, 2, 4, 8, 16, 32]


def test_the_default_mix_keeps_thirty_two_types() -> None:
    mix = RequestMix()
    for i in range(40):
        mix.count((FR, ((A100, i + 1, 1),), 0), 0, 0)
    mix_64 = [mix.count((FR, ((A100, 1, 1),), 0), 0, 0) for _ in range(24)]
    assert mix_64[-1] is True  # the 64th request refreshed
    assert len(mix.weights) == 32
    assert mix.weights[0][1].sizes == ((A100, 1, 1),)  # 25 of them: the most common first


def test_a_view_takes_the_cpu_and_memory_of_the_first_distinct_gpu_types_as_points() -> None:
    t1 = TaskType(FR, ((A100, 1024, 10), (A30, 2048, 20)), 0, 4000, 100)
    t2 = TaskType(EX, ((A100, 0, 0),), 2, 1000, 900)
    t3 = TaskType(SH, ((A30, 0, 0),), 0, 4000, 100)  # the same point as t1
    t4 = TaskType(FR, ((A100, 512, 5),), 0, 2000, 50)
    t5 = TaskType(FR, ((A100, 256, 5),), 0, 9000, 9)  # a fourth point: beyond max_points
    cpu = TaskType(CPU, (), 0, 500, 500)
    weights = ((0.3, t1), (0.2, cpu), (0.2, t2), (0.1, t3), (0.1, t4), (0.1, t5))
    view = MixView.of(7, weights)
    assert view.version == 7
    assert view.points == ((1000, 900), (2000, 50), (4000, 100))  # sorted
    assert view.types == (t1, cpu, t2, t3, t4, t5)
    assert view.popularity == (0.3, 0.2, 0.2, 0.1, 0.1, 0.1)
    assert view.by_model == {
        A100: (
            (0, FR, 1024, 10, 0, 2, 4000, 100),
            (2, EX, 0, 0, 2, 0, 1000, 900),
            (4, FR, 512, 5, 0, 1, 2000, 50),
            (5, FR, 256, 5, 0, -1, 9000, 9),
        ),
        A30: ((0, FR, 2048, 20, 0, 2, 4000, 100), (3, SH, 0, 0, 0, 2, 4000, 100)),
    }
    assert MixView.of(1, weights, max_points=1).points == ((4000, 100),)
    assert MixView.of(1, ()).points == () and MixView.of(1, ()).by_model == {}
    # the mask: bit j when free CPU or memory is below point j (equal is enough)
    assert view.mask(4000, 900) == 0
    assert view.mask(3999, 900) == 0b100
    assert view.mask(4000, 899) == 0b001
    assert view.mask(999, 49) == 0b111


def test_a_cards_share_is_the_larger_of_its_two_free_shares() -> None:
    assert share(50, 20480, 100, VRAM_80G) == 0.5
    assert share(10, 40960, 100, VRAM_80G) == 0.5
    assert share(30, 8192, 100, VRAM_80G) == 0.3
    assert whole_usable(7, 3) == 6 and whole_usable(2, 3) == 0 and whole_usable(3, 1) == 3


def test_each_loss_at_its_edges() -> None:
    half = (0, FR, 40960, 50, 0, -1, 0, 0)
    # a card exactly at the type's size can host it before; taking anything locks it out
    assert fraction_loss(half, 50, 40960, 1, 1, 100, VRAM_80G) == 0.5
    # just short in either dimension before: nothing lost
    assert fraction_loss(half, 49, 81920, 1, 1, 100, VRAM_80G) == 0.0
    assert fraction_loss(half, 100, 40959, 1, 1, 100, VRAM_80G) == 0.0
    # after exactly at the size: still hosts it, loses what was taken
    assert fraction_loss(half, 60, 40960 + 8192, 10, 8192, 100, VRAM_80G) == pytest.approx(0.1)
    assert fraction_loss(half, 60, 81920, 10, 0, 100, VRAM_80G) == pytest.approx(0.0)
    # other modes lose nothing on a fraction taken
    assert fraction_loss((0, EX, 0, 0, 1, -1, 0, 0), 100, 81920, 10, 8192, 100, VRAM_80G) == 0.0
    assert fraction_loss((0, SH, 0, 0, 0, -1, 0, 0), 100, 81920, 10, 8192, 100, VRAM_80G) == 0.0
    # whole cards: exclusive types lose their usable count's change, fractions the HAMi cards
    # taken whole, time-slice types nothing
    two = (0, EX, 0, 0, 2, -1, 0, 0)
    assert whole_loss(two, 4, 1, 1) == 2.0
    assert whole_loss(two, 5, 1, 1) == 0.0
    assert whole_loss(half, 4, 3, 1) == 1.0
    assert whole_loss((0, SH, 0, 0, 0, -1, 0, 0), 4, 1, 1) == 0.0
    # an instance exactly the type's size is lost whole; a size short in either dimension not
    assert instance_loss(half, 50, 40960, 100, VRAM_80G) == 0.5
    assert instance_loss(half, 49, 40960, 100, VRAM_80G) == 0.0
    assert instance_loss(half, 50, 40959, 100, VRAM_80G) == 0.0
    assert instance_loss(two, 100, 81920, 100, VRAM_80G) == 0.0
    # a slice: 1/replicas for time-slice types only
    assert slice_loss((0, SH, 0, 0, 0, -1, 0, 0), 4) == 0.25
    assert slice_loss(half, 4) == 0.0


def test_the_scarcity_step_is_half_octaves_of_one_over_the_capacity_with_hysteresis() -> None:
    assert scarcity_step(1.0, None) == 0
    assert scarcity_step(0.25, None) == 0  # at most one GPU left counts as one
    assert scarcity_step(4.0, None) == -4
    assert scarcity_step(2.0, None) == -2
    assert scarcity_step(8.0, None) == -6
    # x = -2·log2(3) ≈ -3.17: rounds to -3; within 0.75 of the previous step it stays
    assert scarcity_step(3.0, None) == -3
    assert scarcity_step(3.0, -3) == -3
    assert scarcity_step(3.0, -4) == -3  # 0.83 away: it moves
    # x = -2·log2(2.5) ≈ -2.64 rounds to -3, but 0.64 from a previous -2 it stays
    assert scarcity_step(2.5, -2) == -2
    assert scarcity_step(2.5, None) == -3
    assert scarcity_step(0.5, 1) == 0  # 1 away from x = 0: it moves


def test_a_step_exactly_three_quarters_away_moves() -> None:
    usable = 2**1.375  # x = -2·log2(usable) = -2.75 exactly
    assert scarcity_step(usable, -2) == -3
    assert scarcity_step(usable, -3) == -3


def test_the_medians_count_each_cpu_and_each_memory_over_all_requests_of_the_type() -> None:
    mix = RequestMix()
    key = (FR, ((A100, 1024, 10),), 0)
    # memory 500 twice (with two CPUs), 900 twice: the lower median is 500; CPU 100, 200,
    # 300 twice: 200
    for cpu, mem in ((100, 500), (200, 500), (300, 900), (300, 900)):
        mix.count(key, cpu, mem)
    assert mix.weights == ((1.0, TaskType(*key, 200, 500)),)
    other = RequestMix()
    for cpu, mem in ((1000, 100), (1000, 200), (3000, 300), (3000, 300)):
        other.count(key, cpu, mem)
    assert other.weights == ((1.0, TaskType(*key, 1000, 200)),)


def test_past_the_default_period_the_mix_refreshes_every_4096_requests() -> None:
    mix = RequestMix()
    key = (FR, ((A100, 1, 1),), 0)
    refreshed = [i for i in range(1, 8200) if mix.count(key, 0, 0)]
    assert refreshed[-3:] == [2048, 4096, 8192]
