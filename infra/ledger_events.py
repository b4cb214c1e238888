"""A Ledger decorator that announces wallet changes on the EventBus after each committed
movement, so wallet subscriptions update live whoever moved the credits (an admin's
allocation, a hold, a charge, a refill)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from uuid import UUID

from domain.common.money import MicroCredits
from domain.credits.budgets import BudgetScope
from domain.credits.model import (
    AccountKind,
    AccountRef,
    Balance,
    Hold,
    HoldRequest,
    HoldResult,
    Transfer,
    TransferRequest,
    TransferResult,
)
from domain.credits.ports import Ledger, TransferQuery
from domain.ports import EventBus
from domain.sessions.services import wallet_topic


class PublishingLedger:
    def __init__(self, inner: Ledger, events: EventBus) -> None:
        self.inner = inner
        self.events = events

    def __getattr__(self, name: str) -> object:  # anything else the adapter offers (tests, benches)
        return getattr(self.inner, name)

    async def _announce(self, *accounts: AccountRef) -> None:
        users = sorted({a.owner_id for a in accounts if a.kind is AccountKind.USER and a.owner_id is not None})
        await self.events.publish_many([(wallet_topic(u), {"userId": str(u)}) for u in users])

    async def post(self, request: TransferRequest) -> TransferResult:
        result = await self.inner.post(request)
        await self._announce(request.source, request.destination)
        return result

    async def post_many(self, requests: Sequence[TransferRequest]) -> list[TransferResult]:
        results = await self.inner.post_many(requests)
        await self._announce(*[a for r in requests for a in (r.source, r.destination)])
        return results

    async def balances(self, accounts: Sequence[AccountRef]) -> Mapping[AccountRef, Balance]:
        return await self.inner.balances(accounts)

    async def history(self, query: TransferQuery) -> Sequence[tuple[int, Transfer]]:
        return await self.inner.history(query)

    async def count(self, query: TransferQuery) -> int:
        return await self.inner.count(query)

    async def reserve(self, request: HoldRequest) -> HoldResult:
        result = await self.inner.reserve(request)
        await self._announce(AccountRef.user(request.user_id))
        return result

    async def renew_hold(self, hold_id: UUID, amount_micro: MicroCredits, now: datetime) -> Hold:
        hold = await self.inner.renew_hold(hold_id, amount_micro, now)
        await self._announce(AccountRef.user(hold.user_id))
        return hold

    async def charge_hold(self, hold_id: UUID, charge: TransferRequest, *, settle: bool) -> TransferResult:
        result = await self.inner.charge_hold(hold_id, charge, settle=settle)
        await self._announce(charge.source)
        return result

    async def release_hold(self, hold_id: UUID, now: datetime) -> Hold:
        hold = await self.inner.release_hold(hold_id, now)
        await self._announce(AccountRef.user(hold.user_id))
        return hold

    async def get_hold(self, hold_id: UUID) -> Hold | None:
        return await self.inner.get_hold(hold_id)

    async def open_holds(self, *, created_before: datetime, key_prefix: str) -> Sequence[Hold]:
        return await self.inner.open_holds(created_before=created_before, key_prefix=key_prefix)

    async def holds_of(self, user_id: UUID, *, open_only: bool = True) -> Sequence[Hold]:
        return await self.inner.holds_of(user_id, open_only=open_only)

    async def spend(self, scope: BudgetScope, since: datetime, until: datetime) -> MicroCredits:
        return await self.inner.spend(scope, since, until)
