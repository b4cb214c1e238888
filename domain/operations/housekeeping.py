"""Housekeeping use cases run by periodic jobs."""

from __future__ import annotations

from domain.common.clock import Clock
from domain.ports import UnitOfWork


async def purge_expired_login_sessions(uow: UnitOfWork, clock: Clock) -> int:
    """Delete browser sessions past their expiry. Idempotent: a second run finds none."""
    async with uow:
        removed = await uow.credentials.purge_expired_login_sessions(clock.now())
        await uow.commit()
    return removed
