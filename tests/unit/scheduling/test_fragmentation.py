"""The fragmentation measure (domain/scheduling/fragmentation.py) and the fragmentation-aware
policy's choices on worked examples; the benchmark's unallocatable-GPU count on a small run."""

from __future__ import annotations

import pytest

from domain.inventory.model import SharingMode
from domain.scheduling.fragmentation import (
    RequestMix,
    Weights,
    card_fragmentation,
    request_type,
    whole_cards_fragmentation,
)
from domain.scheduling.model import GpuRequest, RequestMode
from domain.scheduling.scheduler import Scheduler
from tests.bench.placement import build_inventory, fill
from tests.unit.scheduling.helpers import A100, VRAM_80G, card, inventory, node, on_card

HAMI, EXCL = SharingMode.HAMI, SharingMode.EXCLUSIVE
HALF = (RequestMode.FRACTION, 40960, 50, 0)  # half a card
SMALL = (RequestMode.FRACTION, 5120, 6, 0)
ONE, FOUR = (RequestMode.EXCLUSIVE, 0, 0, 1), (RequestMode.EXCLUSIVE, 0, 0, 4)


def frac(wid: str, vram: int, cores: int) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores)


# -- the measure ---------------------------------------------------------------------------


def test_free_capacity_a_type_can_use_is_no_fragment_and_what_it_cannot_use_all_is() -> None:
    weights: Weights = ((0.75, HALF), (0.25, SMALL))
    # 60 % free: both types fit
    assert card_fragmentation(60, 49152, 100, VRAM_80G, weights) == 0
    # 40 % free: the half-card type cannot use it; counted at 0.4 card with its popularity
    assert card_fragmentation(40, 32768, 100, VRAM_80G, weights) == pytest.approx(0.75 * 0.4)
    # VRAM left beside too few cores: nothing fits, the larger share (the VRAM) is stranded
    assert card_fragmentation(4, 40960, 100, VRAM_80G, weights) == pytest.approx(1.0 * 0.5)
    assert card_fragmentation(0, 0, 100, VRAM_80G, weights) == 0


def test_a_partly_used_card_is_fragmentation_for_whole_card_types_and_a_whole_one_is_not() -> None:
    weights: Weights = ((0.5, ONE), (0.5, HALF))
    assert card_fragmentation(100, VRAM_80G, 100, VRAM_80G, weights) == 0
    assert card_fragmentation(90, 73728, 100, VRAM_80G, weights) == pytest.approx(0.5 * 0.9)


def test_whole_free_cards_left_over_by_n_card_requests_are_fragmentation() -> None:
    weights: Weights = ((0.5, ONE), (0.5, FOUR))
    assert [whole_cards_fragmentation(k, weights) for k in range(9)] == [
        0,
        0.5,  # one card: no 4-card request fits
        1.0,
        1.5,
        0,  # exactly one 4-card request
        0.5,
        1.0,
        1.5,
        0,  # two
    ]


def test_the_mix_keeps_the_most_popular_types_and_refreshes_on_a_schedule() -> None:
    mix = RequestMix(top=2, refresh=8)
    refreshed = []
    for i in range(1, 17):
        request = frac(f"w{i}", 40960, 50) if i % 4 else GpuRequest(f"e{i}", A100, exclusive_cards=4)
        refreshed.append(mix.observe(request))
    # at every power of two, then every 8 requests
    assert [i for i, r in enumerate(refreshed, 1) if r] == [1, 2, 4, 8, 16]
    assert mix.weights == ((0.75, HALF), (0.25, FOUR))
    assert request_type(GpuRequest("s", A100, shared=True)) == (RequestMode.SHARED, 0, 0, 0)


# -- the policy ----------------------------------------------------------------------------


def _two_partly_used_cards(policy: str) -> Scheduler:
    """g1 keeps 56 cores / 45 GiB free, g2 keeps 52 cores / 42 GiB (the tighter fit)."""
    s = Scheduler(
        inventory(node("n1", HAMI, card("g1"), card("g2")), policy=policy),
        [on_card(frac("a", 35840, 44), "n1", "g1"), on_card(frac("b", 38912, 48), "n1", "g2")],
    )
    for i in range(8):
        s.observe(frac(f"half{i}", 40960, 50))
    return s


def test_a_small_request_goes_where_it_keeps_room_for_the_popular_half_card_type() -> None:
    small = frac("w", 5120, 6)
    best = _two_partly_used_cards("best-fit").place(small)
    aware = _two_partly_used_cards("fragmentation-aware").place(small)
    assert best is not None and best.placement.card_uuids == ("g2",)  # tightest
    # on g2 the half-card type would no longer fit (ΔF > 0); on g1 it still does (ΔF = 0)
    assert aware is not None and aware.placement.card_uuids == ("g1",)
    # and so the next half-card request still finds room
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
    for i, n in enumerate((1, 1, 1, 2, 2, 4, 8) * 4):  # the benchmark's whole-card sizes
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
    inv = inventory(node("n1", HAMI, card("g1"), card("g2"), card("g3")), policy="fragmentation-aware")
    allocations = [on_card(frac("a", 40960, 50), "n1", "g1"), on_card(frac("b", 61440, 75), "n1", "g2")]
    s = Scheduler(inv, allocations)
    placed = s.place(frac("w", 20480, 25), observe=False)
    assert placed is not None and placed.placement.card_uuids == ("g2",)


def test_the_same_observed_sequence_gives_the_same_placements() -> None:
    def placements() -> list[tuple[str, ...]]:
        s = Scheduler(build_inventory(6, 8, "fragmentation-aware"))
        out: list[tuple[str, ...]] = []
        for i in range(120):
            request = (
                frac(f"w{i}", (i * 7919) % 60 * 1024 + 2048, (i * 31) % 60 + 5)
                if i % 5
                else GpuRequest(f"w{i}", A100, exclusive_cards=1 + i % 3)
            )
            placed = s.place(request)
            out.append(() if placed is None else placed.placement.card_uuids)
            if i % 7 == 6 and s.allocation(f"w{i - 3}") is not None:
                s.release(f"w{i - 3}")
        return out

    assert placements() == placements()


# -- the benchmark's count ------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["best-fit", "fragmentation-aware"])
def test_unallocatable_gpus_count_each_free_gpu_once(policy: str) -> None:
    result = fill(build_inventory(20, 8, policy), seed=11)
    assert 0 <= result.unallocatable <= result.refused_with_room + 1e-9
    assert 0 <= result.unallocatable_per_card <= result.unallocatable + 1e-9
