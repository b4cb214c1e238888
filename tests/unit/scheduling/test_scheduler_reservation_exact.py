"""The node a blocked request waits for, for every kind of GPU ask (issue 20): how much a
node lacks in card shares (a HAMi card's missing VRAM and cores, a MIG instance big enough
free or taken, a time-slice, whole cards) plus its missing CPU and memory, the admin's kind
limiting the cards counted, ties to the lowest order; and the free MIG instances of a model."""

from __future__ import annotations

from fractions import Fraction

from domain.inventory.model import CardShare, GpuKind, Placement, SharingMode
from domain.scheduling.model import Allocation, GpuRequest
from domain.scheduling.scheduler import FreeSummary, Scheduler
from tests.unit.scheduling.helpers import A30, A100, VRAM_80G, card, inventory, node

HAMI, TS, EXCL = SharingMode.HAMI, SharingMode.TIMESLICING, SharingMode.EXCLUSIVE


def frac(wid: str, vram: int, cores: int, **kw: object) -> GpuRequest:
    return GpuRequest(wid, A100, vram_mib=vram, cores=cores, **kw)  # type: ignore[arg-type]


def world() -> Scheduler:
    return Scheduler(
        inventory(
            node("h", HAMI, card("g1")),
            node("m", EXCL, card("mig", mig=("1g.10gb", "2g.20gb"))),
            node("t", TS, card("t1", A30, 24576, replicas=2)),
            node("t2", TS, card("t2", A30, 24576, replicas=2)),
        )
    )


def hami(wid: str, vram: int, cores: int, cpu: int = 0) -> Allocation:
    share = CardShare("g1", vram, cores)
    return Allocation(frac(wid, vram, cores), Placement("c1", "h", GpuKind.HAMI, (share,), Fraction(1), cpu, 0))


def mig(wid: str, instance: str, vram: int, cores: int) -> Allocation:
    share = CardShare("mig", vram, cores, instance)
    return Allocation(frac(wid, vram, cores), Placement("c1", "m", GpuKind.MIG, (share,), Fraction(1), 0, 0))


def test_a_fraction_waits_for_the_card_or_instance_lacking_least() -> None:
    s = world()
    small = frac("w", 10240, 14)
    assert s.reservation(small) == frozenset({"h"})  # both lack nothing: the lower order
    s.apply(hami("a", VRAM_80G - 5120, 90))  # g1 keeps 5120 MiB and 10 cores
    # h lacks 5120/81920 + 4/100 = 0.1025 of a card, m's free 1g instance nothing
    assert s.reservation(small) == frozenset({"m"})
    s.apply(mig("b", "mig-m0", 10240, 14))
    assert s.reservation(small) == frozenset({"m"})  # the 2g instance, free, hosts it
    # an instance too small does not count: only the 2g one hosts 20 GiB
    assert s.reservation(frac("w", 20480, 28)) == frozenset({"m"})
    s.apply(mig("c", "mig-m1", 20480, 28))
    # m's instances are taken: the 1g one would give back 1/8 of the card, more than h lacks
    assert s.reservation(small) == frozenset({"h"})
    # h lacks 15360/81920 + 18/100 = 0.3675 of a card; m's 2g instance, taken, 1/4
    assert s.reservation(frac("w", 20480, 28)) == frozenset({"m"})
    # the admin's kind: HAMi only counts h's card, MIG only m's instances
    assert s.reservation(frac("w", 20480, 28, forced_kind=GpuKind.HAMI)) == frozenset({"h"})
    s.release("c")
    assert s.reservation(frac("w", 10240, 14, forced_kind=GpuKind.MIG)) == frozenset({"m"})
    s.release("a")
    assert s.reservation(frac("w", 10240, 14, forced_kind=GpuKind.MIG)) == frozenset({"m"})
    assert s.reservation(frac("w", 10240, 14)) == frozenset({"h"})


def test_missing_cpu_and_memory_count_in_shares_of_the_node() -> None:
    s = world()
    s.apply(hami("a", 1024, 1, cpu=48_000))  # h keeps 16 of 64 CPU
    # h lacks no card share but 16/64 of its CPU for 32 CPU; m's free 1g instance nothing
    assert s.reservation(frac("w", 10240, 14, cpu_millicores=32_000)) == frozenset({"m"})
    s.apply(mig("b", "mig-m0", 10240, 14))
    s.apply(mig("c", "mig-m1", 20480, 28))
    # m: 1/8 of its card taken; h: 16/64 of its CPU: m lacks less
    assert s.reservation(frac("w", 10240, 14, cpu_millicores=32_000)) == frozenset({"m"})
    # for 16 CPU h lacks nothing; m 1/8 of a card
    assert s.reservation(frac("w", 10240, 14, cpu_millicores=16_000)) == frozenset({"h"})


