"""Coalescing concurrent writes: items submitted while one batch is being written wait for
the next batch, and each batch is one transaction. Each caller still awaits its own item's
outcome, so nothing a caller relies on changes: order is kept, and an error reaches the
caller whose item caused it (a failed batch is written again item by item).

Used for a cluster's status reports: a busy cluster starts many pods at once, and one
transaction per report made the reports a quarter of every admission's CPU."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Coalescer(Generic[T]):
    def __init__(self, handle: Callable[[Sequence[T]], Awaitable[object]], *, max_batch: int = 200) -> None:
        self._handle = handle
        self._max_batch = max_batch
        self._pending: list[tuple[T, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0  # how many times the handler ran (for tests and metrics)

    async def submit(self, item: T) -> None:
        """Returns once the item is written (or raises what writing it raised)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all())
        await future

    async def _write_all(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[: self._max_batch], self._pending[self._max_batch :]
            try:
                await self._write(batch)
            except BaseException:  # cancelled at shutdown: nobody is left waiting in vain
                for _, future in batch + self._pending:
                    future.cancel()
                self._pending = []
                raise

    async def _write(self, batch: list[tuple[T, asyncio.Future[None]]]) -> None:
        self.batches += 1
        try:
            await self._handle([item for item, _ in batch])
        except Exception as exc:
            if len(batch) == 1:
                _settle(batch[0][1], exc)
                return
            # one bad item must not sink the others: write them one by one
            log.warning("a batch of %d failed; writing its items one by one", len(batch), exc_info=True)
            for item, future in batch:
                try:
                    self.batches += 1
                    await self._handle([item])
                except Exception as exc:
                    _settle(future, exc)
                else:
                    _settle(future)
            return
        for _, future in batch:
            _settle(future)


def _settle(future: asyncio.Future[None], exc: Exception | None = None) -> None:
    if future.done():  # its caller stopped waiting (cancelled)
        return
    if exc is None:
        future.set_result(None)
    else:
        future.set_exception(exc)
