"""The work of each periodic job: build the adapters from the process's container, call one
use case, say what it did. Each is idempotent by its own keys (the run record is extra)."""

from __future__ import annotations

import logging

from domain.credits import services as credits
from domain.operations import housekeeping
from infra.bootstrap import Container

log = logging.getLogger(__name__)


async def apply_refills(container: Container) -> str:
    """Refill schedules whose current period is not applied yet. Idempotent per schedule and
    period (the period mark and the transfers commit together; keys name schedule, period and
    target), so a redelivered message or a second run in the same period posts nothing."""
    c = container.credits
    outcomes = await credits.apply_due_refills(c.ledger, c.refills, c.directory, container.ids, container.clock.now())
    applied = [o for o in outcomes if o.applied]
    failed = [o for o in outcomes if o.error is not None]
    for o in failed:  # e.g. the source is short: reported, retried on the next period's run
        log.warning("refill schedule %s for %s not applied: %s", o.schedule_id, o.period_start, o.error)
    transfers = sum(len(o.transfers) for o in applied)
    text = f"{len(applied)} schedule(s) applied, {transfers} transfer(s)"
    if failed:
        text += "; not applied: " + ", ".join(f"{o.schedule_id} ({o.error and o.error.code})" for o in failed)
    return text


async def purge_login_sessions(container: Container) -> str:
    removed = await housekeeping.purge_expired_login_sessions(container.uow(), container.clock)
    return f"{removed} expired login session(s) removed"
