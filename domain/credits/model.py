"""Ledger value objects and the pure rules every ledger adapter applies.

Money is integer micro-credits. Every movement is one `Transfer` between two accounts; the
sum over all accounts is always zero: the system account goes negative by what it has issued
and the consumption sink grows by what sessions have used. Account ids are derived from
(kind, owner), so callers never look an account up before moving money.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from uuid import UUID, uuid5

from domain.common.money import MicroCredits, micro_to_credits_str
from domain.credits.errors import InsufficientCreditsError, InvalidTransferError

_ACCOUNT_NAMESPACE = UUID("6a1d8f8e-3b0c-5d55-9a4e-6f1c2b7d9e01")


class AccountKind(StrEnum):
    SYSTEM = "system"
    ORGANIZATION = "organization"
    GROUP = "group"
    USER = "user"
    # an organisation's sink that charges flow into: its balance is what the org consumed
    # (one per organisation, so metering never queues on one global row)
    CONSUMPTION = "consumption"


OWNERLESS_KINDS = frozenset({AccountKind.SYSTEM})
# The only account allowed a negative balance: credits are issued from it.
MAY_GO_NEGATIVE = frozenset({AccountKind.SYSTEM})


@dataclass(frozen=True, slots=True)
class AccountRef:
    kind: AccountKind
    owner_id: UUID | None = None

    def __post_init__(self) -> None:
        if (self.kind in OWNERLESS_KINDS) != (self.owner_id is None):
            article = "an" if self.kind.value[0] in "aeio" else "a"  # "an organization", "a user"
            raise InvalidTransferError(f"{article} {self.kind} account {_owner_rule(self.kind)}", "account")

    @classmethod
    def system(cls) -> AccountRef:
        return cls(AccountKind.SYSTEM)

    @classmethod
    def consumption(cls, organization_id: UUID) -> AccountRef:
        return cls(AccountKind.CONSUMPTION, organization_id)

    @classmethod
    def organization(cls, organization_id: UUID) -> AccountRef:
        return cls(AccountKind.ORGANIZATION, organization_id)

    @classmethod
    def group(cls, group_id: UUID) -> AccountRef:
        return cls(AccountKind.GROUP, group_id)

    @classmethod
    def user(cls, user_id: UUID) -> AccountRef:
        return cls(AccountKind.USER, user_id)

    @property
    def id(self) -> UUID:
        """Deterministic account id: the same (kind, owner) always names the same row."""
        return account_id(self.kind, self.owner_id)

    def label(self) -> str:
        if self.owner_id is None:
            return f"the {self.kind} account"
        return f"{self.kind} {self.owner_id}"


def _owner_rule(kind: AccountKind) -> str:
    return "has no owner" if kind in OWNERLESS_KINDS else "needs an owner id"


@lru_cache(maxsize=1 << 16)
def account_id(kind: AccountKind, owner_id: UUID | None) -> UUID:
    return uuid5(_ACCOUNT_NAMESPACE, f"{kind.value}:{owner_id or ''}")


class TransferKind(StrEnum):
    ALLOCATION = "allocation"  # down the hierarchy, by an admin of the giver
    TAKE_BACK = "take_back"  # up the hierarchy, by the same admins
    REFILL = "refill"  # down the hierarchy, by a refill schedule
    CHARGE = "charge"  # a personal wallet pays the consumption sink


_DOWN_EDGES = frozenset(
    {
        (AccountKind.SYSTEM, AccountKind.ORGANIZATION),
        (AccountKind.ORGANIZATION, AccountKind.GROUP),
        (AccountKind.GROUP, AccountKind.USER),
    }
)
_UP_EDGES = frozenset((child, parent) for parent, child in _DOWN_EDGES)
ALLOWED_EDGES: dict[TransferKind, frozenset[tuple[AccountKind, AccountKind]]] = {
    TransferKind.ALLOCATION: _DOWN_EDGES,
    TransferKind.REFILL: _DOWN_EDGES,
    TransferKind.TAKE_BACK: _UP_EDGES,
    TransferKind.CHARGE: frozenset({(AccountKind.USER, AccountKind.CONSUMPTION)}),
}


@dataclass(frozen=True, slots=True)
class Attribution:
    """Whose spend a charge counts towards: the requester and the scope they worked in."""

    organization_id: UUID | None = None
    group_id: UUID | None = None
    user_id: UUID | None = None


NO_ATTRIBUTION = Attribution()


@dataclass(frozen=True, slots=True)
class TransferRequest:
    """One movement to post. `transfer_id` and `created_at` are used only if it is new."""

    transfer_id: UUID
    idempotency_key: str
    kind: TransferKind
    source: AccountRef
    destination: AccountRef
    amount_micro: MicroCredits
    created_at: datetime
    actor_id: UUID | None = None
    attribution: Attribution = NO_ATTRIBUTION
    hold_id: UUID | None = None
    memo: str = ""

    def __post_init__(self) -> None:
        validate_transfer_shape(self.kind, self.source, self.destination, self.amount_micro, self.idempotency_key)
        if self.kind is TransferKind.CHARGE and (
            self.attribution.user_id != self.source.owner_id
            or self.attribution.organization_id != self.destination.owner_id
        ):
            raise InvalidTransferError(
                "a charge is attributed to the wallet's owner and paid to their organisation",
                "attribution",
            )

    def matches(self, transfer: Transfer) -> bool:
        """Same operation as an already posted transfer (ids, times and memos aside)."""
        return (
            transfer.kind == self.kind
            and transfer.source == self.source
            and transfer.destination == self.destination
            and transfer.amount_micro == self.amount_micro
            and transfer.hold_id == self.hold_id
            and transfer.attribution == self.attribution
        )

    def to_transfer(self) -> Transfer:
        return Transfer(
            id=self.transfer_id,
            idempotency_key=self.idempotency_key,
            kind=self.kind,
            source=self.source,
            destination=self.destination,
            amount_micro=self.amount_micro,
            created_at=self.created_at,
            actor_id=self.actor_id,
            attribution=self.attribution,
            hold_id=self.hold_id,
            memo=self.memo,
        )


MAX_KEY_LENGTH = 200


def _a(word: str) -> str:
    """The article before `word` ("an allocation", "a user": no kind starts with a vowel sound of u)."""
    return "an" if word[:1] in "aeio" else "a"


def validate_transfer_shape(
    kind: TransferKind,
    source: AccountRef,
    destination: AccountRef,
    amount_micro: MicroCredits,
    key: str,
) -> None:
    if not key or len(key) > MAX_KEY_LENGTH:
        raise InvalidTransferError(
            f"an idempotency key of 1 to {MAX_KEY_LENGTH} characters is required", "idempotencyKey"
        )
    if amount_micro <= 0:
        raise InvalidTransferError("the amount must be positive", "amount")
    if (source.kind, destination.kind) not in ALLOWED_EDGES[kind]:
        raise InvalidTransferError(
            f"{_a(kind)} {kind} cannot move credits from {_a(source.kind)} {source.kind} account "
            f"to {_a(destination.kind)} {destination.kind} account",
            "destination",
        )


@dataclass(frozen=True, slots=True)
class Transfer:
    id: UUID
    idempotency_key: str
    kind: TransferKind
    source: AccountRef
    destination: AccountRef
    amount_micro: MicroCredits
    created_at: datetime
    actor_id: UUID | None = None
    attribution: Attribution = NO_ATTRIBUTION
    hold_id: UUID | None = None
    memo: str = ""


@dataclass(frozen=True, slots=True)
class TransferResult:
    transfer: Transfer
    # True when the idempotency key had already been posted: nothing moved this time
    replayed: bool


@dataclass(frozen=True, slots=True)
class Balance:
    account: AccountRef
    balance_micro: MicroCredits = 0
    held_micro: MicroCredits = 0

    @property
    def available_micro(self) -> MicroCredits:
        return self.balance_micro - self.held_micro


def check_can_pay(account: AccountRef, balance: Balance, amount_micro: MicroCredits) -> None:
    """Raise unless `account` may pay `amount_micro` out of its available balance."""
    if account.kind in MAY_GO_NEGATIVE:
        return
    if balance.available_micro < amount_micro:
        raise InsufficientCreditsError(account.label(), balance.available_micro, amount_micro)


class HoldStatus(StrEnum):
    OPEN = "open"
    SETTLED = "settled"  # converted to charges; any rest released
    RELEASED = "released"  # given back without (further) charge


@dataclass(frozen=True, slots=True)
class HoldRequest:
    hold_id: UUID
    idempotency_key: str
    user_id: UUID
    amount_micro: MicroCredits
    created_at: datetime
    attribution: Attribution = NO_ATTRIBUTION
    memo: str = ""

    def __post_init__(self) -> None:
        if not self.idempotency_key or len(self.idempotency_key) > MAX_KEY_LENGTH:
            raise InvalidTransferError("an idempotency key is required", "idempotencyKey")
        if self.amount_micro <= 0:
            raise InvalidTransferError("a hold must reserve a positive amount", "amount")
        if self.attribution.user_id != self.user_id or self.attribution.organization_id is None:
            raise InvalidTransferError("a hold is attributed to its wallet's owner and organisation", "attribution")

    def matches(self, hold: Hold) -> bool:
        return (
            hold.user_id == self.user_id
            and hold.reserved_micro == self.amount_micro
            and hold.attribution == self.attribution
        )


@dataclass(frozen=True, slots=True)
class Hold:
    id: UUID
    idempotency_key: str
    user_id: UUID
    # what is still reserved now (0 once closed)
    amount_micro: MicroCredits
    # what was first reserved (replay comparison)
    reserved_micro: MicroCredits
    charged_micro: MicroCredits
    status: HoldStatus
    created_at: datetime
    updated_at: datetime
    attribution: Attribution = NO_ATTRIBUTION
    memo: str = ""

    @property
    def wallet(self) -> AccountRef:
        return AccountRef.user(self.user_id)


@dataclass(frozen=True, slots=True)
class HoldResult:
    hold: Hold
    replayed: bool


def charge_split(hold: Hold, amount_micro: MicroCredits) -> tuple[MicroCredits, MicroCredits]:
    """(part of the charge covered by the hold, part paid from the available balance)."""
    covered = min(hold.amount_micro, amount_micro)
    return covered, amount_micro - covered


# ---------------------------------------------------------------------------------- periods


class Period(StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"  # weeks start on Monday, 00:00 UTC
    MONTHLY = "monthly"


def period_bounds(period: Period, now: datetime) -> tuple[datetime, datetime]:
    """The [start, end) UTC interval of the budget period containing `now`."""
    now = now.astimezone(UTC)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period is Period.DAILY:
        return day, day + timedelta(days=1)
    if period is Period.WEEKLY:
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    start = day.replace(day=1)
    return start, _add_month(start)


def _add_month(d: datetime) -> datetime:
    year, month = (d.year + 1, 1) if d.month == 12 else (d.year, d.month + 1)
    return d.replace(year=year, month=month, day=min(d.day, calendar.monthrange(year, month)[1]))


def describe(micro: MicroCredits) -> str:
    return micro_to_credits_str(micro)
