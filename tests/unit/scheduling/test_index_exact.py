"""The free-capacity indexes to the letter (issue 20): the ordered set's smallest member and
the heap a bounded look reads (rebuilt sorted once stale entries outnumber live ones), the
two-key index's buckets and its feasible walk, the lowest-order look-ups with their slow
paths, and each card's role (domain/scheduling/index.py)."""

from __future__ import annotations

from domain.inventory.model import SharingMode
from domain.scheduling.index import (
    CardRole,
    CardState,
    ClusterState,
    FractionIndex,
    MigState,
    NodeState,
    OrderedSet,
    first_fitting,
    first_fitting_mig,
    first_fitting_node,
    lowest_passing,
)
from tests.unit.scheduling.helpers import A100, card, node


def test_an_ordered_set_gives_its_smallest_live_member() -> None:
    s = OrderedSet()
    assert s.first() is None and len(s) == 0 and not s
    for x in (5, 3, 9, 3):
        s.add(x)
    assert len(s) == 3 and bool(s) and s.ordered() == [3, 5, 9]
    assert s.heap.count(3) == 1  # a member is pushed once
    assert s.first() == 3
    s.discard(3)
    s.discard(42)  # not a member: nothing
    assert s.first() == 5 and s.ordered() == [5, 9] and len(s) == 2
    s.discard(5)
    s.discard(9)
    assert s.first() is None and not s and s.heap == []


def test_the_heap_is_rebuilt_sorted_once_it_holds_more_than_twice_the_members_and_32() -> None:
    s = OrderedSet()
    for x in range(40, 0, -1):
        s.add(x)
    for x in range(40, 4, -1):
        s.discard(x)
    assert len(s.heap) == 40 and len(s) == 4  # 40 > 2·4 + 32 is false: no rebuild yet
    s.discard(4)
    assert s.heap == [1, 2, 3]  # 40 > 2·3 + 32: rebuilt, sorted
    r = OrderedSet()
    for x in range(41, 0, -1):
        r.add(x)
    for x in range(41, 5, -1):
        r.discard(x)
    assert len(r.heap) == 41 and len(r) == 5  # 41 > 2·5 + 32 is false
    r.discard(5)
    assert r.heap == [1, 2, 3, 4]  # 41 > 2·4 + 32
    t = OrderedSet()
    for x in (7, 1, 5, 3):
        t.add(x)
    t.discard(1)
    assert t.heap[:1] == [1]  # a stale entry stays until first() pops it (no rebuild: 4 ≤ 38)
    assert t.first() == 3 and t.heap[0] == 3


def test_lowest_passing_looks_at_the_first_entries_of_the_heap_only() -> None:
    s = OrderedSet()
    for x in range(20):
        s.add(x)
    assert lowest_passing(s, lambda o: o % 2 == 1) == 1
    assert lowest_passing(s, lambda o: o >= 15) == 15
    assert lowest_passing(s, lambda o: o >= 16) is None  # beyond the first 16 entries
    assert lowest_passing(s, lambda o: o >= 16, scan=17) == 16
    s.discard(1)
    assert lowest_passing(s, lambda o: o % 2 == 1) == 3  # a stale entry is no member
    assert lowest_passing(s, lambda o: o > 100) is None
    # the lowest of those passing, not the first met in heap order
    u = OrderedSet()
    u.heap = [2, 9, 4]
    u.members = {2, 9, 4}
    assert lowest_passing(u, lambda o: o > 2) == 4


def test_a_two_key_index_keeps_sorted_keys_and_walks_the_feasible_ones_in_order() -> None:
    index = FractionIndex(flat=True)
    assert not index and index.keys == []
    assert FractionIndex().keys is None
    for fc, fv, order in ((50, 100, 1), (50, 300, 2), (20, 500, 3), (80, 100, 4), (50, 100, 5)):
        index.add(fc, fv, order)
    assert index and index.fcs == [20, 50, 80]
    assert index.fvs == {20: [500], 50: [100, 300], 80: [100]}
    assert index.keys == [(20, 500), (50, 100), (50, 300), (80, 100)]
    assert index.buckets[(50, 100)].ordered() == [1, 5]
    walk = [(fc, fv, b.ordered()) for fc, fv, b in index.feasible(50, 100)]
    assert walk == [(50, 100, [1, 5]), (50, 300, [2]), (80, 100, [4])]
    assert [(fc, fv) for fc, fv, _ in index.feasible(51, 100)] == [(80, 100)]
    assert [(fc, fv) for fc, fv, _ in index.feasible(20, 301)] == [(20, 500)]
    assert list(index.feasible(81, 0)) == []
    index.remove(50, 100, 1)
    assert (50, 100) in index.buckets and index.keys == [(20, 500), (50, 100), (50, 300), (80, 100)]
    index.remove(50, 100, 5)
    assert (50, 100) not in index.buckets
    assert index.keys == [(20, 500), (50, 300), (80, 100)] and index.fvs[50] == [300]
    index.remove(50, 300, 2)
    assert index.fcs == [20, 80] and 50 not in index.fvs
    index.remove(20, 500, 3)
    index.remove(80, 100, 4)
    assert not index and index.fcs == [] and index.fvs == {} and index.keys == []
    nodes = FractionIndex()
    nodes.add(1, 2, 0)
    nodes.remove(1, 2, 0)
    assert nodes.keys is None and not nodes


