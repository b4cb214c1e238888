"""The node agents' usage posts (and the Prometheus poller's) as `UsageSample`s.

A verified report (`infra.callbacks.verify`) speaks for its signing cluster only; of its
samples, those of sessions that cluster does not run now are ignored (another cluster's
session, an ended one, a made-up id). Which sessions a cluster runs is one small query
(`sessions.id WHERE cluster_id = … AND state IN (…)`) per cluster at most every `ttl`
seconds per API process (and once more, at most every `miss_ttl`, when a sample names a session
that is not in it: a session that just started), so the live-usage path reads PostgreSQL
neither per sample nor per post.

The report format is documented in `operator/gshare_agent/sender.py`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domain.inventory.ports import UsageSample
from domain.sessions.model import SessionState
from infra.callbacks.reports import ReportInvalid
from infra.db.models.sessions import SessionRow

# states in which a session may have a pod on its cluster
WITH_PODS = frozenset(
    {SessionState.SCHEDULED, SessionState.STARTING, SessionState.RUNNING, SessionState.PAUSING, SessionState.STOPPING}
)
MAX_SAMPLES = 20_000


@dataclass(frozen=True, slots=True)
class ParsedUsage:
    samples: tuple[UsageSample, ...]
    invalid: int


def _number(value: Any, *, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"not a number: {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{value!r} is out of range")
    return float(value)


def _at(value: Any) -> datetime:
    parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def sample_of(entry: Mapping[str, Any]) -> UsageSample:
    """One sample of a report; ValueError/KeyError/TypeError when it is not one."""
    return UsageSample(
        session_id=UUID(str(entry["sessionId"])),
        at=_at(entry["at"]),
        cpu_millicores=int(_number(entry.get("cpuMillicores", 0), low=0, high=10_000_000)),
        memory_mib=int(_number(entry.get("memoryMiB", 0), low=0, high=1 << 40)),
        gpu_util_percent=_number(entry.get("gpuUtilPercent", 0), low=0, high=100 * 64),
        gpu_memory_mib=int(_number(entry.get("gpuMemoryMiB", 0), low=0, high=1 << 40)),
    )


def usage_report(cluster_id: str, report: Mapping[str, Any]) -> ParsedUsage:
    if report.get("type") != "usage":
        raise ReportInvalid("not a usage report")
    if report.get("cluster") != cluster_id:
        raise ReportInvalid("report is about another cluster")
    entries = report.get("samples")
    if not isinstance(entries, list):
        raise ReportInvalid("samples must be a list")
    if len(entries) > MAX_SAMPLES:
        raise ReportInvalid(f"at most {MAX_SAMPLES} samples per report")
    samples: list[UsageSample] = []
    invalid = 0
    for entry in entries:
        try:
            if not isinstance(entry, Mapping):
                raise TypeError("not an object")
            samples.append(sample_of(entry))
        except (KeyError, ValueError, TypeError, OverflowError):
            invalid += 1
    return ParsedUsage(tuple(samples), invalid)


class ClusterSessions:
    """Which sessions each cluster runs now (see the module docstring)."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        *,
        ttl: float = 5.0,
        miss_ttl: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._sessions = sessionmaker
        self._ttl = ttl
        self._miss_ttl = miss_ttl
        self._clock = clock
        self._known: dict[str, tuple[float, frozenset[UUID]]] = {}
        self.queries = 0

    async def _load(self, cluster_id: str) -> frozenset[UUID]:
        self.queries += 1
        async with self._sessions() as s:
            rows = await s.scalars(
                select(SessionRow.id).where(
                    SessionRow.cluster_id == cluster_id, SessionRow.state.in_([str(x) for x in WITH_PODS])
                )
            )
            ids = frozenset(rows.all())
        self._known[cluster_id] = (self._clock(), ids)
        if len(self._known) > 10_000:
            self._known.clear()
        return ids

    async def running_on(self, cluster_id: str, wanted: Iterable[UUID]) -> frozenset[UUID]:
        """Those of `wanted` that `cluster_id` runs."""
        wanted = frozenset(wanted)
        now = self._clock()
        entry = self._known.get(cluster_id)
        if entry is None or now - entry[0] >= self._ttl:
            ids = await self._load(cluster_id)
        else:
            ids = entry[1]
            if not wanted <= ids and now - entry[0] >= self._miss_ttl:
                ids = await self._load(cluster_id)
        return wanted & ids


def cluster_sessions(container: Any) -> ClusterSessions:
    """The API process's one index (kept in the container's extras)."""
    index = container.extras.get("cluster_sessions")
    if index is None:
        from infra.db.base import make_sessionmaker

        index = ClusterSessions(make_sessionmaker(container.engine))
        container.extras["cluster_sessions"] = index
    return index  # type: ignore[no-any-return]
