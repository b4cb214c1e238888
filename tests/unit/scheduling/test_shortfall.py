"""Why a request waits, as a kind and numbers by name beside the English (issue 18: the
console says a QUEUED session's shortfall in Korean from these parameters)."""

from __future__ import annotations

from domain.inventory.model import SharingMode
from domain.scheduling.model import CPU_QUEUE, GpuRequest
from domain.scheduling.scheduler import Scheduler, ShortfallKind
from tests.unit.scheduling.helpers import A100, card, inventory, node


def test_whole_cards_taken_name_the_model_and_the_cards_asked() -> None:
    s = Scheduler(inventory(node("n1", SharingMode.EXCLUSIVE, card("g1"), card("g2"))))
    assert s.place(GpuRequest("a", A100, exclusive_cards=1)) is not None
    short = s.why_short(GpuRequest("b", A100, exclusive_cards=2))
    assert short.kind is ShortfallKind.GPU_TAKEN
    assert short.params() == {"shortfall": "GPU_TAKEN", "model": A100, "cards": "2"}
    assert short.text == s.shortfall(GpuRequest("b", A100, exclusive_cards=2))
    assert short.text == "no GPU capacity of the kind it asks for is free"


def test_cpu_and_memory_beside_free_gpus_name_the_node_and_what_it_has_free() -> None:
    s = Scheduler(inventory(node("n1", SharingMode.EXCLUSIVE, card("g1"), card("g2"), cpu=4000, mem=8192)))
    assert s.place(GpuRequest("a", A100, exclusive_cards=1, cpu_millicores=3000, memory_mib=2048)) is not None
    short = s.why_short(GpuRequest("b", A100, exclusive_cards=1, cpu_millicores=2500, memory_mib=1024))
    assert short.params() == {
        "shortfall": "CPU_MEMORY_BESIDE_GPU",
        "node": "n1",
        "freeCpu": "1",
        "freeMemoryGib": "6",
        "cpu": "2.5",
        "memoryGib": "1",
    }
    assert short.text.startswith("the GPU capacity is free on node n1, but it has 1 CPU free of the 2.5 CPU")


def test_a_cpu_only_request_names_the_cpu_and_memory_no_node_has() -> None:
    s = Scheduler(inventory(node("n1", SharingMode.EXCLUSIVE, card("g1"), cpu=2000, mem=4096)))
    short = s.why_short(GpuRequest("c", CPU_QUEUE, cpu_only=True, cpu_millicores=4000, memory_mib=8192))
    assert short.params() == {"shortfall": "CPU_MEMORY", "cpu": "4", "memoryGib": "8"}
    assert short.text == "no node has 4 CPU and 8 GiB of memory free"
