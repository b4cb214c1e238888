"""`gshare worker`: a dramatiq worker on the Redis broker running the actors in workers/."""

from __future__ import annotations

import sys

from infra.settings import Settings


def run_worker(settings: Settings, *, processes: int, threads: int) -> int:
    from dramatiq.cli import main as dramatiq_main

    from workers.broker import configure_broker

    configure_broker(settings)
    argv = ["dramatiq", "workers.actors", "--processes", str(processes), "--threads", str(threads)]
    sys.argv = argv
    return int(dramatiq_main() or 0)
