"""The fragmentation measure (domain/scheduling/fragmentation.py) and the fragmentation-aware
policy's choices on worked examples: GPU shares, whole cards, CPU and memory."""

from __future__ import annotations

import pytest

from domain.inventory.model import SharingMode
from domain.scheduling.fragmentation import (
    MixView,
    RequestMix,
    TaskType,
    fraction_loss,
    instance_loss,
    task_type,
    whole_loss,
    whole_usable,
)
from domain.scheduling.model import CPU_QUEUE, GpuRequest, ModelChoice, RequestMode
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, VRAM_80G, card, inventory, node, on_card

HAMI, EXCL = SharingMode.HAMI, SharingMode.EXCLUSIVE
HALF = TaskType(RequestMode.FRACTION, ((A100, 40960, 50),), 0, 0, 0)
FOUR = TaskType(RequestMode.EXCLUSIVE, ((A100, 0, 0),), 4, 0, 0)


def frac(wid: str, vram: int, cores: int, cpu: int = 0, mem: int = 0) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores, cpu_millicores=cpu, memory_mib=mem)


def entry(kind: TaskType, p: float = 1.0) -> tuple[float, RequestMode, int, int, int, int, int, int]:
    view = MixView.of(1, ((p, kind),))
    return view.by_model[A100][0]


# -- the measure ---------------------------------------------------------------------------


def test_a_fraction_loses_what_it_takes_while_the_type_still_fits_and_the_whole_card_once_it_does_not() -> None:
    half = entry(HALF)
    # 60 % free → 55 % free: the half-card type still fits, it loses the 5 % taken
    assert fraction_loss(half, 60, 49152, 5, 4096, 100, VRAM_80G) == pytest.approx(0.05)
    # 60 % → 45 %: it no longer fits, the whole 60 % stops being usable for it
    assert fraction_loss(half, 60, 49152, 15, 12288, 100, VRAM_80G) == pytest.approx(0.6)
    # a card it could not use anyway loses it nothing
    assert fraction_loss(half, 40, 32768, 5, 4096, 100, VRAM_80G) == 0
    # VRAM left beside too few cores: the larger share counts
    assert fraction_loss(half, 55, 73728, 10, 4096, 100, VRAM_80G) == pytest.approx(0.9)


def test_whole_card_types_use_n_times_the_whole_requests_a_node_still_holds() -> None:
    assert [whole_usable(k, 4) for k in range(10)] == [0, 0, 0, 0, 4, 4, 4, 4, 8, 8]
    four = entry(FOUR)
    # taking one card from 5 free loses a 4-card request nothing, from 4 free it loses 4
    assert whole_loss(four, 5, 1, 0) == 0
    assert whole_loss(four, 4, 1, 0) == 4
    # fraction types lose the HAMi cards taken whole (one each), and nothing else here
    assert whole_loss(entry(HALF), 8, 2, 2) == 2
    assert whole_loss(entry(HALF), 8, 2, 0) == 0


def test_a_mig_instance_is_lost_whole_by_every_type_it_could_host() -> None:
    assert instance_loss(entry(HALF), 57, 40960, 100, VRAM_80G) == pytest.approx(0.57)
    assert instance_loss(entry(HALF), 28, 20480, 100, VRAM_80G) == 0


def test_a_node_class_is_the_set_of_cpu_and_memory_thresholds_it_is_below() -> None:
    small = TaskType(RequestMode.FRACTION, ((A100, 5120, 6),), 0, 4000, 16384)
    big = TaskType(RequestMode.EXCLUSIVE, ((A100, 0, 0),), 8, 64000, 262144)
    cpu_only = TaskType(RequestMode.CPU, (), 0, 96000, 1024)
    view = MixView.of(1, ((0.5, small), (0.3, big), (0.2, cpu_only)))
    assert view.points == ((4000, 16384), (64000, 262144))  # CPU-only types strand no GPU
    assert view.mask(128000, 512000) == 0
    assert view.mask(32000, 512000) == 0b10
    assert view.mask(2000, 512000) == 0b11
    assert view.mask(128000, 8192) == 0b11