def test_a_time_slice_waits_for_a_card_with_a_slice_free_then_the_lowest_order() -> None:
    s = world()
    shared = GpuRequest("w", A30, shared=True)
    assert s.reservation(shared) == frozenset({"t"})
    for wid in ("a", "b"):
        placed = s.place(GpuRequest(wid, A30, shared=True))
        assert placed is not None and placed.placement.node_id == "t"
    assert s.reservation(shared) == frozenset({"t2"})
    s.place(GpuRequest("c", A30, shared=True))
    s.place(GpuRequest("d", A30, shared=True))
    assert s.reservation(shared) == frozenset({"t"})  # both full: each lacks a slice
    assert s.reservation(GpuRequest("w", "H100", shared=True)) == frozenset()


def test_whole_cards_are_waited_for_on_cards_given_whole_only() -> None:
    s = world()
    whole = GpuRequest("w", A100, exclusive_cards=1)
    assert s.reservation(whole) == frozenset({"h"})  # the MIG card is never given whole
    s.apply(hami("a", 1024, 1))
    assert s.reservation(whole) == frozenset({"h"})  # it lacks one card, and is the only one
    assert s.reservation(GpuRequest("w", A100, exclusive_cards=2)) == frozenset()


def test_free_mig_instances_are_counted_by_profile() -> None:
    s = Scheduler(
        inventory(
            node("m", EXCL, card("m1", mig=("1g.10gb", "1g.10gb", "2g.20gb")), card("m2", mig=("1g.10gb",))),
            node("n", EXCL, card("n1", mig=("3g.40gb",)), cluster="c2"),
            clusters=("c1", "c2"),
        )
    )
    assert s.free_summary(A100) == FreeSummary(A100, 0, 0, 0, 0, 0, {"1g.10gb": 3, "2g.20gb": 1, "3g.40gb": 1})
    assert s.free_summary(A100, "c2") == FreeSummary(A100, 0, 0, 0, 0, 0, {"3g.40gb": 1})
    placed = s.place(frac("w", 10240, 14, clusters=frozenset({"c1"})))
    assert placed is not None and placed.placement.shares[0].mig_instance_id == "m1-m0"
    assert s.free_summary(A100, "c1").mig_instances == {"1g.10gb": 2, "2g.20gb": 1}
    assert s.mig_tenant("m1-m0") == "w"


def _cpu_nodes(*free: tuple[int, int]) -> Scheduler:
    """CPU nodes of 8 CPU and 16 GiB, each with (CPU, memory) free as given."""
    s = Scheduler(inventory(*(node(f"c{i}", HAMI, cpu=8000, mem=16384) for i in range(len(free)))))
    for i, (cpu, mem) in enumerate(free):
        if cpu < 8000 or mem < 16384:
            taken = GpuRequest(f"t{i}", "cpu", cpu_only=True, cpu_millicores=8000 - cpu, memory_mib=16384 - mem)
            s.apply(Allocation(taken, Placement("c1", f"c{i}", None, (), Fraction(0), 8000 - cpu, 16384 - mem)))
    return s


def test_missing_cpu_and_memory_are_each_a_share_of_the_node_added() -> None:
    cpu = GpuRequest("w", "cpu", cpu_only=True, cpu_millicores=4000, memory_mib=8192)
    # c0 lacks 2 of 8 CPU (0.25), c1 8 of 16 GiB (0.5)
    assert _cpu_nodes((2000, 16384), (8000, 0)).reservation(cpu) == frozenset({"c0"})
    # c0 lacks 4 of 16 GiB (0.25), c1 4 of 8 CPU (0.5)
    assert _cpu_nodes((8000, 4096), (0, 16384)).reservation(cpu) == frozenset({"c0"})
    # c0 lacks memory only, c1 nothing
    assert _cpu_nodes((8000, 4096), (8000, 16384)).reservation(cpu) == frozenset({"c1"})
    # c0 lacks one millicore, c1 nothing; c0 one MiB, c1 nothing
    assert _cpu_nodes((3999, 16384), (8000, 16384)).reservation(cpu) == frozenset({"c1"})
    assert _cpu_nodes((8000, 8191), (8000, 16384)).reservation(cpu) == frozenset({"c1"})


def test_a_cordoned_or_too_small_first_node_does_not_end_the_look() -> None:
    cpu = GpuRequest("w", "cpu", cpu_only=True, cpu_millicores=4000, memory_mib=8192)
    s = _cpu_nodes((8000, 16384), (8000, 16384))
    s.set_cordoned("c0", True)
    assert s.reservation(cpu) == frozenset({"c1"})
    small = Scheduler(inventory(node("c0", HAMI, cpu=2000, mem=16384), node("c1", HAMI, cpu=8000, mem=16384)))
    assert small.reservation(cpu) == frozenset({"c1"})
