"""Fault injection for the crash tests, off unless a `GSHARE_TEST_*` hook asks for it (the
hooks are declared in `infra.settings.TEST_HOOKS`, never product settings).

`GSHARE_TEST_KILL_AFTER_HOLDS=N`: the process SIGKILLs itself right after its N-th credit hold
was reserved, with other admissions in flight: through the ledger (a queued request re-admitted
by a drain reserves before it writes the session), or written in an admission's transaction
before it commits (since issue 19 a new session's hold commits with its session row: the kill
leaves no hold without its session).
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable
from typing import Any

from domain.credits.model import HoldRequest, HoldResult

log = logging.getLogger(__name__)

KILL_AFTER_HOLDS_ENV = "GSHARE_TEST_KILL_AFTER_HOLDS"


class KillAfterHolds:
    """A Ledger decorator: the N-th successful `reserve` kills the process."""

    def __init__(self, inner: Any, after: int) -> None:
        self.inner = inner
        self.after = after
        self.count = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    async def reserve(self, request: HoldRequest) -> HoldResult:
        result: HoldResult = await self.inner.reserve(request)
        self.count += 1
        if self.count >= self.after:
            log.warning("fault injection: SIGKILL after hold %s (%d reserved)", result.hold.id, self.count)
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    def held(self, request: HoldRequest) -> None:
        """A hold written in a unit of work (not yet committed)."""
        self.count += 1
        if self.count >= self.after:
            log.warning("fault injection: SIGKILL after hold %s (%d reserved)", request.hold_id, self.count)
            os.kill(os.getpid(), signal.SIGKILL)


_process_fault: KillAfterHolds | None = None


def with_faults(ledger: Any) -> Any:
    global _process_fault
    after = os.environ.get(KILL_AFTER_HOLDS_ENV)
    if not after:
        return ledger
    _process_fault = KillAfterHolds(ledger, int(after))
    return _process_fault


def hold_fault() -> Callable[[HoldRequest], None] | None:
    """The hook the unit of work's `WalletHolds` calls after each hold it writes (counted with
    the ledger's), when the fault is on."""
    return _process_fault.held if _process_fault is not None else None
