"""What keeps the serve process's event loop turning under load (issue 19): a periodic job's
read of every running session is mapped in pieces, and the collector's middle generation is
collected often enough that it never holds a long run of requests' cyclic garbage."""

from __future__ import annotations

import asyncio
import gc

from cli.main import _tune_gc
from infra.db.repositories import sessions as repo


async def test_rows_are_mapped_in_chunks_with_other_work_between() -> None:
    rows = list(range(2 * repo.MAP_CHUNK + 7))
    seen_by_other: list[int] = []
    mapped: list[int] = []

    def read(r: int) -> int:  # stands in for a row's Session (the helper is typed for those)
        mapped.append(r)
        return r * 10

    async def other() -> None:
        while len(mapped) < len(rows):
            seen_by_other.append(len(mapped))
            await asyncio.sleep(0)

    watcher = asyncio.create_task(other())
    await asyncio.sleep(0)  # the watcher sees nothing mapped yet
    out = await repo._mapped(rows, read)  # type: ignore[arg-type]
    await watcher
    assert out == [r * 10 for r in rows]  # every row, in order
    # the other task ran after each full chunk, never in the middle of one
    assert seen_by_other[0] == 0
    assert sorted(set(seen_by_other)) == [0, repo.MAP_CHUNK, 2 * repo.MAP_CHUNK]


async def test_fewer_rows_than_a_chunk_are_mapped_without_yielding() -> None:
    order: list[str] = []

    async def other() -> None:
        order.append("other")

    task = asyncio.create_task(other())
    out = await repo._mapped(list(range(repo.MAP_CHUNK - 1)), lambda r: r)  # type: ignore[arg-type,return-value]
    order.append("mapped")
    await task
    assert len(out) == repo.MAP_CHUNK - 1
    assert order == ["mapped", "other"]  # a get_many of a few sessions costs no extra turn


def test_the_middle_generation_is_collected_often_and_the_oldest_as_rarely_as_before() -> None:
    before = gc.get_threshold()
    try:
        _tune_gc()
        young, middle, oldest = gc.get_threshold()
        assert young == 20_000
        # 50 young collections' survivors (6-12 k each, mostly requests in flight that die as
        # cyclic garbage) made a 470 ms pause; 5 make one about as long as a young collection
        assert middle <= 5
        assert middle * oldest >= 5_000  # a full collection no more often than with (50, 100)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
