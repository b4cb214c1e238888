"""The fragmentation-aware policy deciding before it has seen any request (a retry placed with
`observe=False` on a scheduler just built, as the queue does after a restart): no mix yet, so
every place loses nothing and the tighter fit wins, as for best fit."""

from __future__ import annotations

import pytest

from domain.inventory.model import GpuKind, SharingMode
from domain.scheduling.model import CPU_QUEUE, GpuRequest
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node, on_card

HAMI, TS, EXCL = SharingMode.HAMI, SharingMode.TIMESLICING, SharingMode.EXCLUSIVE


def _scheduler() -> Scheduler:
    s = Scheduler(
        inventory(
            node("cpu", HAMI, cpu=8_000, mem=32_768),
            node("hami", HAMI, card("g1"), card("g2")),
            node("x2", EXCL, card("e1"), card("e2")),
            node("x1", EXCL, card("e3")),
            node("ts", TS, card("t1", A30, 24576, replicas=2), card("t2", A30, 24576, replicas=4)),
            policy="fragmentation-aware",
        )
    )
    s.apply(on_card(GpuRequest("a", A100, vram_mib=40960, cores=50), "hami", "g2"))
    s.apply(on_card(GpuRequest("b", A100, vram_mib=8192, cores=10), "hami", "g1"))  # no whole card left there
    return s


def test_a_fraction_goes_to_the_tighter_card_before_any_request_was_seen() -> None:
    placed = _scheduler().place(GpuRequest("w", A100, vram_mib=20480, cores=25), observe=False)
    assert placed is not None
    assert (placed.placement.node_id, placed.placement.card_uuids) == ("hami", ("g2",))
    assert placed.placement.kind is GpuKind.HAMI


def test_whole_cards_go_to_the_node_left_with_fewest_before_any_request_was_seen() -> None:
    placed = _scheduler().place(GpuRequest("w", A100, exclusive_cards=1), observe=False)
    assert placed is not None
    assert (placed.placement.node_id, placed.placement.card_uuids) == ("x1", ("e3",))


def test_a_slice_goes_to_the_card_with_fewest_free_before_any_request_was_seen() -> None:
    placed = _scheduler().place(GpuRequest("w", A30, shared=True), observe=False)
    assert placed is not None
    assert (placed.placement.node_id, placed.placement.card_uuids) == ("ts", ("t1",))


def test_a_cpu_only_request_goes_to_the_cpu_node_before_any_request_was_seen() -> None:
    request = GpuRequest("w", CPU_QUEUE, cpu_only=True, cpu_millicores=4000, memory_mib=8192)
    placed = _scheduler().place(request, observe=False)
    assert placed is not None
    assert placed.placement.node_id == "cpu" and placed.placement.kind is None


def test_a_cpu_only_request_too_big_for_the_cpu_node_goes_to_the_tightest_gpu_node_before_any_request_was_seen() -> (
    None
):
    request = GpuRequest("w", CPU_QUEUE, cpu_only=True, cpu_millicores=16_000, memory_mib=8192)
    placed = _scheduler().place(request, observe=False)
    assert placed is not None
    # every GPU node has 64 CPUs and 500 GiB: the lowest-numbered one (nothing is locked out)
    assert placed.placement.node_id == "hami" and placed.placement.kind is None


@pytest.mark.parametrize("policy", ["best-fit", "first-fit", "gpu-packing", "fragmentation-aware"])
def test_a_cluster_without_the_model_is_passed_over(policy: str) -> None:
    # c1 has no A30 at all (no index of that model): the requests go to c2
    s = Scheduler(
        inventory(
            node("h1", HAMI, card("g1"), cluster="c1"),
            node("x2", EXCL, card("e1", A30, 24576), cluster="c2"),
            node("h2", HAMI, card("g2", A30, 24576), cluster="c2"),
            policy=policy,
            clusters=("c1", "c2"),
        )
    )
    whole = s.place(GpuRequest("a", A30, exclusive_cards=1))
    assert whole is not None and whole.placement.card_uuids == ("e1",)
    part = s.place(GpuRequest("b", A30, vram_mib=6144, cores=25))
    assert part is not None and part.placement.card_uuids == ("g2",)
