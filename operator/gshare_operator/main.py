"""`gshare operator` / `python -m gshare_operator`: run one cluster's operator."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Sequence

from gshare_operator.settings import load_settings


def main(argv: Sequence[str] | None = None) -> int:
    """Run the operator until SIGTERM/SIGINT; returns the process exit code."""
    settings = load_settings(argv)
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    from gshare_operator.app import serve

    async def run() -> None:
        task = asyncio.create_task(serve(settings))
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(run())
    return 0
