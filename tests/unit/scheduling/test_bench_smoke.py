"""The placement benchmark runs end to end in quick mode (timings are not asserted)."""

from __future__ import annotations

from tests.bench.placement import run


def test_the_benchmark_runs_in_quick_mode() -> None:
    lines: list[str] = []
    results = run(nodes=20, events=400, seed=3, out=lines.append, fill_seeds=2)
    assert set(results) == {"first-fit", "best-fit", "fragmentation-aware", "scaling"}
    for policy in ("first-fit", "best-fit", "fragmentation-aware"):
        assert results[policy]["rate"] > 0
        assert 0 <= results[policy]["share_at_first_failure"] <= 1
        assert results[policy]["unallocatable_gpus"] >= 0
    assert results["scaling"]["ratio"] > 0
    assert any("decisions/s" in line for line in lines)
