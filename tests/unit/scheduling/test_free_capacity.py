"""The free capacity each task type could still use in a cluster (what the fragmentation-aware
policy's scarcity weights are read from): `_cluster_usable` sums the index buckets, and
`_FreeCapacity` must give the same numbers for every type of a mix at once."""

from __future__ import annotations

import pytest

from domain.inventory.model import SharingMode
from domain.scheduling.fragmentation import Entry, TaskType
from domain.scheduling.index import NodeState
from domain.scheduling.model import GpuRequest, RequestMode
from domain.scheduling.policies import _FULL as FULL
from domain.scheduling.policies import FragmentationAware, _cluster_usable, _FreeCapacity, _has_free, _node_usable
from domain.scheduling.scheduler import Scheduler
from tests.unit.scheduling.helpers import A30, A100, card, inventory, node, on_card

HAMI, TS, EXCL = SharingMode.HAMI, SharingMode.TIMESLICING, SharingMode.EXCLUSIVE
FRACTION, EXCLUSIVE, SHARED = RequestMode.FRACTION, RequestMode.EXCLUSIVE, RequestMode.SHARED


def _scheduler() -> Scheduler:
    s = Scheduler(
        inventory(
            # g1 half used (0.5 free), g2 untouched
            node("hami", HAMI, card("g1"), card("g2")),
            # a MIG card: 3g.40gb (42 % of the cores, 40 GiB: 0.5 of a card) and 1g.10gb (14 %, 10 GiB: 0.14)
            node("mig", EXCL, card("m", mig=("3g.40gb", "1g.10gb"))),
            node("excl", EXCL, card("e1"), card("e2"), card("e3")),
            # four slices of an A30, one taken below
            node("ts", TS, card("t1", A30, 24576, replicas=4)),
        )
    )
    half = GpuRequest("a", A100, vram_mib=40960, cores=50)
    s.apply(on_card(half, "hami", "g1"))
    taken = s.place(GpuRequest("t", A30, shared=True))
    assert taken is not None and taken.placement.card_uuids == ("t1",)
    return s


def _kind(mode: RequestMode, sizes: tuple[tuple[str, int, int], ...], cards: int = 0) -> TaskType:
    return TaskType(mode, sizes, cards, 0, 0)


CASES = [
    # fractions: every HAMi card and free MIG instance that covers both the VRAM and the cores
    (_kind(FRACTION, ((A100, 10240, 12),)), 0.5 + 1.0 + 0.5 + 0.14),
    (_kind(FRACTION, ((A100, 10240, 14),)), 0.5 + 1.0 + 0.5 + 0.14),
    (_kind(FRACTION, ((A100, 10240, 15),)), 0.5 + 1.0 + 0.5),  # the 1g's 14 % of the cores is short
    (_kind(FRACTION, ((A100, 10241, 12),)), 0.5 + 1.0 + 0.5),  # and so is its 10 GiB
    (_kind(FRACTION, ((A100, 40960, 42),)), 0.5 + 1.0 + 0.5),
    (_kind(FRACTION, ((A100, 40960, 51),)), 1.0),  # only the untouched card has 51 % of the cores
    (_kind(FRACTION, ((A100, 40961, 10),)), 1.0),  # and more than half the VRAM
    (_kind(FRACTION, ((A30, 1024, 1),)), 0.0),  # A30s here are time-sliced only
    (_kind(FRACTION, (("H100-80GB", 1024, 1),)), 0.0),  # a model the cluster has none of
    (_kind(FRACTION, ((A100, 40960, 42), ("H100-80GB", 1024, 1))), 2.0),
    (_kind(FRACTION, (("H100-80GB", 1024, 1), (A100, 40960, 42))), 2.0),  # an unknown model first
    # whole cards: n·⌊k/n⌋ of each node's untouched cards (g2 is one)
    (_kind(EXCLUSIVE, ((A100, 0, 0),), 1), 4.0),
    (_kind(EXCLUSIVE, ((A100, 0, 0),), 2), 2.0),
    (_kind(EXCLUSIVE, ((A100, 0, 0),), 3), 3.0),
    (_kind(EXCLUSIVE, ((A100, 0, 0),), 4), 0.0),
    (_kind(EXCLUSIVE, ((A30, 0, 0),), 1), 0.0),  # A30s here are time-sliced: no whole card
    # time-slices: the free slices
    (_kind(SHARED, ((A30, 0, 0),)), 3.0),
    (_kind(SHARED, ((A100, 0, 0),)), 0.0),
]


