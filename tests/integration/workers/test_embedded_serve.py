"""The embedded default: `gshare serve` runs the same actors and the periodic scheduler in its
own process (StubBroker + dramatiq Worker) and stops them cleanly on SIGTERM."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.support.serve import gshare_serve

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(90)]


def runs(log: str) -> list[str]:
    return [line for line in log.splitlines() if "workers.actors: credits.refills " in line and " attempt 1:" in line]


def test_gshare_serve_runs_the_periodic_jobs_in_process(tmp_path: Path) -> None:
    periods = "credits.refills=1,tenancy.purge_login_sessions=1"
    env = {"GSHARE_WORKER_JOB_PERIODS": periods, "GSHARE_DEMO": "false", "GSHARE_LOG_LEVEL": "debug"}
    with gshare_serve(tmp_path, env=env, premade_postgres=True) as served:
        deadline = time.monotonic() + 20
        while len(runs(served.log.read_text())) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
    log = served.log.read_text()
    assert "workers started (StubBroker" in log
    assert len(runs(log)) >= 3, log[-3000:]
    assert "workers stopped" in log, log[-3000:]  # SIGTERM: scheduler and worker stopped before exit


def test_info_log_quiet(tmp_path: Path) -> None:
    """Every periodic job runs each minute or faster: at the default INFO level a serve's log
    does not grow by a line per run (issue 18: short logs)."""
    periods = "credits.refills=1,tenancy.purge_login_sessions=1"
    env = {"GSHARE_WORKER_JOB_PERIODS": periods, "GSHARE_DEMO": "false"}
    with gshare_serve(tmp_path, env=env, premade_postgres=True) as served:
        time.sleep(4)
    log = served.log.read_text()
    assert "workers started (StubBroker" in log
    assert runs(log) == [] and " attempt " not in log, log[-3000:]
