"""Every periodic job's definition: its name, cadence and what it does. The workers pair each
with the work it runs (workers/registry.py); the operations view lists them from here, so the
API needs no worker code to say which jobs exist and when they are due.

Session billing (issue 7): metering on its own queue, so a slow housekeeping job never delays
a tick; the queue drain runs periodically too, so queued sessions are admitted promptly in any
process even when the process that freed the capacity died before draining.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from domain.operations.model import Every, JobDefinition

METER_TICK_SECONDS = 60

PERIODIC: tuple[JobDefinition, ...] = (
    JobDefinition("credits.refills", Every(60), "Apply refill schedules whose period has begun."),
    JobDefinition(
        "sessions.meter",
        Every(METER_TICK_SECONDS),
        "Bill running sessions up to now, renew holds one window ahead, pause when a hold runs out.",
    ),
    JobDefinition(
        "sessions.expire",
        Every(60, offset_seconds=20),
        "Warn at 90 % of a session's duration; expire it at the end.",
    ),
    JobDefinition(
        "sessions.idle_reclaim",
        Every(60, offset_seconds=30),
        "Pause sessions idle beyond their policy's timeout (GPU util; CPU for CPU-only sessions).",
    ),
    JobDefinition("sessions.drain_queue", Every(15), "Admit queued sessions that fit now."),
    JobDefinition(
        "sessions.sweep_residue",
        Every(60, offset_seconds=50),
        "Release holds no session names, hand stalled admissions off again (or fail them), free stray capacity.",
    ),
    JobDefinition(
        "credits.budget_alerts",
        Every(300, offset_seconds=40),
        "Notify budget thresholds crossed (once per period).",
    ),
    JobDefinition(
        "usage.prometheus",
        Every(15),
        "Live usage of the clusters that have a Prometheus (per-pod cAdvisor, HAMi and DCGM series).",
    ),
    JobDefinition(
        "usage.history",
        Every(60, offset_seconds=10),
        "Roll running sessions' live usage into per-minute history; delete history past its retention.",
    ),
    JobDefinition("tenancy.purge_login_sessions", Every(3600, offset_seconds=120), "Delete expired sign-ins."),
)

BY_NAME: dict[str, JobDefinition] = {d.name: d for d in PERIODIC}


def parse_periods(spec: str | None, known: Collection[str]) -> dict[str, int]:
    """`name=seconds,…` (the setting `worker_job_periods`) as seconds per job name; a name
    that is not in `known` is refused."""
    seconds: dict[str, int] = {}
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        seconds[name.strip()] = int(value)
    unknown = set(seconds) - set(known)
    if unknown:
        raise ValueError(f"GSHARE_WORKER_JOB_PERIODS names unknown jobs: {', '.join(sorted(unknown))}")
    return seconds


def configured(spec: str | None, base: tuple[JobDefinition, ...] = PERIODIC) -> tuple[JobDefinition, ...]:
    """The definitions with the cadences of `spec` (operations tuning, and short periods in tests)."""
    seconds = parse_periods(spec, {d.name for d in base})
    return tuple(replace(d, cadence=Every(seconds[d.name])) if d.name in seconds else d for d in base)
