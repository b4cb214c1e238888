"""dramatiq middleware: Prometheus metrics, the host event loop for async actors, and a
test-only fault injector."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import dramatiq
from dramatiq.asyncio import EventLoopThread, set_event_loop_thread
from dramatiq.middleware import Middleware

from workers import metrics

log = logging.getLogger(__name__)


class Metrics(Middleware):
    """Failures, processing time and queue lag of every message."""

    def __init__(self) -> None:
        self._started: dict[str, float] = {}
        self._lock = threading.Lock()

    def before_process_message(self, broker: dramatiq.Broker, message: Any) -> None:
        now = time.time()
        ready_ms = max(message.message_timestamp, message.options.get("eta", 0))
        lag = max(0.0, now - ready_ms / 1000)
        metrics.QUEUE_LAG.labels(message.queue_name).observe(lag)
        metrics.QUEUE_LAG_LAST.labels(message.queue_name).set(lag)
        metrics.IN_PROGRESS.labels(message.queue_name).inc()
        with self._lock:
            self._started[message.message_id] = time.perf_counter()

    def after_process_message(
        self, broker: dramatiq.Broker, message: Any, *, result: Any = None, exception: BaseException | None = None
    ) -> None:
        with self._lock:
            started = self._started.pop(message.message_id, None)
        labels = (message.actor_name, message.queue_name)
        if started is not None:
            metrics.MESSAGE_DURATION.labels(*labels).observe(time.perf_counter() - started)
            metrics.IN_PROGRESS.labels(message.queue_name).dec()
        if exception is not None:
            metrics.ACTOR_FAILURES.labels(*labels).inc()
        metrics.MESSAGES.labels(*labels, "failed" if exception is not None else "ok").inc()

    def after_skip_message(self, broker: dramatiq.Broker, message: Any) -> None:
        with self._lock:
            started = self._started.pop(message.message_id, None)
        if started is not None:
            metrics.IN_PROGRESS.labels(message.queue_name).dec()
        metrics.MESSAGES.labels(message.actor_name, message.queue_name, "skipped").inc()


class _HostLoop(EventLoopThread):
    """dramatiq runs async actors through a global "event loop thread". Instead of a private
    loop, point it at a loop this process already runs (uvicorn's in `gshare serve`, the
    worker's main loop in `gshare worker`), so actors share the process's container: one
    engine, one event bus. The thread object is never started; only `run_coroutine` is used."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        threading.Thread.__init__(self, name="gshare-host-loop", daemon=True)
        self.logger = logging.getLogger("dramatiq.asyncio")
        self.interrupt_check_ival = 0.1
        self.loop = loop

    def start(self, *, timeout: float | None = None) -> None:  # the host owns the loop
        pass

    def stop(self) -> None:
        pass


class HostLoop(Middleware):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def before_worker_boot(self, broker: dramatiq.Broker, worker: Any) -> None:
        set_event_loop_thread(_HostLoop(self.loop))

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: Any) -> None:
        set_event_loop_thread(None)


# ------------------------------------------------------------------------------ test-only

KILL_POINT_ENV = "GSHARE_TEST_KILL_POINT"  # "before_ack" or "after_work"
KILL_ACTOR_ENV = "GSHARE_TEST_KILL_ACTOR"  # the actor (job) name to kill on
KILL_MARKER_ENV = "GSHARE_TEST_KILL_MARKER"  # a file: created when killing, so it happens once


def maybe_kill(point: str, actor_name: str) -> None:
    """SIGKILL this process at `point` when the fault-injection environment asks for it. Used
    by the fault tests only; without the variables it does nothing."""
    if os.environ.get(KILL_POINT_ENV) != point or os.environ.get(KILL_ACTOR_ENV) != actor_name:
        return
    marker = os.environ.get(KILL_MARKER_ENV)
    if not marker:
        return
    path = Path(marker)
    try:
        with path.open("x") as f:
            f.write(f"{os.getpid()} {point} {actor_name}\n")
    except FileExistsError:
        return
    log.warning("fault injection: SIGKILL at %s of %s", point, actor_name)
    logging.shutdown()
    os.kill(os.getpid(), signal.SIGKILL)


class KillSwitch(Middleware):
    """Test-only: SIGKILL after the actor returned (its transaction committed) and before the
    broker is acked, so the message is redelivered to the next worker."""

    def before_ack(self, broker: dramatiq.Broker, message: Any) -> None:
        if message.failed:
            return
        maybe_kill("before_ack", message.actor_name)