def test_the_mix_keeps_the_most_popular_types_and_refreshes_on_a_schedule() -> None:
    mix = RequestMix(top=2, refresh=8)
    refreshed = []
    for i in range(1, 17):
        request = frac(f"w{i}", 40960, 50) if i % 4 else GpuRequest(f"e{i}", A100, exclusive_cards=4)
        refreshed.append(mix.observe(task_type(request)))
    # at every power of two below the period, then every 8 requests
    assert [i for i, r in enumerate(refreshed, 1) if r] == [1, 2, 4, 8, 16]
    assert mix.weights == ((0.75, HALF), (0.25, FOUR))
    cpu = task_type(GpuRequest("c", CPU_QUEUE, cpu_only=True, cpu_millicores=2000, memory_mib=4096))
    assert cpu == TaskType(RequestMode.CPU, (), 0, 2000, 4096)


# -- the policy ----------------------------------------------------------------------------


def _two_partly_used_cards(policy: str) -> Scheduler:
    """g1 keeps 56 cores / 45 GiB free, g2 keeps 52 cores / 42 GiB (the tighter fit)."""
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2")), policy=policy))
    s.apply(on_card(frac("a", 35840, 44), "n1", "g1"))
    s.apply(on_card(frac("b", 38912, 48), "n1", "g2"))
    for i in range(8):
        s.observe(frac(f"half{i}", 40960, 50))
    return s


def test_a_small_request_goes_where_it_keeps_room_for_the_popular_half_card_type() -> None:
    small = frac("w", 5120, 6)
    best = _two_partly_used_cards("best-fit").place(small)
    aware = _two_partly_used_cards("fragmentation-aware").place(small)
    assert best is not None and best.placement.card_uuids == ("g2",)  # tightest
    # on g2 the half-card type would no longer fit; on g1 it still does
    assert aware is not None and aware.placement.card_uuids == ("g1",)
    s = _two_partly_used_cards("fragmentation-aware")
    s.place(small)
    assert s.place(frac("h", 40960, 50)) is not None


def _nodes_with_seven_and_six_free(policy: str) -> Scheduler:
    s = Scheduler(
        inventory(
            node("seven", EXCL, *(card(f"a{i}") for i in range(7))),
            node("six", EXCL, *(card(f"b{i}") for i in range(6))),
            policy=policy,
        )
    )
    for i, n in enumerate((1, 1, 1, 2, 2, 4, 8) * 4):
        s.observe(GpuRequest(f"x{i}", A100, exclusive_cards=n))
    return s


@pytest.mark.parametrize("policy", ["best-fit", "fragmentation-aware"])
def test_a_single_card_comes_from_the_node_whose_odd_remainder_it_removes(policy: str) -> None:
    s = _nodes_with_seven_and_six_free(policy)
    one = s.place(GpuRequest("one", A100, exclusive_cards=1))
    assert one is not None
    # best fit takes the tightest node (six: 5 and 7 left); fragmentation-aware takes one
    # from seven (6 and 6 left), where no 2- or 4-card request could use the odd card
    assert one.placement.node_id == ("six" if policy == "best-fit" else "seven")
    placed = [s.place(GpuRequest(f"q{i}", A100, exclusive_cards=n)) for i, n in enumerate((4, 4, 2, 2))]
    assert all(p is not None for p in placed) is (policy == "fragmentation-aware")


def test_with_no_mix_learned_yet_the_policy_falls_back_to_best_fit() -> None:
    s = Scheduler(inventory(node("n1", HAMI, card("g1"), card("g2"), card("g3")), policy="fragmentation-aware"))
    s.apply(on_card(frac("a", 40960, 50), "n1", "g1"))
    s.apply(on_card(frac("b", 61440, 75), "n1", "g2"))
    placed = s.place(frac("w", 20480, 25), observe=False)
    assert placed is not None and placed.placement.card_uuids == ("g2",)


