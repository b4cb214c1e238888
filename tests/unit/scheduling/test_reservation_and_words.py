"""Why a request waits, in the words the session list shows ("waiting for capacity: …"):
the CPU or memory the node with free GPU capacity lacks, or that the GPU capacity is taken."""

from __future__ import annotations

from domain.inventory.model import Card, Cluster, Inventory, Node, SharingMode
from domain.scheduling.model import CPU_QUEUE, GpuRequest
from domain.scheduling.scheduler import Scheduler


def scheduler() -> Scheduler:
    """One exclusive node of two L4 cards, 6.5 CPU and 12.5 GiB; one CPU node of 2 CPU, 4 GiB."""
    cards = (Card("g1", "L4", 23034), Card("g2", "L4", 23034))
    return Scheduler(
        Inventory(
            (Cluster("c", "c"),),
            (
                Node("gpu", "gpu", "c", SharingMode.EXCLUSIVE, 6500, 12800, cards),
                Node("cpu", "cpu", "c", SharingMode.EXCLUSIVE, 2000, 4096),
            ),
        )
    )


def test_a_cpu_request_that_fits_nowhere_says_what_it_asked() -> None:
    s = scheduler()
    big = GpuRequest("w", CPU_QUEUE, cpu_only=True, cpu_millicores=7500, memory_mib=13312)
    assert s.shortfall(big) == "no node has 7.5 CPU and 13 GiB of memory free"


def test_a_gpu_request_says_what_the_node_with_the_gpu_capacity_lacks() -> None:
    s = scheduler()
    cpu_short = GpuRequest("w", "L4", exclusive_cards=1, cpu_millicores=7000, memory_mib=1024)
    assert s.shortfall(cpu_short) == (
        "the GPU capacity is free on node gpu, but it has 6.5 CPU free of the 7 CPU and 1 GiB of memory asked; "
        "no node with the GPU capacity free has the CPU and memory"
    )
    both_short = GpuRequest("w", "L4", exclusive_cards=1, cpu_millicores=7000, memory_mib=13312)
    assert s.shortfall(both_short) == (
        "the GPU capacity is free on node gpu, but it has 6.5 CPU free and 12.5 GiB free of the 7 CPU and 13 GiB "
        "of memory asked; no node with the GPU capacity free has the CPU and memory"
    )
    memory_short = GpuRequest("w", "L4", exclusive_cards=1, cpu_millicores=1000, memory_mib=13312)
    assert "but it has 12.5 GiB free of the 1 CPU and 13 GiB of memory asked;" in s.shortfall(memory_short)
    # both cards taken: it is the GPU capacity that is missing
    assert s.place(GpuRequest("x", "L4", exclusive_cards=2, cpu_millicores=500, memory_mib=512)) is not None
    assert s.shortfall(GpuRequest("w", "L4", exclusive_cards=1)) == "no GPU capacity of the kind it asks for is free"


def two_gpu_nodes() -> Scheduler:
    """a and b: two L4 cards, 8 CPU and 16 GiB each (a listed first); cpu: 8 CPU, 16 GiB."""
    return Scheduler(
        Inventory(
            (Cluster("c", "c"),),
            (
                *tuple(
                    Node(
                        n,
                        n,
                        "c",
                        SharingMode.EXCLUSIVE,
                        8000,
                        16384,
                        (Card(f"{n}1", "L4", 23034), Card(f"{n}2", "L4", 23034)),
                    )
                    for n in ("a", "b")
                ),
                Node("cpu", "cpu", "c", SharingMode.EXCLUSIVE, 8000, 16384),
            ),
        )
    )


def test_a_blocked_request_waits_for_the_node_that_lacks_the_least() -> None:
    s = two_gpu_nodes()
    assert s.place(GpuRequest("a-both", "L4", exclusive_cards=2)) is not None
    assert s.place(GpuRequest("b-one", "L4", exclusive_cards=1)) is not None
    placed = {a.workload_id: a.placement.node_id for a in s.allocations()}
    busy, half = placed["a-both"], placed["b-one"]
    # two cards: the half-taken node lacks one, the full one two
    assert s.reservation(GpuRequest("w", "L4", exclusive_cards=2)) == frozenset({half})
    # three cards: no node could ever host it
    assert s.reservation(GpuRequest("w", "L4", exclusive_cards=3)) == frozenset()
    # nor a node too small in CPU or memory, whatever is free
    assert s.reservation(GpuRequest("w", "L4", exclusive_cards=1, cpu_millicores=8001)) == frozenset()
    assert s.reservation(GpuRequest("w", "L4", exclusive_cards=1, memory_mib=16385)) == frozenset()
    assert s.reservation(GpuRequest("w", "L4", exclusive_cards=1, cpu_millicores=8000, memory_mib=16384)) == frozenset(
        {half}
    )
    # a cordoned node is not waited for
    s.set_cordoned(half, True)
    assert s.reservation(GpuRequest("w", "L4", exclusive_cards=2)) == frozenset({busy})


def test_a_cpu_request_waits_for_a_cpu_node_before_a_gpu_node_and_for_the_freest() -> None:
    s = two_gpu_nodes()
    cpu = GpuRequest("w", CPU_QUEUE, cpu_only=True, cpu_millicores=8000, memory_mib=1024)
    assert s.reservation(cpu) == frozenset({"cpu"})
    assert s.place(GpuRequest("c1", CPU_QUEUE, cpu_only=True, cpu_millicores=6000, memory_mib=1024)) is not None
    assert s.place(GpuRequest("a1", CPU_QUEUE, cpu_only=True, cpu_millicores=3000, memory_mib=1024)) is not None
    held = {a.workload_id: a.placement.node_id for a in s.allocations()}
    assert held["c1"] == "cpu" and held["a1"] in ("a", "b")  # 2 CPU left on the CPU node: a1 took a GPU node's
    # the CPU node lacks 6 of its 8 CPU, the GPU node that took a1 3 of 8, the other none
    free_gpu = ({"a", "b"} - {held["a1"]}).pop()
    assert s.reservation(cpu) == frozenset({free_gpu})