@pytest.mark.parametrize(("kind", "usable"), CASES)
def test_the_capacity_a_type_could_use_is_summed_from_the_indexes(kind: TaskType, usable: float) -> None:
    cluster = _scheduler()._clusters[0]
    assert _cluster_usable(cluster, kind) == pytest.approx(usable, abs=1e-12)
    assert _FreeCapacity(cluster).usable(kind) == pytest.approx(usable, abs=1e-12)


def test_the_capacity_read_for_a_whole_mix_is_the_capacity_read_type_by_type() -> None:
    cluster = _scheduler()._clusters[0]
    free = _FreeCapacity(cluster)
    for kind, _ in CASES * 2:  # a second read of each type comes from what the first kept
        assert free.usable(kind) == _cluster_usable(cluster, kind)


def test_a_released_share_is_capacity_again() -> None:
    s = _scheduler()
    s.release("a")
    cluster = s._clusters[0]
    assert _cluster_usable(cluster, _kind(FRACTION, ((A100, 40960, 51),))) == 2.0
    assert _cluster_usable(cluster, _kind(EXCLUSIVE, ((A100, 0, 0),), 2)) == 4.0
    assert _FreeCapacity(cluster).usable(_kind(FRACTION, ((A100, 40960, 51),))) == 2.0


# -- which GPU nodes the fragmentation-aware policy counts as full (node class -1) ----------


def _node_class(s: Scheduler, node_id: str) -> int:
    ns = next(n for n in s._view.nodes if n.node.id == node_id)
    return FragmentationAware().node_class(ns)


def test_a_time_sliced_node_is_full_only_when_its_last_slice_is_taken() -> None:
    s = Scheduler(inventory(node("ts", TS, card("t1", A30, 24576, replicas=2))))
    assert s.place(GpuRequest("a", A30, shared=True)) is not None
    assert _node_class(s, "ts") != FULL  # one slice left
    assert s.place(GpuRequest("b", A30, shared=True)) is not None
    assert _node_class(s, "ts") == FULL


def test_an_exclusive_node_is_full_when_its_cards_are_taken() -> None:
    s = Scheduler(inventory(node("x", EXCL, card("e1"))))
    assert _node_class(s, "x") != FULL
    assert s.place(GpuRequest("a", A100, exclusive_cards=1)) is not None
    assert _node_class(s, "x") == FULL


def test_a_mig_node_is_full_when_every_instance_has_a_tenant() -> None:
    s = Scheduler(inventory(node("m", EXCL, card("g", mig=("1g.10gb", "1g.10gb")))))
    assert s.place(GpuRequest("a", A100, vram_mib=8192, cores=10)) is not None
    assert _node_class(s, "m") != FULL  # the second instance is free
    assert s.place(GpuRequest("b", A100, vram_mib=8192, cores=10)) is not None
    assert _node_class(s, "m") == FULL


@pytest.mark.parametrize(
    ("vram", "cores", "free"),
    [
        (40960, 100, False),  # no cores left: the VRAM left is of no use
        (40960, 99, True),  # one core left
        (81920, 50, False),  # no VRAM left
        (81919, 50, True),  # one MiB left
    ],
)
def test_a_hami_card_has_free_capacity_only_with_both_cores_and_vram_left(vram: int, cores: int, free: bool) -> None:
    s = Scheduler(inventory(node("h", HAMI, card("g1"))))
    s.apply(on_card(GpuRequest("a", A100, vram_mib=vram, cores=cores), "h", "g1"))
    cs = s._view.nodes[0].cards[0]
    assert _has_free(cs) is free
    assert (_node_class(s, "h") == FULL) is not free


