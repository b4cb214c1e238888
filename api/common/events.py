"""Event helpers for subscriptions."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

COALESCE_SECONDS = 0.2


async def coalesced(
    events: AsyncIterator[tuple[str, dict[str, Any]]], window: float = COALESCE_SECONDS
) -> AsyncIterator[list[tuple[str, dict[str, Any]]]]:
    """Bursts of events as one batch each: the first event and whatever follows within
    `window` seconds of it (a placement that moves twenty sessions refetches a list once)."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            batch = [await anext(events)]
        except StopAsyncIteration:
            return
        deadline = loop.time() + window
        while (left := deadline - loop.time()) > 0:
            try:
                batch.append(await asyncio.wait_for(anext(events), left))
            except TimeoutError:
                break
            except StopAsyncIteration:
                yield batch
                return
        yield batch
