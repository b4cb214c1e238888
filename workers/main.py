"""`gshare worker`: one process consuming the Redis broker and running the periodic scheduler.

Run as many as wanted (one per container/pod scales best; `--threads` sets the dramatiq worker
threads of each). SIGTERM/SIGINT stop claiming periods, let running messages finish, and exit.
Prometheus metrics are served on the setting `worker_metrics_port` at `worker_metrics_addr`
(default 127.0.0.1:9464; port 0 = off; `--processes N` supervises N child processes on ports
PORT … PORT+N-1).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from infra.settings import Settings

log = logging.getLogger("gshare.worker")

# the supervisor hands each child its own port through the environment, as any setting
METRICS_PORT_ENV = "GSHARE_WORKER_METRICS_PORT"


async def serve_worker(settings: Settings, *, threads: int, metrics_port: int | None) -> int:
    from infra.bootstrap import build_container
    from infra.runtime import ProcessKind, start_runtime
    from infra.startup import DatabaseBehind, resolve_database
    from workers.runtime import WorkerRuntime, build_broker

    assert settings.redis_url, "gshare worker needs a Redis broker"
    try:
        url = await resolve_database(settings)
    except DatabaseBehind as exc:
        log.error("%s", exc)
        return 2
    if metrics_port:
        from prometheus_client import start_http_server

        start_http_server(metrics_port, addr=settings.worker_metrics_addr)
        log.info("worker metrics on %s:%d/metrics", settings.worker_metrics_addr, metrics_port)
    container = build_container(settings, url)
    runtime = WorkerRuntime(
        container,
        build_broker(settings.redis_url, settings),
        threads=threads,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    process = None
    try:
        # the worker's own composition: adapters for every registered cluster, kept current
        process = await start_runtime(container, ProcessKind.WORKER)
        await runtime.start()
        print(f"gshare: worker {os.getpid()} running ({', '.join(runtime.actors)})", flush=True)
        await stop.wait()
        log.info("stopping")
    finally:
        await runtime.stop()
        if process is not None:
            await process.aclose()
        await container.aclose()
    return 0


def run_worker(settings: Settings, *, processes: int = 1, threads: int = 4) -> int:
    """One worker in this process, or `processes` > 1 supervised child worker processes (each
    its own broker connection, scheduler and metrics port: `worker_metrics_port` + i)."""
    port = settings.worker_metrics_port
    if processes <= 1:
        return asyncio.run(serve_worker(settings, threads=threads, metrics_port=port))
    return _supervise(processes, threads, port)


def _supervise(processes: int, threads: int, port: int) -> int:
    import subprocess
    import sys

    children = []
    for i in range(processes):
        env = dict(os.environ, **{METRICS_PORT_ENV: str(port + i if port else 0)})
        cmd = [sys.executable, "-m", "cli", "worker", "--processes", "1", "--threads", str(threads)]
        children.append(subprocess.Popen(cmd, env=env))  # noqa: S603

    def forward(signum: int, _frame: object) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    codes = [child.wait() for child in children]
    return max(codes, default=0)
