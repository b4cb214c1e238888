"""Budgets: a credit limit over a scope's spend in a period, with `warn` or `block`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from domain.common.errors import InvalidValueError
from domain.common.money import MicroCredits, micro_to_credits_str
from domain.credits.errors import BudgetExceededError
from domain.credits.model import Period


class BudgetScopeKind(StrEnum):
    ORGANIZATION = "organization"
    GROUP = "group"
    USER = "user"


class BudgetAction(StrEnum):
    WARN = "warn"  # admits, and notifies as thresholds are crossed
    BLOCK = "block"  # refuses new GPU sessions in the scope once the limit is reached


DEFAULT_THRESHOLDS = (50, 80, 100)


@dataclass(frozen=True, slots=True)
class BudgetScope:
    kind: BudgetScopeKind
    id: UUID


@dataclass(frozen=True, slots=True)
class Budget:
    id: UUID
    scope: BudgetScope
    limit_micro: MicroCredits
    action: BudgetAction
    created_at: datetime
    updated_at: datetime
    period: Period = Period.MONTHLY
    alert_thresholds: tuple[int, ...] = DEFAULT_THRESHOLDS
    updated_by: UUID | None = None

    def __post_init__(self) -> None:
        validate_budget(self.limit_micro, self.alert_thresholds)


def validate_budget(limit_micro: MicroCredits, thresholds: tuple[int, ...]) -> None:
    if limit_micro < 0:
        raise InvalidValueError("limit", "a budget limit cannot be negative")
    if any(not 1 <= t <= 1000 for t in thresholds):
        raise InvalidValueError("alertThresholds", "thresholds are percentages from 1 to 1000")
    if list(thresholds) != sorted(set(thresholds)):
        raise InvalidValueError("alertThresholds", "thresholds must be increasing and distinct")


@dataclass(frozen=True, slots=True)
class BudgetStatus:
    budget: Budget
    scope_name: str
    period_start: datetime
    period_end: datetime
    spent_micro: MicroCredits

    @property
    def limit_micro(self) -> MicroCredits:
        return self.budget.limit_micro

    @property
    def exceeded(self) -> bool:
        """The limit is reached: any further spend would go over it."""
        return self.spent_micro >= self.budget.limit_micro

    @property
    def crossed_thresholds(self) -> tuple[int, ...]:
        return tuple(t for t in self.budget.alert_thresholds if self.spent_micro * 100 >= t * self.limit_micro)

    @property
    def percent_used(self) -> float:
        if self.limit_micro == 0:
            return 100.0 if self.spent_micro == 0 else float("inf")
        return self.spent_micro * 100 / self.limit_micro

    def message(self) -> str:
        return (
            f"{self.budget.scope.kind} {self.scope_name} has spent "
            f"{micro_to_credits_str(self.spent_micro)} of its "
            f"{micro_to_credits_str(self.limit_micro)} credit {self.budget.period} budget "
            f"({self.budget.action})"
        )


@dataclass(frozen=True, slots=True)
class BudgetGateResult:
    allowed: bool
    statuses: tuple[BudgetStatus, ...]
    # warn budgets past a threshold, and block budgets past a threshold but not yet exceeded
    warnings: tuple[BudgetStatus, ...]
    refusal: BudgetStatus | None

    @property
    def message(self) -> str:
        return self.refusal.message() if self.refusal else ""

    def raise_if_refused(self) -> None:
        """For drivers that want the refusal as the typed BUDGET_EXCEEDED error."""
        if self.refusal is not None:
            raise BudgetExceededError(self.refusal.message(), self.refusal.limit_micro, self.refusal.spent_micro)


def gate(statuses: tuple[BudgetStatus, ...]) -> BudgetGateResult:
    """Most specific refusal first (statuses come user → group → org)."""
    refusal = next((s for s in statuses if s.budget.action is BudgetAction.BLOCK and s.exceeded), None)
    warnings = tuple(s for s in statuses if s is not refusal and s.crossed_thresholds)
    return BudgetGateResult(refusal is None, statuses, warnings, refusal)
