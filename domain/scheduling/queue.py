"""The wait queue: one per offering, ordered by priority (higher first) then arrival.

Requests are expected to have been offered to `Scheduler.place` once on arrival (which
counts them in the policies' request mix); `drain` retries them without counting again.
When capacity frees, `drain` admits the head first. If the head still does not fit, it gets a
*reservation*: the node closest to fitting it (the one that will, as its tenants leave, be
the first able to take it). Requests behind the head are admitted (backfilled) only on other
nodes, so a backfill never takes what the head is waiting for and cannot delay it.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.scheduling.errors import SchedulingError, SchedulingErrorCode
from domain.scheduling.model import Allocation, GpuRequest
from domain.scheduling.scheduler import Scheduler


@dataclass(frozen=True, slots=True)
class QueueEntry:
    request: GpuRequest
    # the caller's arrival sequence (e.g. a database sequence); ties in priority go by it
    arrival: int

    @property
    def workload_id(self) -> str:
        return self.request.workload_id

    @property
    def sort_key(self) -> tuple[int, int, str]:
        return (-self.request.priority, self.arrival, self.request.workload_id)

    def to_dict(self) -> dict[str, Any]:
        return {"request": self.request.to_dict(), "arrival": self.arrival}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QueueEntry:
        return cls(GpuRequest.from_dict(data["request"]), int(data["arrival"]))


@dataclass(frozen=True, slots=True)
class QueuePosition:
    offering: str
    position: int  # 1 = head
    length: int

    @property
    def ahead(self) -> int:
        return self.position - 1


@dataclass(frozen=True, slots=True)
class DrainResult:
    admitted: tuple[Allocation, ...]
    backfilled: tuple[str, ...]  # workload ids among `admitted` that went around a blocked head
    # offering -> (blocked head workload id, its reserved node ids)
    reservations: Mapping[str, tuple[str, frozenset[str]]]


class GpuQueue:
    """All offerings' queues. Plain data in, plain data out (`to_dict` / `from_dict`)."""

    def __init__(self, entries: Iterable[QueueEntry] = ()) -> None:
        self._queues: dict[str, list[tuple[tuple[int, int, str], QueueEntry]]] = {}
        self._where: dict[str, QueueEntry] = {}
        self._next_arrival = 0
        self.version = 0  # bumped by every change: tells a store whether its copy changed
        for entry in entries:
            self._insert(entry)

    def _insert(self, entry: QueueEntry) -> None:
        if entry.workload_id in self._where:
            raise SchedulingError(
                SchedulingErrorCode.QUEUE_ENTRY_DUPLICATE,
                f"workload {entry.workload_id} is already queued",
                "workload_id",
            )
        insort(self._queues.setdefault(entry.request.offering, []), (entry.sort_key, entry))
        self._where[entry.workload_id] = entry
        self._next_arrival = max(self._next_arrival, entry.arrival + 1)
        self.version += 1

    def enqueue(self, request: GpuRequest, arrival: int | None = None) -> QueueEntry:
        """Queue a request (validated first: what can never run is refused, not queued)."""
        request.validate()
        entry = QueueEntry(request, self._next_arrival if arrival is None else arrival)
        self._insert(entry)
        return entry

    def remove(self, workload_id: str) -> QueueEntry:
        entry = self._where.pop(workload_id, None)
        if entry is None:
            raise SchedulingError(
                SchedulingErrorCode.QUEUE_ENTRY_UNKNOWN,
                f"workload {workload_id} is not queued",
                "workload_id",
            )
        queue = self._queues[entry.request.offering]
        del queue[bisect_left(queue, (entry.sort_key,))]
        if not queue:
            del self._queues[entry.request.offering]
        self.version += 1
        return entry

    def __contains__(self, workload_id: object) -> bool:
        return workload_id in self._where

    def __len__(self) -> int:
        return len(self._where)

    def offerings(self) -> list[str]:
        return sorted(self._queues)

    def entries(self, offering: str | None = None) -> list[QueueEntry]:
        """In admission order; all offerings (each in order, offerings by name) when None."""
        names = self.offerings() if offering is None else [offering]
        return [e for name in names for _, e in self._queues.get(name, [])]

    def position(self, workload_id: str) -> QueuePosition:
        entry = self._where.get(workload_id)
        if entry is None:
            raise SchedulingError(
                SchedulingErrorCode.QUEUE_ENTRY_UNKNOWN,
                f"workload {workload_id} is not queued",
                "workload_id",
            )
        queue = self._queues[entry.request.offering]
        index = bisect_left(queue, (entry.sort_key,))
        return QueuePosition(entry.request.offering, index + 1, len(queue))

    def drain(self, scheduler: Scheduler, offering: str | None = None) -> DrainResult:
        """Admit what fits now, head first, backfilling around a blocked head."""
        admitted: list[Allocation] = []
        backfilled: list[str] = []
        reservations: dict[str, tuple[str, frozenset[str]]] = {}
        for name in self.offerings() if offering is None else [offering]:
            blocked: QueueEntry | None = None
            reserved: frozenset[str] = frozenset()
            for entry in self.entries(name):
                if blocked is None:
                    allocation = scheduler.place(entry.request, observe=False)
                    if allocation is None:
                        blocked = entry
                        reserved = scheduler.reservation(entry.request)
                        reservations[name] = (entry.workload_id, reserved)
                        continue
                else:
                    placement = scheduler.find(entry.request, exclude_nodes=reserved)
                    if placement is None:
                        continue
                    allocation = Allocation(entry.request, placement)
                    scheduler.apply(allocation)
                    backfilled.append(entry.workload_id)
                self.remove(entry.workload_id)
                admitted.append(allocation)
        return DrainResult(tuple(admitted), tuple(backfilled), reservations)

    def to_dict(self) -> dict[str, Any]:
        return {"entries": [e.to_dict() for e in self.entries()]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GpuQueue:
        return cls(QueueEntry.from_dict(e) for e in data.get("entries", ()))
