"""Items (status reports here) arriving together are written together, in order, and one bad
item only fails its own caller."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from uuid import UUID, uuid4

import pytest

from domain.inventory.ports import StatusReport, WorkloadPhase
from infra.coalesce import Coalescer

AT = datetime(2026, 11, 29, tzinfo=UTC)


def report(sid: UUID | None = None, phase: WorkloadPhase = WorkloadPhase.RUNNING) -> StatusReport:
    return StatusReport(sid or uuid4(), phase, AT)


async def test_concurrent_reports_share_transactions_and_keep_their_order() -> None:
    written: list[list[StatusReport]] = []

    async def write(reports: Sequence[StatusReport]) -> None:
        await asyncio.sleep(0.01)  # a transaction's round trips
        written.append(list(reports))

    batcher = Coalescer(write, max_batch=20)
    reports = [report() for _ in range(50)]
    await asyncio.gather(*(batcher.submit(r) for r in reports))
    assert [r for batch in written for r in batch] == reports  # each exactly once, in arrival order
    assert batcher.batches == len(written) <= 4  # the first alone, then batches of up to 20
    assert max(len(b) for b in written) == 20


async def test_a_failing_report_fails_only_its_own_caller() -> None:
    bad = report()
    written: list[StatusReport] = []

    async def write(reports: Sequence[StatusReport]) -> None:
        await asyncio.sleep(0)
        if bad in reports:
            raise RuntimeError("session row is gone")
        written.extend(reports)

    batcher = Coalescer(write)
    first, others = report(), [report() for _ in range(5)]
    results = await asyncio.gather(
        batcher.submit(first), *(batcher.submit(r) for r in [*others[:2], bad, *others[2:]]), return_exceptions=True
    )
    assert [type(r) for r in results] == [type(None)] * 3 + [RuntimeError] + [type(None)] * 3
    assert sorted(map(id, written)) == sorted(map(id, [first, *others]))


async def test_a_caller_that_stops_waiting_does_not_break_the_batch() -> None:
    release = asyncio.Event()
    written: list[StatusReport] = []

    async def write(reports: Sequence[StatusReport]) -> None:
        await release.wait()
        written.extend(reports)

    batcher = Coalescer(write)
    a, b = report(), report()
    ta = asyncio.create_task(batcher.submit(a))
    tb = asyncio.create_task(batcher.submit(b))
    await asyncio.sleep(0)
    ta.cancel()
    with pytest.raises(asyncio.CancelledError):
        await ta
    release.set()
    await tb
    assert b in written
