"""Dramatiq actors. Each is idempotent (delivery is at least once) and thin: load, call a use
case, commit. The container is built once per worker process from settings."""

from __future__ import annotations

import asyncio
import logging

import dramatiq

log = logging.getLogger(__name__)


async def _purge_expired_login_sessions() -> int:
    from infra.bootstrap import build_container
    from infra.settings import Settings
    from infra.startup import resolve_database

    settings = Settings()
    container = build_container(settings, await resolve_database(settings))
    try:
        async with container.uow() as uow:
            removed = await uow.credentials.purge_expired_login_sessions(container.clock.now())
            await uow.commit()
        return removed
    finally:
        await container.aclose()


@dramatiq.actor(queue_name="housekeeping", max_retries=3)
def purge_expired_login_sessions() -> None:
    """Delete browser sessions past their expiry (idempotent: deleting twice removes nothing)."""
    removed = asyncio.run(_purge_expired_login_sessions())
    log.info("purged %d expired login sessions", removed)
