"""Refill schedules: "each member of group X gets 500 credits on the 1st", "top up to N".

A schedule moves credits one level down the hierarchy from its source account, once per
period. Missed periods are not back-filled: a schedule applies the current period only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from uuid import UUID

from domain.common.errors import InvalidValueError
from domain.common.money import MicroCredits
from domain.credits.model import ALLOWED_EDGES, AccountKind, AccountRef, TransferKind


class RefillMode(StrEnum):
    GRANT = "grant"  # add `amount` each period
    TOP_UP = "top_up"  # bring the balance up to `amount` each period (never takes away)


class RefillCadence(StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"  # anchor_day: 0 = Monday … 6 = Sunday
    MONTHLY = "monthly"  # anchor_day: 1 … 28


@dataclass(frozen=True, slots=True)
class RefillSchedule:
    id: UUID
    source: AccountRef
    mode: RefillMode
    amount_micro: MicroCredits
    cadence: RefillCadence
    anchor_day: int
    created_by: UUID | None
    created_at: datetime
    # the last period applied; set to the creation period, so the first refill is the next one
    last_period_start: datetime
    # exactly one of: a single child account, or every member of a group (source = that group)
    target: AccountRef | None = None
    members_of_group: UUID | None = None
    active: bool = True
    memo: str = ""

    def __post_init__(self) -> None:
        validate_refill(
            self.source,
            self.target,
            self.members_of_group,
            self.amount_micro,
            self.cadence,
            self.anchor_day,
        )


def validate_refill(
    source: AccountRef,
    target: AccountRef | None,
    members_of_group: UUID | None,
    amount_micro: MicroCredits,
    cadence: RefillCadence,
    anchor_day: int,
) -> None:
    if amount_micro <= 0:
        raise InvalidValueError("amount", "a refill amount must be positive")
    if (target is None) == (members_of_group is None):
        raise InvalidValueError("target", "name either one target account or a group's members")
    if members_of_group is not None and source != AccountRef.group(members_of_group):
        raise InvalidValueError("source", "a group's members are refilled from that group")
    if target is not None and (source.kind, target.kind) not in ALLOWED_EDGES[TransferKind.REFILL]:
        raise InvalidValueError("target", "a refill moves credits one level down the hierarchy")
    if source.kind is AccountKind.CONSUMPTION:
        raise InvalidValueError("source", "the consumption sink cannot refill")
    if cadence is RefillCadence.WEEKLY and not 0 <= anchor_day <= 6:
        raise InvalidValueError("anchorDay", "a weekly refill day is 0 (Monday) to 6 (Sunday)")
    if cadence is RefillCadence.MONTHLY and not 1 <= anchor_day <= 28:
        raise InvalidValueError("anchorDay", "a monthly refill day is 1 to 28")


def refill_period_start(cadence: RefillCadence, anchor_day: int, now: datetime) -> datetime:
    """The latest refill occurrence at or before `now` (00:00 UTC of the anchor day)."""
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if cadence is RefillCadence.DAILY:
        return day
    if cadence is RefillCadence.WEEKLY:
        return day - timedelta(days=(day.weekday() - anchor_day) % 7)
    if day.day >= anchor_day:
        return day.replace(day=anchor_day)
    year, month = (day.year - 1, 12) if day.month == 1 else (day.year, day.month - 1)
    return day.replace(year=year, month=month, day=anchor_day)


def due_period(schedule: RefillSchedule, now: datetime) -> datetime | None:
    """The period to apply now, or None if the current one is already applied."""
    if not schedule.active:
        return None
    start = refill_period_start(schedule.cadence, schedule.anchor_day, now)
    return start if start > schedule.last_period_start else None


def refill_amount(mode: RefillMode, amount_micro: MicroCredits, balance_micro: int) -> int:
    if mode is RefillMode.GRANT:
        return amount_micro
    return max(0, amount_micro - balance_micro)


def refill_key(schedule_id: UUID, period_start: datetime, target: AccountRef) -> str:
    return f"refill:{schedule_id}:{period_start:%Y%m%d}:{target.id}"