def _cpu_bound_nodes(policy: str) -> Scheduler:
    """Two 2-card HAMi nodes; `tight` has 20 CPUs left, `roomy` 64. The popular type is a
    whole card with 16 CPUs."""
    s = Scheduler(
        inventory(
            node("tight", HAMI, card("t0"), card("t1"), cpu=20_000),
            node("roomy", HAMI, card("r0"), card("r1"), cpu=64_000),
            policy=policy,
        )
    )
    for i in range(16):
        s.observe(GpuRequest(f"one{i}", A100, exclusive_cards=1, cpu_millicores=16_000))
    return s


def test_a_cpu_hungry_fraction_avoids_the_node_where_its_cpu_would_strand_the_gpus() -> None:
    hungry = frac("w", 10240, 12, cpu=8_000)
    # best fit ties on the cards and takes the first node; there its 8 CPUs leave 12, too
    # few for the popular one-card type: both of tight's cards would be stranded
    best = _cpu_bound_nodes("best-fit").place(hungry)
    aware = _cpu_bound_nodes("fragmentation-aware").place(hungry)
    assert best is not None and best.placement.node_id == "tight"
    assert aware is not None and aware.placement.node_id == "roomy"


def test_cpu_only_work_goes_to_cpu_nodes_first_then_where_it_strands_no_gpu() -> None:
    inv = inventory(
        node("gpu", HAMI, card("g0"), card("g1"), cpu=40_000),
        node("cpu", HAMI, cpu=16_000),
        node("gpu2", HAMI, card("h0"), cpu=64_000),
        policy="fragmentation-aware",
    )
    s = Scheduler(inv)
    for i in range(16):
        s.observe(GpuRequest(f"one{i}", A100, exclusive_cards=1, cpu_millicores=16_000))

    def cpu(wid: str, millicores: int) -> GpuRequest:
        return GpuRequest(wid, CPU_QUEUE, cpu_only=True, cpu_millicores=millicores, memory_mib=1024)

    first = s.place(cpu("c1", 12_000))
    assert first is not None and first.placement.node_id == "cpu" and first.placement.cpu_only
    # the CPU node is full now; 30 CPUs on `gpu` would leave 10 (its two cards stranded),
    # on `gpu2` 34 (its card still usable): gpu2, though `gpu` is the tighter fit
    second = s.place(cpu("c2", 30_000))
    assert second is not None and second.placement.node_id == "gpu2"


def test_a_class_request_takes_the_model_that_fragments_least() -> None:
    inv = inventory(
        node("a", HAMI, card("a0"), card("a1")),
        node("b", HAMI, card("b0", A30, 24576), card("b1", A30, 24576)),
        policy="fragmentation-aware",
    )
    s = Scheduler(inv)
    for i in range(16):  # the A100s are wanted whole
        s.observe(GpuRequest(f"one{i}", A100, exclusive_cards=2))
    either = GpuRequest(
        "w",
        "any-24g",
        vram_mib=0,
        cores=0,
        choices=(ModelChoice(A100, 20480, 25, 4_000_000), ModelChoice(A30, 12288, 50, 1_000_000)),
    )
    placed = s.place(either)
    assert placed is not None and placed.placement.model == A30
    assert placed.placement.shares[0].vram_mib == 12288
    assert placed.hourly_cost_micro == 1_000_000 * placed.placement.ratio


def test_the_same_observed_sequence_gives_the_same_placements() -> None:
    def placements() -> list[tuple[str, ...]]:
        inv = inventory(
            *(node(f"n{i}", HAMI, *(card(f"n{i}g{j}") for j in range(4))) for i in range(6)),
            policy="fragmentation-aware",
        )
        s = Scheduler(inv)
        out: list[tuple[str, ...]] = []
        for i in range(120):
            request = (
                frac(f"w{i}", (i * 7919) % 60 * 1024 + 2048, (i * 31) % 60 + 5, cpu=1000 * (i % 9))
                if i % 5
                else GpuRequest(f"w{i}", A100, exclusive_cards=1 + i % 3, cpu_millicores=4000)
            )
            placed = s.place(request)
            out.append(() if placed is None else placed.placement.card_uuids)
            if i % 7 == 6 and s.allocation(f"w{i - 3}") is not None:
                s.release(f"w{i - 3}")
        return out

    assert placements() == placements()