# -- what a type could still use on one node (U_m(n), CPU and memory aside) ----------------

A100_SIZE = (81920, 100)  # (VRAM, cores) of a card
A30_SIZE = (24576, 100)


def _entry(mode: RequestMode, vram: int = 0, cores: int = 0, cards: int = 0, point: int = -1) -> Entry:
    return (0, mode, vram, cores, cards, point, 0, 0)


def _node_state(s: Scheduler, node_id: str) -> NodeState:
    return next(n for n in s._view.nodes if n.node.id == node_id)


def _usable_scheduler() -> Scheduler:
    s = Scheduler(
        inventory(
            # an A30 first (another model: passed over), g1 with 40 % of its cores and 3/4 of
            # its VRAM free, g2 untouched
            node("hami", HAMI, card("a30", A30, 24576), card("g1"), card("g2")),
            node("mig", EXCL, card("m", mig=("3g.40gb", "1g.10gb"))),
            node("excl", EXCL, card("e1"), card("e2"), card("e3")),
            # two A30s of 4 and 2 slices (one of the second taken: packing), then an A100 of 2
            node(
                "ts", TS, card("t1", A30, 24576, replicas=4), card("t2", A30, 24576, replicas=2), card("t3", replicas=2)
            ),
        )
    )
    s.apply(on_card(GpuRequest("a", A100, vram_mib=20480, cores=60), "hami", "g1"))
    taken = s.place(GpuRequest("t", A30, shared=True))
    assert taken is not None and taken.placement.card_uuids == ("t2",)
    return s


@pytest.mark.parametrize(
    ("node_id", "model", "entry", "usable"),
    [
        # HAMi cards that cover both the VRAM and the cores, each by the larger of its free shares
        ("hami", A100, _entry(FRACTION, 10240, 12), 0.75 + 1.0),
        ("hami", A100, _entry(FRACTION, 61440, 40), 0.75 + 1.0),
        ("hami", A100, _entry(FRACTION, 61441, 10), 1.0),  # g1's VRAM is short
        ("hami", A100, _entry(FRACTION, 1024, 41), 1.0),  # g1's cores are short
        ("hami", A30, _entry(FRACTION, 1024, 1), 1.0),
        # free MIG instances that cover both (a 1g.10gb has 14 % of the cores, 10 GiB)
        ("mig", A100, _entry(FRACTION, 10240, 14), 0.5 + 0.14),
        ("mig", A100, _entry(FRACTION, 10240, 15), 0.5),
        ("mig", A100, _entry(FRACTION, 10241, 14), 0.5),
        # whole cards: n·⌊k/n⌋ of the untouched ones
        ("excl", A100, _entry(EXCLUSIVE, cards=1), 3.0),
        ("excl", A100, _entry(EXCLUSIVE, cards=2), 2.0),
        ("excl", A100, _entry(EXCLUSIVE, cards=2, point=1), 2.0),
        ("excl", A100, _entry(EXCLUSIVE, cards=4), 0.0),
        ("hami", A100, _entry(EXCLUSIVE, cards=1), 1.0),  # g2
        # time-slices: each card's free slices as a share of the card
        ("ts", A30, _entry(SHARED), 4 / 4 + 1 / 2),
        ("ts", A100, _entry(SHARED), 1.0),
    ],
)
def test_what_a_type_could_use_on_a_node(node_id: str, model: str, entry: Entry, usable: float) -> None:
    s = _usable_scheduler()
    size = A30_SIZE if model == A30 else A100_SIZE
    assert _node_usable(_node_state(s, node_id), model, entry, size) == pytest.approx(usable, abs=1e-12)
