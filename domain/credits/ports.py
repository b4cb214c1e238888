"""Ports the credits use cases need. Adapters live in infra/credits (PostgreSQL, in-memory).

The `Ledger` port is atomic per call: each method is one transaction that either applies
completely or not at all, and enforces the ledger invariants itself (idempotency, available
balance ≥ 0 for every account but the system's, cached held = sum of open holds). Use cases
decide who may move what; the ledger decides whether the money is there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from uuid import UUID

from domain.common.money import MicroCredits
from domain.credits.budgets import Budget, BudgetScope, BudgetScopeKind
from domain.credits.model import (
    AccountRef,
    Balance,
    Hold,
    HoldRequest,
    HoldResult,
    Transfer,
    TransferKind,
    TransferRequest,
    TransferResult,
)
from domain.credits.refills import RefillSchedule
from domain.credits.usage import UsageCell, UsageQuery


@dataclass(frozen=True, slots=True)
class TransferQuery:
    account: AccountRef | None = None  # either side
    kind: TransferKind | None = None
    since: datetime | None = None  # inclusive
    until: datetime | None = None  # exclusive
    before_seq: int | None = None  # keyset cursor: newest first, strictly older than this
    limit: int = 100


class WalletHolds(Protocol):
    """Credit holds written in a unit of work's own transaction (admission: a hold commits with
    its session row, or neither does). The invariants are the ledger's: the wallets are locked
    first (ascending account id, as every ledger transaction locks accounts), the caller checks
    the available balance with `check_can_pay`, and `add` keeps the cached held amount equal
    to the open holds."""

    async def lock_wallets(self, user_ids: Sequence[UUID]) -> Mapping[UUID, Balance]:
        """Lock the users' personal wallets; one never used reads as zero."""
        ...

    async def add(self, requests: Sequence[HoldRequest]) -> Sequence[Hold]:
        """Open these holds (new keys, wallets locked by `lock_wallets` in this transaction)."""
        ...


class Ledger(Protocol):
    async def post(self, request: TransferRequest) -> TransferResult:
        """Post one transfer, or replay it if its key was posted with the same parameters.

        Raises InsufficientCreditsError, IdempotencyKeyReusedError, NotFoundError (owner gone).
        """
        ...

    async def post_many(self, requests: Sequence[TransferRequest]) -> list[TransferResult]:
        """All or nothing, in one transaction (bulk allocation)."""
        ...

    async def balances(self, accounts: Sequence[AccountRef]) -> Mapping[AccountRef, Balance]:
        """Every asked account; one never used reads as zero."""
        ...

    async def history(self, query: TransferQuery) -> Sequence[tuple[int, Transfer]]:
        """(seq, transfer) pairs, newest first; seq is the keyset cursor."""
        ...

    async def reserve(self, request: HoldRequest) -> HoldResult: ...

    async def renew_hold(self, hold_id: UUID, amount_micro: MicroCredits, now: datetime) -> Hold:
        """Set an open hold's reserved amount (grow needs the available balance)."""
        ...

    async def charge_hold(self, hold_id: UUID, charge: TransferRequest, *, settle: bool) -> TransferResult:
        """Post `charge` (wallet → consumption) against the hold: the covered part leaves the
        hold, any excess is paid from the available balance; `settle` releases the rest and
        closes the hold. A replayed key changes nothing."""
        ...

    async def release_hold(self, hold_id: UUID, now: datetime) -> Hold:
        """Give back what is still reserved; releasing a closed hold is a no-op."""
        ...

    async def get_hold(self, hold_id: UUID) -> Hold | None: ...

    async def holds_of(self, user_id: UUID, *, open_only: bool = True) -> Sequence[Hold]:
        """A wallet's holds, newest first."""
        ...

    async def open_holds(self, *, created_before: datetime, key_prefix: str) -> Sequence[Hold]:
        """Open holds of every wallet reserved before an instant whose idempotency key starts
        with `key_prefix`, oldest first (the crash-residue sweep)."""
        ...

    async def spend(self, scope: BudgetScope, since: datetime, until: datetime) -> MicroCredits:
        """Charges attributed to the scope (an org's includes its groups' and users')."""
        ...

    async def spend_by(
        self, scope: BudgetScope, since: datetime, until: datetime, by: BudgetScopeKind
    ) -> Mapping[UUID, MicroCredits]:
        """The scope's charges split by group or by user (usage-by-scope summaries)."""
        ...

    async def count(self, query: TransferQuery) -> int:
        """How many transfers `history` would list for the query, ignoring its cursor and limit."""
        ...


class UsageReports(Protocol):
    """A read model over the charges and the sessions they were posted for."""

    async def charges(self, query: UsageQuery) -> Sequence[UsageCell]:
        """The scope's charges in [since, until) summed per key of `query.by` (the charge's
        group or user, or its session's offering; None without a split or where the key is
        unknown) and per period of `query.interval` (None without an interval)."""
        ...


class RefillSchedules(Protocol):
    async def add(self, schedule: RefillSchedule) -> None: ...

    async def get(self, schedule_id: UUID) -> RefillSchedule | None: ...

    async def all(self, source: AccountRef | None = None) -> Sequence[RefillSchedule]: ...

    async def set_active(self, schedule_id: UUID, active: bool) -> bool: ...

    async def apply_period(
        self, schedule_id: UUID, period_start: datetime, requests: Sequence[TransferRequest]
    ) -> list[TransferResult] | None:
        """In one transaction: mark the period applied and post the transfers.

        None if that period (or a later one) was already applied: nothing is posted.
        """
        ...


class BudgetRepository(Protocol):
    async def put(self, budget: Budget) -> Budget:
        """Insert, or replace the budget with the same scope and period (returns the stored
        one, whose id is the existing one's on replace)."""
        ...

    async def get(self, budget_id: UUID) -> Budget | None: ...

    async def for_scopes(self, scopes: Sequence[BudgetScope]) -> Sequence[Budget]: ...

    async def delete(self, budget_id: UUID) -> bool: ...

    async def all(self) -> Sequence[Budget]: ...


class Directory(Protocol):
    """Tenancy facts the credits rules need; implemented over the tenancy tables."""

    async def group_organization(self, group_id: UUID) -> UUID | None: ...

    async def user_groups(self, user_id: UUID) -> Mapping[UUID, UUID]:
        """group id -> organisation id for every group the user belongs to."""
        ...

    async def group_member_ids(self, group_id: UUID) -> Sequence[UUID]: ...