def _cluster() -> tuple[ClusterState, list[NodeState], list[CardState]]:
    cluster = ClusterState("c1", 0)
    nodes = [
        NodeState(node("a", SharingMode.HAMI, card("g0")), 0, cluster),
        NodeState(node("b", SharingMode.HAMI, card("g1")), 1, cluster),
        NodeState(node("c", SharingMode.HAMI, card("g2")), 2, cluster),
    ]
    cards = [CardState(n.node.cards[0], i, n) for i, n in enumerate(nodes)]
    return cluster, nodes, cards


def test_the_lowest_order_that_fits_first_then_the_slow_path_in_order() -> None:
    _, nodes, cards = _cluster()
    bucket = OrderedSet()
    for order in (2, 0, 1):
        bucket.add(order)
    assert first_fitting(bucket, cards, lambda n: True) is cards[0]
    assert first_fitting(bucket, cards, lambda n: n.id != "a") is cards[1]
    assert first_fitting(bucket, cards, lambda n: n.id == "c") is cards[2]
    assert first_fitting(bucket, cards, lambda n: False) is None
    assert first_fitting(OrderedSet(), cards, lambda n: True) is None
    assert first_fitting_node(bucket, nodes, lambda n: n.id != "a") is nodes[1]
    assert first_fitting_node(bucket, nodes, lambda n: n.id == "c") is nodes[2]
    assert first_fitting_node(bucket, nodes, lambda n: True) is nodes[0]
    assert first_fitting_node(bucket, nodes, lambda n: False) is None
    assert first_fitting_node(OrderedSet(), nodes, lambda n: True) is None
    mig_card = CardState(card("m", mig=("1g.10gb", "1g.10gb")), 3, nodes[1])
    other = CardState(card("m2", mig=("1g.10gb",)), 4, nodes[2])
    migs = [MigState(mig_card.card.mig_instances[0], 0, mig_card), MigState(other.card.mig_instances[0], 1, other)]
    both = OrderedSet()
    both.add(1)
    both.add(0)
    assert first_fitting_mig(both, migs, lambda n: True) is migs[0]
    assert first_fitting_mig(both, migs, lambda n: n.id == "c") is migs[1]
    assert first_fitting_mig(both, migs, lambda n: False) is None
    assert first_fitting_mig(OrderedSet(), migs, lambda n: True) is None


def test_each_card_takes_its_role_from_mig_then_the_nodes_sharing_mode() -> None:
    cluster = ClusterState("c1", 0)

    def role(mode: SharingMode, **kw: object) -> CardState:
        c = card("g", **kw)  # type: ignore[arg-type]
        return CardState(c, 0, NodeState(node("n", mode, c), 0, cluster))

    hami = role(SharingMode.HAMI)
    assert (hami.role, hami.free_slices, hami.gives_whole) == (CardRole.HAMI, 0, True)
    assert (hami.uuid, hami.model, hami.vram, hami.cores, hami.free_vram, hami.free_cores) == (
        "g", A100, 81920, 100, 81920, 100,
    )  # fmt: skip
    excl = role(SharingMode.EXCLUSIVE, replicas=4)
    assert (excl.role, excl.free_slices, excl.gives_whole) == (CardRole.EXCLUSIVE, 0, True)
    ts = role(SharingMode.TIMESLICING, replicas=4)
    assert (ts.role, ts.free_slices, ts.gives_whole) == (CardRole.TIMESLICE, 4, False)
    mig = role(SharingMode.TIMESLICING, mig=("1g.10gb",), replicas=4)
    assert (mig.role, mig.free_slices, mig.gives_whole) == (CardRole.MIG, 0, False)
    assert role(SharingMode.HAMI, mig=("1g.10gb",)).role == CardRole.MIG
    inst = MigState(mig.card.mig_instances[0], 7, mig)
    assert (inst.id, inst.order, inst.vram, inst.cores, inst.tenant) == ("g-m0", 7, 10240, 14, None)
    n = NodeState(node("n", SharingMode.HAMI, cpu=3000, mem=4000, cordoned=True), 5, cluster)
    assert (n.id, n.order, n.free_cpu, n.free_mem, n.accepts, n.cls, n.usable) == ("n", 5, 3000, 4000, False, 0, None)
    assert (cluster.id, cluster.order, cluster.gpu_nodes, cluster.card_size) == ("c1", 0, {}, {})
