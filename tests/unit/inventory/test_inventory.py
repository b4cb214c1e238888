"""Inventory model, capacity views (physical vs logical), stale resources, instance bundles."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.common.errors import DomainError
from domain.inventory.bundles import instance_bundles
from domain.inventory.capacity import CapacityRow, Counts, capacity_by_model, capacity_by_resource, model_totals
from domain.inventory.errors import InventoryErrorCode
from domain.inventory.model import (
    Card,
    CardShare,
    Cluster,
    GpuKind,
    Inventory,
    MigInstance,
    MigProfile,
    Node,
    Placement,
    SharingMode,
)
from domain.scheduling.model import GpuRequest
from domain.scheduling.scheduler import Scheduler
from infra.cluster.simulated import load_inventory_yaml


@pytest.fixture(scope="module")
def demo() -> Inventory:
    return load_inventory_yaml()


def rows_by_key(rows: list) -> dict:  # type: ignore[type-arg]
    return {(r.resource, r.kind): r for r in rows}


def test_mig_profiles_parse_compute_slices_and_memory() -> None:
    p = MigProfile.parse("3g.40gb")
    assert (p.compute_slices, p.vram_mib, p.cores) == (3, 40960, 42)
    assert p.compute_fraction == Fraction(3, 7)
    assert p.resource == "nvidia.com/mig-3g.40gb"
    with pytest.raises(DomainError) as bad:
        MigProfile.parse("big")
    assert bad.value.code is InventoryErrorCode.MIG_PROFILE_INVALID


def test_the_inventory_refuses_inconsistent_data() -> None:
    cluster = (Cluster("c", "c"),)
    a = Card("g1", "A100", 81920)
    with pytest.raises(DomainError):
        Inventory(cluster, (Node("n", "n", "c", SharingMode.HAMI, 1, 1, (a, a)),))
    with pytest.raises(DomainError):  # one model, one card size
        Inventory(
            cluster,
            (Node("n", "n", "c", SharingMode.HAMI, 1, 1, (a, Card("g2", "A100", 40960))),),
        )
    with pytest.raises(DomainError):  # MIG instances beyond the card
        too_many = tuple(MigInstance(f"m{i}", MigProfile.parse("4g.40gb")) for i in range(2))
        Inventory(
            cluster,
            (Node("n", "n", "c", SharingMode.EXCLUSIVE, 1, 1, (Card("g", "A", 81920, 100, too_many),)),),
        )
    with pytest.raises(DomainError):
        Inventory(cluster, (Node("n", "n", "elsewhere", SharingMode.HAMI, 1, 1),))


def test_the_demo_inventory_counts_physical_and_logical(demo: Inventory) -> None:
    rows = rows_by_key(capacity_by_resource(demo, []))
    shared = rows[("nvidia.com/gpu.shared", GpuKind.SHARED)]
    assert shared.physical == Counts(4, 0) and shared.logical == Counts(16, 0)
    assert shared.shared
    hami = rows[("nvidia.com/gpu", GpuKind.HAMI)]
    assert hami.physical == Counts(8, 0) and hami.logical == Counts(8, 0) and hami.shared
    exclusive = rows[("nvidia.com/gpu", GpuKind.EXCLUSIVE)]
    assert exclusive.physical == Counts(10, 0) and not exclusive.shared
    assert rows[("nvidia.com/mig-1g.10gb", GpuKind.MIG)].logical == Counts(9, 0)
    assert rows[("nvidia.com/mig-3g.40gb", GpuKind.MIG)].logical == Counts(1, 0)
    totals = {t.model: t for t in model_totals(demo, [])}
    assert totals["A30-24GB"].physical.total == 4 and totals["A30-24GB"].logical.total == 16
    assert totals["H100-80GB"].physical.total == 12
    assert totals["H100-80GB"].logical.total == 7 + 4 + 2 + 8  # MIG instances count logically


def test_capacity_follows_allocations(demo: Inventory) -> None:
    s = Scheduler(demo)
    for r in (
        GpuRequest("s1", "A30-24GB", shared=True),
        GpuRequest("s2", "A30-24GB", shared=True),
        GpuRequest("f1", "A100-80GB", vram_mib=20480, cores=25),
        GpuRequest("f2", "A100-80GB", vram_mib=20480, cores=25),
        GpuRequest("m1", "H100-80GB", vram_mib=10240, cores=12),
        GpuRequest("x1", "H100-80GB", exclusive_cards=2),
    ):
        assert s.place(r) is not None
    rows = rows_by_key(capacity_by_resource(demo, s.placements()))
    shared = rows[("nvidia.com/gpu.shared", GpuKind.SHARED)]
    # both slices packed on one card: one physical card used, two logical units
    assert shared.physical == Counts(4, 1) and shared.logical == Counts(16, 2)
    assert shared.logical.available == 14
    assert shared.ratio_used == Fraction(1, 2)
    hami = rows[("nvidia.com/gpu", GpuKind.HAMI)]
    assert hami.physical == Counts(8, 1) and hami.ratio_used == Fraction(1, 2)
    assert rows[("nvidia.com/mig-1g.10gb", GpuKind.MIG)].logical == Counts(9, 1)
    assert rows[("nvidia.com/gpu", GpuKind.EXCLUSIVE)].physical == Counts(10, 2)
    by_model = capacity_by_model(demo, s.placements())
    assert {r.model for r in by_model} == {"A100-80GB", "A30-24GB", "H100-80GB"}


def test_stale_resources_are_flagged_per_node(demo: Inventory) -> None:
    stale = {n.id: n.stale_resources for n in demo.nodes if n.stale_resources}
    # the A30 node switched to time-slicing but still lists nvidia.com/gpu
    assert stale == {"a30-ts-1": ("nvidia.com/gpu",)}
    switched = Node(
        "n",
        "n",
        "demo",
        SharingMode.EXCLUSIVE,
        1000,
        1000,
        (Card("g", "A30-24GB", 24576),),
        advertised_resources={"nvidia.com/gpu": 1, "nvidia.com/gpu.shared": 4, "cpu": 8},
    )
    assert switched.stale_resources == ("nvidia.com/gpu.shared",)


def test_the_inventory_round_trips_through_plain_data(demo: Inventory) -> None:
    assert Inventory.from_dict(demo.to_dict()) == demo


def test_bundles_cpu_nodes_offer_cpu_and_gpu_nodes_offer_gpus(demo: Inventory) -> None:
    bundles = instance_bundles(demo, [])
    cpu_only = [b for b in bundles if b.model is None]
    gpu = [b for b in bundles if b.model is not None]
    assert cpu_only and all(b.gpus == 0 for b in cpu_only)
    assert gpu and all(b.gpus >= 1 for b in gpu)
    # time-sliced and MIG capacity is not offered as whole-GPU bundles
    assert {b.model for b in gpu} == {"A100-80GB", "H100-80GB"}
    a100 = {b.gpus: b for b in gpu if b.model == "A100-80GB"}
    assert a100[1].cpu_millicores == 16000 and a100[4].nodes == 2


def test_bundles_default_to_4_cpu_and_16_gib_per_gpu_when_nodes_say_nothing() -> None:
    quiet = Inventory(
        (Cluster("c", "c"),),
        (Node("n", "n", "c", SharingMode.EXCLUSIVE, 0, 0, (Card("g1", "L4", 24576), Card("g2", "L4", 24576))),),
    )
    bundles = instance_bundles(quiet, [])
    assert [(b.gpus, b.cpu_millicores, b.memory_mib) for b in bundles] == [
        (1, 4000, 16384),
        (2, 8000, 32768),
    ]


def test_bundles_shrink_as_capacity_is_used(demo: Inventory) -> None:
    s = Scheduler(demo)
    assert s.place(GpuRequest("x", "A100-80GB", exclusive_cards=3, cpu_millicores=1000)) is not None
    a100 = [b for b in instance_bundles(demo, s.placements()) if b.model == "A100-80GB"]
    assert {(b.gpus, b.nodes) for b in a100} == {(1, 2), (2, 1), (3, 1), (4, 1)}


def test_a_mig_card_counts_once_physically_however_many_instances_it_is_split_into(demo: Inventory) -> None:
    """Issue 18: the capacity table counted each MIG instance as a physical card (9 + 1 + 1
    'cards' for the demo's two H100 MIG cards). Each card counts once, in the row of the
    profile it is mostly split into; its instances stay the logical units."""
    rows = rows_by_key(capacity_by_resource(demo, []))
    one, two, three = (rows[(f"nvidia.com/mig-{p}", GpuKind.MIG)] for p in ("1g.10gb", "2g.20gb", "3g.40gb"))
    # the 7 × 1g.10gb card, and the 3g.40gb + 2g.20gb + 2 × 1g.10gb card (3g.40gb holds most of it)
    assert (one.physical, two.physical, three.physical) == (Counts(1, 0), Counts(0, 0), Counts(1, 0))
    assert (one.logical, two.logical, three.logical) == (Counts(9, 0), Counts(1, 0), Counts(1, 0))
    # the physical column adds up to the cards there are, as the per-model totals count them
    assert sum(r.physical.total for r in rows.values()) == sum(t.physical.total for t in model_totals(demo, []))
    # a card is used once any of its instances is taken
    s = Scheduler(demo)
    for i in range(2):
        assert s.place(GpuRequest(f"m{i}", "H100-80GB", vram_mib=10240, cores=12)) is not None
    used = rows_by_key(capacity_by_resource(demo, s.placements()))
    assert used[("nvidia.com/mig-1g.10gb", GpuKind.MIG)].logical == Counts(9, 2)
    mig_used = sum(r.physical.used for (res, kind), r in used.items() if kind is GpuKind.MIG)
    assert 1 <= mig_used <= 2  # two instances: on one card or on both, never more cards than that


def test_cpu_bundles_are_sized_by_each_nodes_memory_per_core_and_counted_per_node() -> None:
    """Two CPU nodes of 4 cores and 32 GiB (8 GiB a core), one of 2.5 cores and 5 GiB (2.5 GiB
    a whole core: its half core left out), one of half a core (no bundle, not even with the
    default 4 GiB a core); listed by CPU, in the nodes' order for the same CPU."""
    inv = Inventory(
        (Cluster("c", "c"),),
        (
            Node("big-1", "big-1", "c", SharingMode.EXCLUSIVE, 4000, 32768),
            Node("big-2", "big-2", "c", SharingMode.EXCLUSIVE, 4000, 32768),
            Node("odd", "odd", "c", SharingMode.EXCLUSIVE, 2500, 5120),
            Node("tiny", "tiny", "c", SharingMode.EXCLUSIVE, 500, 2048),
        ),
    )
    assert [(b.cpu_millicores, b.memory_mib, b.nodes, b.name) for b in instance_bundles(inv, [])] == [
        (1000, 8192, 2, "1 CPU, 8 GiB"),
        (1000, 2560, 1, "1 CPU, 2.5 GiB"),
        (2000, 16384, 2, "2 CPU, 16 GiB"),
        (2000, 5120, 1, "2 CPU, 5 GiB"),
        (4000, 32768, 2, "4 CPU, 32 GiB"),
    ]
    # what is placed on a node is taken off its free CPU and memory (exactly what is left still fits)
    used = Placement("c", "big-1", None, (), Fraction(0), 2000, 16384)
    on_big = [(b.cpu_millicores, b.nodes) for b in instance_bundles(inv, [used]) if b.memory_mib % 8192 == 0]
    assert on_big == [(1000, 2), (2000, 2), (4000, 1)]
    memory_bound = Placement("c", "big-2", None, (), Fraction(0), 0, 16385)
    assert [(b.cpu_millicores, b.nodes) for b in instance_bundles(inv, [used, memory_bound]) if b.memory_mib % 8192 == 0] == [
        (1000, 2), (2000, 1),
    ]  # fmt: skip
    cpu_bound = Placement("c", "big-1", None, (), Fraction(0), 2001, 0)
    assert [(b.cpu_millicores, b.nodes) for b in instance_bundles(inv, [cpu_bound]) if b.memory_mib % 8192 == 0] == [
        (1000, 2), (2000, 1), (4000, 1),
    ]  # fmt: skip
    # a placement on a node the inventory no longer has is skipped
    gone = Placement("c", "gone", None, (), Fraction(0), 4000, 32768)
    assert instance_bundles(inv, [gone]) == instance_bundles(inv, [])


def test_bundles_list_cpu_first_then_models_by_name_then_size() -> None:
    inv = Inventory(
        (Cluster("c", "c"),),
        (
            Node(
                "z",
                "z",
                "c",
                SharingMode.EXCLUSIVE,
                8000,
                32768,
                (Card("z1", "Z100", 40960), Card("z2", "Z100", 40960)),
            ),
            Node("a", "a", "c", SharingMode.EXCLUSIVE, 4000, 16384, (Card("a1", "A10", 24576),)),
            Node("cpu", "cpu", "c", SharingMode.EXCLUSIVE, 2000, 8192),
        ),
    )
    assert [(b.model, b.gpus, b.cpu_millicores) for b in instance_bundles(inv, [])] == [
        (None, 0, 1000), (None, 0, 2000), ("A10", 1, 4000), ("Z100", 1, 4000), ("Z100", 2, 8000),
    ]  # fmt: skip
    assert [b.name for b in instance_bundles(inv, [])][2:] == [
        "A10 × 1, 4 CPU, 16 GiB", "Z100 × 1, 4 CPU, 16 GiB", "Z100 × 2, 8 CPU, 32 GiB",
    ]  # fmt: skip


def _mig(instance: str, profile: str) -> MigInstance:
    return MigInstance(instance, MigProfile.parse(profile))


def _placed(
    node: str, kind: GpuKind | None, shares: list[CardShare], ratio: Fraction, cluster: str = "c1"
) -> Placement:
    return Placement(cluster, node, kind, tuple(shares), ratio, 1000, 1024)


def _every_kind() -> tuple[Inventory, list[Placement]]:
    """c1: a MIG node (a card of three instances, a MIG group of two cards with three), a
    time-sliced B card (4 slices), a HAMi Z card, three exclusive Z cards; c2: one exclusive Z
    card. The nodes are listed in the reverse of the views' order."""
    inv = Inventory(
        (Cluster("c1", "one"), Cluster("c2", "two")),
        (
            Node("m", "m", "c1", SharingMode.EXCLUSIVE, 8000, 65536, (
                Card("m1", "C", 81920, mig_instances=(_mig("i1", "1g.10gb"), _mig("i2", "1g.10gb"), _mig("i3", "3g.40gb"))),
                Card("mg", "C", 81920, physical_count=2, mig_instances=tuple(_mig(f"g{i}", "1g.10gb") for i in (1, 2, 3))),
            )),
            Node("t", "t", "c1", SharingMode.TIMESLICING, 8000, 65536, (Card("t1", "B", 24576, timeslice_replicas=4),)),
            Node("h", "h", "c1", SharingMode.HAMI, 8000, 65536, (Card("h1", "Z", 40960),)),
            Node("x", "x", "c1", SharingMode.EXCLUSIVE, 8000, 65536, tuple(Card(f"x{i}", "Z", 40960) for i in (1, 2, 3))),
            Node("y", "y", "c2", SharingMode.EXCLUSIVE, 8000, 65536, (Card("y1", "Z", 40960),)),
        ),
    )  # fmt: skip
    mig = [CardShare("m1", 10240, 14, "i1"), CardShare("m1", 10240, 14, "i2"), CardShare("mg", 10240, 14, "g1"),
           CardShare("mg", 10240, 14, "g2")]  # fmt: skip
    placements = [
        _placed("x", GpuKind.EXCLUSIVE, [CardShare("x1", 40960, 100), CardShare("x2", 40960, 100)], Fraction(2)),
        _placed("h", GpuKind.HAMI, [CardShare("h1", 10240, 25)], Fraction(1, 4)),
        _placed("h", GpuKind.HAMI, [CardShare("h1", 20480, 50)], Fraction(1, 2)),
        *(_placed("t", GpuKind.SHARED, [CardShare("t1", 6144, 25, timeslice=True)], Fraction(1, 4)) for _ in range(2)),
        *(_placed("m", GpuKind.MIG, [share], Fraction(1, 8)) for share in mig),
        _placed("y", GpuKind.EXCLUSIVE, [CardShare("y1", 40960, 100)], Fraction(1), cluster="c2"),
        _placed("x", None, [], Fraction(0)),  # CPU only: no card
    ]
    return inv, placements


def _row(r: CapacityRow) -> tuple[object, ...]:
    return (r.resource, r.kind, r.model, r.shared, r.physical, r.logical, r.ratio_used)


def test_capacity_rows_count_every_kind_exactly_in_the_views_order() -> None:
    """A card is used physically once anything holds it; logically a HAMi or exclusive card
    counts one, a time-sliced card one per slice, a MIG instance one; a MIG card counts
    physically once, in the row of the profile holding most of its memory (m1: 3g.40gb, used as
    its two 1g instances are taken; the two-card group: 1g.10gb); ratio_used sums the ratios
    (an exclusive placement's spread over its cards). Rows: by model, then exclusive, HAMi,
    time-sliced, MIG, then resource."""
    inv, placements = _every_kind()
    gpu, shared = "nvidia.com/gpu", "nvidia.com/gpu.shared"
    mig1, mig3 = "nvidia.com/mig-1g.10gb", "nvidia.com/mig-3g.40gb"
    K = GpuKind
    assert [_row(r) for r in capacity_by_resource(inv, placements, "c1")] == [
        (gpu, K.EXCLUSIVE, None, False, Counts(3, 2), Counts(3, 2), Fraction(2)),
        (gpu, K.HAMI, None, True, Counts(1, 1), Counts(1, 1), Fraction(3, 4)),
        (shared, K.SHARED, None, True, Counts(1, 1), Counts(4, 2), Fraction(1, 2)),
        (mig1, K.MIG, None, False, Counts(2, 2), Counts(5, 4), Fraction(1, 2)),
        (mig3, K.MIG, None, False, Counts(1, 1), Counts(1, 0), Fraction(0)),
    ]
    everywhere = [_row(r) for r in capacity_by_resource(inv, placements)]
    assert everywhere[0] == (gpu, K.EXCLUSIVE, None, False, Counts(4, 3), Counts(4, 3), Fraction(3))
    assert everywhere[1:] == [_row(r) for r in capacity_by_resource(inv, placements, "c1")][1:]
    assert [_row(r) for r in capacity_by_model(inv, placements, "c1")] == [
        (shared, K.SHARED, "B", True, Counts(1, 1), Counts(4, 2), Fraction(1, 2)),
        (mig1, K.MIG, "C", False, Counts(2, 2), Counts(5, 4), Fraction(1, 2)),
        (mig3, K.MIG, "C", False, Counts(1, 1), Counts(1, 0), Fraction(0)),
        (gpu, K.EXCLUSIVE, "Z", False, Counts(3, 2), Counts(3, 2), Fraction(2)),
        (gpu, K.HAMI, "Z", True, Counts(1, 1), Counts(1, 1), Fraction(3, 4)),
    ]
    assert len(capacity_by_model(inv, placements)) == 5 and capacity_by_model(inv, placements, "c2") == [
        CapacityRow(gpu, K.EXCLUSIVE, "Z", False, Counts(1, 1), Counts(1, 1), Fraction(1))
    ]


def test_model_totals_add_every_kind_of_a_model() -> None:
    """A MIG group counts its cards physically (used: at most that many, one per instance
    taken) and its instances logically."""
    inv, placements = _every_kind()
    totals = [(t.model, t.physical, t.logical, t.ratio_used) for t in model_totals(inv, placements, "c1")]
    assert totals == [
        ("B", Counts(1, 1), Counts(4, 2), Fraction(1, 2)),
        ("C", Counts(3, 3), Counts(6, 4), Fraction(1, 2)),
        ("Z", Counts(4, 3), Counts(4, 3), Fraction(11, 4)),
    ]
    assert [(t.model, t.physical, t.logical) for t in model_totals(inv, placements)][2] == (
        "Z", Counts(5, 4), Counts(5, 4),
    )  # fmt: skip
    # three instances of the two-card group taken: two cards used, three logical units
    more = [*placements, _placed("m", GpuKind.MIG, [CardShare("mg", 10240, 14, "g3")], Fraction(1, 8))]
    c = next(t for t in model_totals(inv, more, "c1") if t.model == "C")
    assert (c.physical, c.logical) == (Counts(3, 3), Counts(6, 5))


def test_the_inventory_plain_data_names_every_field_and_fills_what_is_left_out() -> None:
    """The capacity state is stored as this plain data: every non-default value is written
    under its name, and older or hand-written data without the optional fields reads back
    with their defaults."""
    group = (MigInstance("m1", MigProfile.parse("1g.10gb", 9984)),)
    inv = Inventory(
        (Cluster("c1", "Cluster one", "first-fit"),),
        (
            Node(
                "c1/n1", "n1", "c1", SharingMode.EXCLUSIVE, 8000, 65536,
                (Card("g1", "L4", 23034, cores=60, identified=False),
                 Card("mg", "H100", 81920, mig_instances=group, physical_count=2)),
                labels={"zone": "a"}, cordoned=True, schedulable=False, advertised_resources={"nvidia.com/gpu": 1},
            ),
        ),
    )  # fmt: skip
    data = {
        "clusters": [{"id": "c1", "name": "Cluster one", "placement_policy": "first-fit"}],
        "nodes": [
            {
                "id": "c1/n1", "name": "n1", "cluster_id": "c1", "sharing_mode": "exclusive",
                "cpu_millicores": 8000, "memory_mib": 65536,
                "cards": [
                    {"uuid": "g1", "model": "L4", "vram_mib": 23034, "cores": 60, "mig_instances": [],
                     "timeslice_replicas": 1, "identified": False, "physical_count": 1},
                    {"uuid": "mg", "model": "H100", "vram_mib": 81920, "cores": 100,
                     "mig_instances": [{"id": "m1", "profile": "1g.10gb", "vram_mib": 9984}],
                     "timeslice_replicas": 1, "identified": True, "physical_count": 2},
                ],
                "labels": {"zone": "a"}, "cordoned": True, "schedulable": False,
                "advertised_resources": {"nvidia.com/gpu": 1},
            }
        ],
    }  # fmt: skip
    assert inv.to_dict() == data and Inventory.from_dict(data) == inv
    assert Inventory.from_dict({}) == Inventory((), ())
    assert Cluster.from_dict({"id": "c"}) == Cluster("c", "c", "best-fit")
    node = Node.from_dict({"id": "n", "cluster_id": "c", "cpu_millicores": 1, "memory_mib": 2, "labels": {"k": 1}})
    assert node == Node("n", "n", "c", SharingMode.HAMI, 1, 2, (), {"k": "1"}, False, True, {})
    assert Card.from_dict({"uuid": "u", "model": "m", "vram_mib": 3}) == Card("u", "m", 3, 100, (), 1, True, 1)
    assert MigInstance.from_dict({"id": "i", "profile": "2g.20gb"}).profile == MigProfile("2g.20gb", 2, 20480)
    share = {"card_uuid": "u", "vram_mib": 3, "cores": 4}
    assert CardShare.from_dict(share) == CardShare("u", 3, 4, None, False)
    assert CardShare.from_dict({**share, "mig_instance_id": 7, "timeslice": True}) == CardShare("u", 3, 4, "7", True)
    cpu_only = {"cluster_id": "c", "node_id": "n", "ratio": "0", "cpu_millicores": 5, "memory_mib": 6}
    assert Placement.from_dict(cpu_only) == Placement("c", "n", None, (), Fraction(0), 5, 6, None)
    placed = Placement("c", "n", GpuKind.SHARED, (CardShare("u", 3, 4, None, True),), Fraction(1, 3), 5, 6, "L4")
    assert placed.to_dict() == {
        "cluster_id": "c", "node_id": "n", "kind": "shared",
        "shares": [{"card_uuid": "u", "vram_mib": 3, "cores": 4, "mig_instance_id": None, "timeslice": True}],
        "ratio": "1/3", "cpu_millicores": 5, "memory_mib": 6, "model": "L4",
    }  # fmt: skip
    assert Placement.from_dict(placed.to_dict()) == placed


def _refusal(call: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        call()  # type: ignore[operator]
    return (err.value.code.value, err.value.field, err.value.message)


def test_inventory_refusals_say_what_is_wrong() -> None:
    c = (Cluster("c", "c"),)
    a = Card("g1", "A100", 81920)

    def inv(*nodes: Node, clusters: tuple[Cluster, ...] = c) -> object:
        return lambda: Inventory(clusters, nodes)

    def n(nid: str = "n", *cards: Card, cluster: str = "c", mode: SharingMode = SharingMode.HAMI, **kw: int) -> Node:
        return Node(nid, nid, cluster, mode, kw.get("cpu", 1), kw.get("mem", 1), cards)

    bad = "INVENTORY_INVALID"
    assert _refusal(inv(clusters=(*c, Cluster("c", "again")))) == (bad, "clusters", "cluster ids must be unique")
    assert _refusal(inv(n(), n())) == (bad, "nodes", "node id 'n' is listed twice")
    assert _refusal(inv(n(cluster="elsewhere"))) == (bad, None, "node 'n' names unknown cluster 'elsewhere'")
    assert _refusal(inv(n(cpu=-1))) == (bad, None, "node 'n' has negative CPU or memory")
    assert _refusal(inv(n(mem=-1))) == (bad, None, "node 'n' has negative CPU or memory")
    assert _refusal(inv(n("n", a, a))) == (bad, "cards", "card 'g1' is listed twice")
    assert _refusal(inv(n("n", Card("z", "A", 0)))) == (bad, None, "card 'z' needs positive VRAM and cores")
    assert _refusal(inv(n("n", Card("z", "A", 1, cores=0)))) == (bad, None, "card 'z' needs positive VRAM and cores")
    assert _refusal(inv(n("n", a, Card("g2", "A100", 40960)))) == (
        bad, None, "cards of model 'A100' differ in VRAM or cores",
    )  # fmt: skip
    assert _refusal(inv(n("n", Card("z", "A", 1, timeslice_replicas=0)))) == (
        bad, None, "card 'z' needs at least one time-slice replica",
    )  # fmt: skip
    assert _refusal(inv(n("n", Card("z", "A", 1, physical_count=2)))) == (
        bad, None, "card 'z': only a MIG group stands for several cards",
    )  # fmt: skip
    one = (_mig("i", "1g.10gb"),)
    assert _refusal(inv(n("n", Card("z", "A", 81920, mig_instances=one), mode=SharingMode.TIMESLICING))) == (
        bad, None, "card 'z': MIG cards are not time-sliced in this model",
    )  # fmt: skip
    twice = (_mig("i", "1g.10gb"), _mig("i", "1g.10gb"))
    too_many = (_mig("i1", "4g.40gb"), _mig("i2", "4g.40gb"))
    assert _refusal(inv(n("n", Card("z", "A", 81920, mig_instances=too_many)))) == (
        "MIG_PROFILE_INVALID", None, "card 'z': MIG instances exceed the card",
    )  # fmt: skip
    too_big = (_mig("i1", "1g.10gb"), _mig("i2", "1g.80gb"))
    assert _refusal(inv(n("n", Card("z", "A", 81920, mig_instances=too_big)))) == (
        "MIG_PROFILE_INVALID", None, "card 'z': MIG instances exceed the card",
    )  # fmt: skip
    # a MIG group holds what its cards hold together (9 slices, 120 GiB on two 80 GiB cards)
    group = tuple(_mig(f"i{i}", "3g.40gb") for i in range(3))
    assert Inventory(c, (n("n", Card("z", "A", 81920, mig_instances=group, physical_count=2)),)).nodes
    # a card of 1 % compute is a card
    assert Inventory(c, (n("n", Card("z", "A", 1, cores=1)),)).nodes[0].cards[0].cores == 1
    assert _refusal(inv(n("n", Card("z", "A", 81920, mig_instances=twice)))) == (
        bad, None, "MIG instance id 'i' is listed twice",
    )  # fmt: skip
    empty = Inventory(c, ())
    assert _refusal(lambda: empty.node("x")) == (bad, "node_id", "no node 'x'")
    assert _refusal(lambda: empty.cluster("x")) == (bad, "cluster_id", "no cluster 'x'")


def test_mig_profile_refusals_and_a_reported_memory() -> None:
    wrong = "MIG_PROFILE_INVALID"
    assert _refusal(lambda: MigProfile.parse("big")) == (
        wrong, "profile", "MIG profile 'big' is not of the form <n>g.<m>gb"
    )  # fmt: skip
    for slices in (0, 8):
        assert _refusal(lambda s=slices: MigProfile.parse(f"{s}g.10gb")) == (
            wrong, "profile", f"MIG profile '{slices}g.10gb' has {slices} compute slices; a card has 1 to 7",
        )  # fmt: skip
    assert MigProfile.parse("7g.80gb") == MigProfile("7g.80gb", 7, 81920)
    # the memory a cluster reports for the profile wins over its name's
    assert MigProfile.parse("1g.10gb", 9984) == MigProfile("1g.10gb", 1, 9984)


def test_a_node_serves_what_its_mode_and_cards_expose() -> None:
    def cards(n: int, **kw: object) -> tuple[Card, ...]:
        return tuple(Card(f"g{i}", "A", 40960, 90, **kw) for i in range(n))  # type: ignore[arg-type]

    hami = Node("h", "h", "c", SharingMode.HAMI, 1, 1, cards(2))
    assert hami.served_resources() == {"nvidia.com/gpu": 2, "nvidia.com/gpumem": 81920, "nvidia.com/gpucores": 180}
    assert Node("x", "x", "c", SharingMode.EXCLUSIVE, 1, 1, cards(3)).served_resources() == {"nvidia.com/gpu": 3}
    ts = Node("t", "t", "c", SharingMode.TIMESLICING, 1, 1, cards(2, timeslice_replicas=3))
    assert ts.served_resources() == {"nvidia.com/gpu.shared": 6}
    mig = (_mig("i1", "1g.10gb"), _mig("i2", "1g.10gb"), _mig("i3", "3g.40gb"))
    m = Node("m", "m", "c", SharingMode.EXCLUSIVE, 1, 1, (Card("g", "A", 81920, mig_instances=mig),))
    assert m.served_resources() == {"nvidia.com/mig-1g.10gb": 2, "nvidia.com/mig-3g.40gb": 1}


def test_model_totals_count_each_time_slice_taken_on_every_card() -> None:
    cards = tuple(Card(f"t{i}", "B", 24576, timeslice_replicas=4) for i in range(2))
    inv = Inventory((Cluster("c1", "one"),), (Node("t", "t", "c1", SharingMode.TIMESLICING, 8000, 65536, cards),))
    slices = [
        _placed("t", GpuKind.SHARED, [CardShare(u, 6144, 25, timeslice=True)], Fraction(1, 4))
        for u in ("t0", "t1", "t1")
    ]
    [b] = model_totals(inv, slices)
    assert (b.physical, b.logical, b.ratio_used) == (Counts(2, 2), Counts(8, 3), Fraction(3, 4))


def test_a_mig_card_is_counted_in_the_row_of_the_profile_holding_most_of_its_memory() -> None:
    """Two cards split into three 1g.10gb (30 GiB) and one 2g.20gb (20 GiB): each counts once,
    in the 1g.10gb row (not in the row whose name sorts last), used once one instance is taken."""
    split = lambda p: (*(_mig(f"{p}{i}", "1g.10gb") for i in range(3)), _mig(f"{p}w", "2g.20gb"))  # noqa: E731
    inv = Inventory(
        (Cluster("c1", "one"),),
        (Node("m", "m", "c1", SharingMode.EXCLUSIVE, 8000, 65536, (
            Card("a", "C", 81920, mig_instances=split("a")), Card("b", "C", 81920, mig_instances=split("b")),
        )),),
    )  # fmt: skip
    taken = [_placed("m", GpuKind.MIG, [CardShare(c, 20480, 28, f"{c}w")], Fraction(2, 7)) for c in ("a", "b")]
    rows = {r.resource: (r.physical, r.logical) for r in capacity_by_resource(inv, taken)}
    assert rows == {
        "nvidia.com/mig-1g.10gb": (Counts(2, 2), Counts(6, 0)),
        "nvidia.com/mig-2g.20gb": (Counts(0, 0), Counts(2, 2)),
    }
