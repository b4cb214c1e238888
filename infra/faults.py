"""Fault injection for the crash tests, off unless a `GSHARE_TEST_*` hook asks for it (the
hooks are declared in `infra.settings.TEST_HOOKS`, never product settings).

`GSHARE_TEST_KILL_AFTER_HOLDS=N`: the process SIGKILLs itself right after its N-th credit hold
was reserved, before the admission that reserved it writes its session: the residue a crash
between admission steps 6 and 7 leaves, at a known moment, with other admissions in flight.
"""

from __future__ import annotations

import logging
import os
import signal
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


def with_faults(ledger: Any) -> Any:
    after = os.environ.get(KILL_AFTER_HOLDS_ENV)
    return KillAfterHolds(ledger, int(after)) if after else ledger
