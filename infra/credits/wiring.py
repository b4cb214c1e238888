"""Ready-made adapter sets for the composition root (infra/bootstrap.py) and tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from domain.credits.ports import BudgetRepository, Directory, Ledger, RefillSchedules, UsageReports
from domain.policies.ports import PolicyRepository, UsageReader
from infra.credits.directory import SqlDirectory
from infra.credits.memory import (
    InMemoryBudgets,
    InMemoryDirectory,
    InMemoryLedger,
    InMemoryPolicies,
    InMemoryRefillSchedules,
    InMemoryUsage,
    InMemoryUsageReports,
)
from infra.credits.sql import SqlBudgets, SqlLedger, SqlPolicies, SqlRefillSchedules
from infra.credits.usage import SqlUsageReports


@dataclass(frozen=True)
class CreditsAdapters:
    ledger: Ledger
    refills: RefillSchedules
    budgets: BudgetRepository
    policies: PolicyRepository
    directory: Directory
    usage: UsageReader | None = None  # provided by the sessions context
    reports: UsageReports | None = None  # usage reports (charges joined to their sessions)


def sql_adapters(
    engine: AsyncEngine, *, ledger_engine: AsyncEngine | None = None, usage: UsageReader | None = None
) -> CreditsAdapters:
    """PostgreSQL adapters. `ledger_engine` (see `make_ledger_engine`) serves the money hot
    path without pre-ping; everything else uses the shared `engine`."""
    ledger = SqlLedger(ledger_engine or engine)
    return CreditsAdapters(
        ledger,
        SqlRefillSchedules(ledger),
        SqlBudgets(engine),
        SqlPolicies(engine),
        SqlDirectory(engine),
        usage,
        SqlUsageReports(engine),
    )


def memory_adapters(directory: Any = None, usage: UsageReader | None = None) -> CreditsAdapters:
    ledger = InMemoryLedger()
    return CreditsAdapters(
        ledger,
        InMemoryRefillSchedules(ledger),
        InMemoryBudgets(),
        InMemoryPolicies(),
        directory or InMemoryDirectory(),
        usage or InMemoryUsage(),
        InMemoryUsageReports(ledger),
    )
