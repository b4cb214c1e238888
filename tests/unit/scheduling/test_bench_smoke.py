"""The placement benchmark runs end to end on a small cluster (timings are not asserted)."""

from __future__ import annotations

from tests.bench.placement import LOADS, ORDER, fill_verdict, run_fill, run_speed, steady_opcodes


def test_the_fill_experiment_and_the_speed_run_work_on_a_small_cluster() -> None:
    lines: list[str] = []
    results = run_fill([3], 0.05, lines.append)
    assert set(results) == set(ORDER)
    for fills in results.values():
        (f,) = fills
        assert [f.allocated[x] >= 0 for x in LOADS] == [True] * len(LOADS)
        assert all(0 <= f.allocated[x] <= 1 for x in LOADS)
        # tasks never leave: what is allocated only grows with the load
        assert [f.allocated[x] for x in LOADS] == sorted(f.allocated[x] for x in LOADS)
        assert 0 < f.cpu_allocated < 1
    verdict = fill_verdict(results, lines.append)
    assert 0 < verdict["allocated@1.0"] <= 1
    rates = run_speed(300, 200, 3, lines.append, names=("best-fit", "fragmentation-aware"))
    assert all(small > 0 and big > 0 for small, big in rates.values())
    assert any("unallocated" in line for line in lines)


def test_the_opcode_count_is_the_same_on_every_run() -> None:
    first = steady_opcodes("fragmentation-aware", 0.02, 3, 60)
    assert first > 100
    assert steady_opcodes("fragmentation-aware", 0.02, 3, 60) == first
