"""Refusals of the credits context. Code values are unique across the project."""

from __future__ import annotations

from enum import StrEnum

from domain.common.errors import DomainError
from domain.common.money import micro_to_credits_str


class CreditsErrorCode(StrEnum):
    INSUFFICIENT_CREDITS = "INSUFFICIENT_CREDITS"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    INVALID_TRANSFER = "INVALID_TRANSFER"
    NOT_A_PERSONAL_WALLET = "NOT_A_PERSONAL_WALLET"
    HOLD_CLOSED = "HOLD_CLOSED"
    BUDGET_EXCEEDED = "BUDGET_EXCEEDED"


class InsufficientCreditsError(DomainError):
    """The paying account's available balance (balance − open holds) is below the amount."""

    def __init__(self, account: str, available_micro: int, requested_micro: int, field: str = "amount") -> None:
        super().__init__(
            CreditsErrorCode.INSUFFICIENT_CREDITS,
            f"{account} has {micro_to_credits_str(available_micro)} credits available; "
            f"this asks {micro_to_credits_str(requested_micro)}",
            field,
            {"available": micro_to_credits_str(available_micro), "requested": micro_to_credits_str(requested_micro)},
        )
        self.account = account
        self.available_micro = available_micro
        self.requested_micro = requested_micro


class IdempotencyKeyReusedError(DomainError):
    def __init__(self, key: str) -> None:
        super().__init__(
            CreditsErrorCode.IDEMPOTENCY_KEY_REUSED,
            f"idempotency key {key!r} was already used for a different operation",
            "idempotencyKey",
        )
        self.key = key


class InvalidTransferError(DomainError):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(CreditsErrorCode.INVALID_TRANSFER, message, field)


class NotAPersonalWalletError(DomainError):
    def __init__(self) -> None:
        super().__init__(
            CreditsErrorCode.NOT_A_PERSONAL_WALLET,
            "sessions are charged only to the requester's personal wallet",
            "wallet",
        )


class HoldClosedError(DomainError):
    def __init__(self, status: str) -> None:
        super().__init__(CreditsErrorCode.HOLD_CLOSED, f"the hold is already {status}", "holdId")


class BudgetExceededError(DomainError):
    """A `block` budget on the requester's scope chain has reached its limit."""

    def __init__(self, message: str, limit_micro: int, spent_micro: int) -> None:
        super().__init__(
            CreditsErrorCode.BUDGET_EXCEEDED,
            message,
            None,
            {"limit": micro_to_credits_str(limit_micro), "spent": micro_to_credits_str(spent_micro)},
        )
        self.limit_micro = limit_micro
        self.spent_micro = spent_micro
