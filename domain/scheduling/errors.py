"""Scheduling refusals: requests that can never be placed as asked, and inconsistent state."""

from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError


class SchedulingErrorCode(StrEnum):
    GPU_REQUEST_INVALID = "GPU_REQUEST_INVALID"
    JOB_TIMESLICE_REFUSED = "JOB_TIMESLICE_REFUSED"
    JOB_MIG_REFUSED = "JOB_MIG_REFUSED"
    JOB_FRACTION_REFUSED = "JOB_FRACTION_REFUSED"
    PLACEMENT_CONFLICT = "PLACEMENT_CONFLICT"
    WORKLOAD_ALREADY_PLACED = "WORKLOAD_ALREADY_PLACED"
    WORKLOAD_NOT_PLACED = "WORKLOAD_NOT_PLACED"
    PLACEMENT_POLICY_UNKNOWN = "PLACEMENT_POLICY_UNKNOWN"
    QUEUE_ENTRY_DUPLICATE = "QUEUE_ENTRY_DUPLICATE"
    QUEUE_ENTRY_UNKNOWN = "QUEUE_ENTRY_UNKNOWN"


class SchedulingError(DomainError):
    def __init__(self, code: SchedulingErrorCode, message: str, field: str | None = None) -> None:
        super().__init__(code, message, field)


class JobCapacityRefused(SchedulingError):
    """A job asked for (or was assigned) capacity jobs may not use; the message says why."""
