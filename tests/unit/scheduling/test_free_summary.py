"""What is free of a model, as the session form's capacity lines read it: HAMi memory and
cores, whole cards (exclusive, and HAMi cards nothing touches), untouched HAMi cards,
time-slices and MIG instances, per cluster or all together."""

from __future__ import annotations

from domain.inventory.model import Card, Cluster, Inventory, Node, SharingMode
from domain.scheduling.model import GpuRequest
from domain.scheduling.scheduler import FreeSummary, Scheduler


def test_free_capacity_of_a_model_per_cluster_and_in_all() -> None:
    inv = Inventory(
        (Cluster("c1", "one"), Cluster("c2", "two")),
        (
            Node("h", "h", "c1", SharingMode.HAMI, 8000, 16384, (Card("h1", "L4", 24000), Card("h2", "L4", 24000))),
            Node("x", "x", "c1", SharingMode.EXCLUSIVE, 8000, 16384, (Card("x1", "L4", 24000),)),
            Node(
                "t", "t", "c1", SharingMode.TIMESLICING, 8000, 16384, (Card("t1", "L4", 24000, timeslice_replicas=4),)
            ),
            Node("k", "k", "c2", SharingMode.HAMI, 8000, 16384, (Card("k1", "L4", 24000),)),
        ),
    )
    s = Scheduler(inv)
    assert s.place(GpuRequest("f", "L4", vram_mib=6000, cores=25)) is not None  # on h1
    assert s.place(GpuRequest("ts", "L4", shared=True)) is not None  # a slice of t1
    assert s.free_summary("L4", "c1") == FreeSummary("L4", 18000 + 24000, 75 + 100, 2, 1, 3, {})
    assert s.free_summary("L4", "c2") == FreeSummary("L4", 24000, 100, 1, 1, 0, {})
    assert s.free_summary("L4") == FreeSummary("L4", 66000, 275, 3, 2, 3, {})
    assert s.free_summary("T4") == FreeSummary("T4", 0, 0, 0, 0, 0, {})
