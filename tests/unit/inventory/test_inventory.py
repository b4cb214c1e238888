"""Inventory model, capacity views (physical vs logical), stale resources, instance bundles."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.common.errors import DomainError
from domain.inventory.bundles import instance_bundles
from domain.inventory.capacity import Counts, capacity_by_model, capacity_by_resource, model_totals
from domain.inventory.errors import InventoryErrorCode
from domain.inventory.model import (
    Card,
    Cluster,
    GpuKind,
    Inventory,
    MigInstance,
    MigProfile,
    Node,
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
