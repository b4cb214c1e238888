"""The credits context's rules pinned to their exact answers: budget validation (each bound and
its message), the gate's typed refusal, period bounds at every edge, account owner rules, the
errors' codes, messages and fields, and a hold key reused for another hold."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest

from domain.common.errors import DomainError, InvalidValueError
from domain.credits import services as svc
from domain.credits.budgets import (
    Budget,
    BudgetAction,
    BudgetScope,
    BudgetScopeKind,
    BudgetStatus,
    gate,
    validate_budget,
)
from domain.credits.errors import (
    BudgetExceededError,
    CreditsErrorCode,
    HoldClosedError,
    IdempotencyKeyReusedError,
    InvalidTransferError,
    NotAPersonalWalletError,
)
from domain.credits.model import (
    AccountKind,
    AccountRef,
    Hold,
    HoldStatus,
    Period,
    _add_month,
    charge_split,
    describe,
    period_bounds,
)
from domain.credits.refills import RefillCadence, refill_period_start
from domain.credits.usage import UsageInterval
from domain.credits.usage import period_start as usage_period_start
from infra.credits.memory import InMemoryLedger
from tests.unit.credits.test_ledger import C, fund
from tests.unit.credits.world import World

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def invalid(limit: int, thresholds: tuple[int, ...]) -> tuple[str | None, str]:
    with pytest.raises(InvalidValueError) as err:
        validate_budget(limit, thresholds)
    return err.value.field, err.value.message


def test_a_budget_limit_from_zero_and_thresholds_from_1_to_1000_percent_increasing() -> None:
    validate_budget(0, (1, 1000))
    validate_budget(5 * C, ())
    validate_budget(C, (50, 80, 100))
    assert invalid(-1, (50,)) == ("limit", "a budget limit cannot be negative")
    percent = ("alertThresholds", "thresholds are percentages from 1 to 1000")
    assert invalid(C, (0, 50)) == percent
    assert invalid(C, (50, 1001)) == percent
    order = ("alertThresholds", "thresholds must be increasing and distinct")
    assert invalid(C, (80, 50)) == order
    assert invalid(C, (50, 50)) == order
    # the limit is checked first
    assert invalid(-1, (0,))[0] == "limit"
    with pytest.raises(InvalidValueError):
        Budget(UUID(int=1), BudgetScope(BudgetScopeKind.USER, UUID(int=2)), -1, BudgetAction.WARN, T0, T0)


def status(spent: int, limit: int = 10 * C, action: BudgetAction = BudgetAction.BLOCK) -> BudgetStatus:
    budget = Budget(UUID(int=1), BudgetScope(BudgetScopeKind.GROUP, UUID(int=2)), limit, action, T0, T0)
    return BudgetStatus(budget, "ML-Lab", T0, T0 + timedelta(days=31), spent)


def test_a_refused_gate_raises_the_typed_budget_error_with_its_numbers() -> None:
    result = gate((status(12_500_000),))
    with pytest.raises(BudgetExceededError) as err:
        result.raise_if_refused()
    e = err.value
    assert (e.code, e.field, e.limit_micro, e.spent_micro) == (
        CreditsErrorCode.BUDGET_EXCEEDED,
        None,
        10 * C,
        12_500_000,
    )
    assert e.message == "group ML-Lab has spent 12.5 of its 10 credit monthly budget (block)"
    gate((status(9 * C),)).raise_if_refused()  # under the limit: nothing raised
    gate((status(20 * C, action=BudgetAction.WARN),)).raise_if_refused()  # warn budgets never refuse


@pytest.mark.parametrize(
    ("period", "now", "start", "end"),
    [
        (Period.DAILY, datetime(2026, 3, 4, 23, 59, tzinfo=UTC), datetime(2026, 3, 4), datetime(2026, 3, 5)),
        (Period.DAILY, datetime(2026, 3, 4, 0, 0, tzinfo=UTC), datetime(2026, 3, 4), datetime(2026, 3, 5)),
        # 2026-03-04 is a Wednesday: its week starts on Monday the 2nd
        (Period.WEEKLY, datetime(2026, 3, 4, 8, tzinfo=UTC), datetime(2026, 3, 2), datetime(2026, 3, 9)),
        (Period.WEEKLY, datetime(2026, 3, 2, 0, tzinfo=UTC), datetime(2026, 3, 2), datetime(2026, 3, 9)),
        (Period.WEEKLY, datetime(2026, 3, 8, 23, tzinfo=UTC), datetime(2026, 3, 2), datetime(2026, 3, 9)),
        (Period.MONTHLY, datetime(2026, 2, 28, 23, tzinfo=UTC), datetime(2026, 2, 1), datetime(2026, 3, 1)),
        (Period.MONTHLY, datetime(2026, 11, 30, tzinfo=UTC), datetime(2026, 11, 1), datetime(2026, 12, 1)),
        (Period.MONTHLY, datetime(2026, 12, 31, 23, tzinfo=UTC), datetime(2026, 12, 1), datetime(2027, 1, 1)),
        # a local time is judged in UTC: 01:00 at +02:00 on the 1st is still the previous month
        (Period.MONTHLY, datetime(2026, 4, 1, 1, tzinfo=timezone(timedelta(hours=2))), datetime(2026, 3, 1), datetime(2026, 4, 1)),
    ],
)  # fmt: skip
def test_period_bounds(period: Period, now: datetime, start: datetime, end: datetime) -> None:
    got = period_bounds(period, now)
    assert got == (start.replace(tzinfo=UTC), end.replace(tzinfo=UTC))
    assert got[0].tzinfo == UTC


def test_accounts_need_an_owner_exactly_when_their_kind_has_one() -> None:
    owner = UUID(int=7)
    for kind, message in (
        (AccountKind.USER, "a user account needs an owner id"),
        (AccountKind.GROUP, "a group account needs an owner id"),
        (AccountKind.ORGANIZATION, "an organization account needs an owner id"),
    ):
        with pytest.raises(InvalidTransferError) as err:
            AccountRef(kind)
        assert (err.value.field, err.value.message) == ("account", message)
        assert AccountRef(kind, owner).owner_id == owner
    with pytest.raises(InvalidTransferError) as err:
        AccountRef(AccountKind.SYSTEM, owner)
    assert err.value.message == "a system account has no owner"
    assert AccountRef(AccountKind.SYSTEM).owner_id is None


def test_the_credits_errors_codes_messages_and_fields() -> None:
    cases: list[tuple[DomainError, CreditsErrorCode, str, str | None]] = [
        (
            IdempotencyKeyReusedError("k-1"),
            CreditsErrorCode.IDEMPOTENCY_KEY_REUSED,
            "idempotency key 'k-1' was already used for a different operation",
            "idempotencyKey",
        ),
        (
            NotAPersonalWalletError(),
            CreditsErrorCode.NOT_A_PERSONAL_WALLET,
            "sessions are charged only to the requester's personal wallet",
            "wallet",
        ),
        (HoldClosedError("settled"), CreditsErrorCode.HOLD_CLOSED, "the hold is already settled", "holdId"),
        (InvalidTransferError("no", "amount"), CreditsErrorCode.INVALID_TRANSFER, "no", "amount"),
    ]
    for error, code, message, field in cases:
        assert (error.code, error.message, error.field) == (code, message, field)
    assert IdempotencyKeyReusedError("k-1").key == "k-1"
    assert describe(1_500_000) == "1.5" and describe(-2 * C) == "-2"


async def test_a_hold_key_reused_for_another_amount_or_person_is_refused_and_the_same_hold_replays() -> None:
    w, ledger = World(), InMemoryLedger()
    await fund(w, ledger, alice=100, bob=100)
    first = await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=10 * C, idempotency_key="h")
    again = await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=10 * C, idempotency_key="h")
    assert again.hold == first.hold and again.replayed and not first.replayed
    for chain, amount in ((w.chain(), 11 * C), (w.chain(w.bob), 10 * C)):
        with pytest.raises(IdempotencyKeyReusedError):
            await svc.reserve_hold(ledger, w.clock, w.ids, chain=chain, amount_micro=amount, idempotency_key="h")
    other_group = w.chain()
    other_group = type(other_group)(w.alice, w.other_group, w.org, "alice", "Other", "Acme")
    with pytest.raises(IdempotencyKeyReusedError):  # the same amount, attributed to another group
        await svc.reserve_hold(ledger, w.clock, w.ids, chain=other_group, amount_micro=10 * C, idempotency_key="h")
    assert len(ledger.holds) == 1


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The server's local zone is not UTC: periods must still be cut in UTC."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_periods_are_cut_in_utc_whatever_the_servers_zone(tokyo: None) -> None:
    evening = datetime(2026, 1, 31, 20, 30, 15, 5, tzinfo=UTC)  # already Feb 1 in Tokyo
    assert period_bounds(Period.MONTHLY, evening) == (
        datetime(2026, 1, 1, tzinfo=UTC),
        datetime(2026, 2, 1, tzinfo=UTC),
    )
    assert period_bounds(Period.DAILY, evening)[0] == datetime(2026, 1, 31, tzinfo=UTC)
    assert refill_period_start(RefillCadence.DAILY, 0, evening) == datetime(2026, 1, 31, tzinfo=UTC)
    assert usage_period_start(evening, UsageInterval.DAY) == datetime(2026, 1, 31, tzinfo=UTC)


def test_a_period_starts_at_midnight_sharp() -> None:
    late = datetime(2026, 3, 4, 17, 45, 59, 999_999, tzinfo=UTC)
    assert period_bounds(Period.DAILY, late) == (datetime(2026, 3, 4, tzinfo=UTC), datetime(2026, 3, 5, tzinfo=UTC))
    assert refill_period_start(RefillCadence.DAILY, 0, late) == datetime(2026, 3, 4, tzinfo=UTC)
    assert refill_period_start(RefillCadence.MONTHLY, 4, late) == datetime(2026, 3, 4, tzinfo=UTC)


@pytest.mark.parametrize(
    ("cadence", "anchor", "now", "start"),
    [
        # 2026-03-04 is a Wednesday (weekday 2)
        (RefillCadence.WEEKLY, 0, (2026, 3, 4), (2026, 3, 2)),
        (RefillCadence.WEEKLY, 2, (2026, 3, 4), (2026, 3, 4)),
        (RefillCadence.WEEKLY, 4, (2026, 3, 4), (2026, 2, 27)),  # last Friday
        (RefillCadence.WEEKLY, 6, (2026, 3, 4), (2026, 3, 1)),  # last Sunday
        (RefillCadence.MONTHLY, 10, (2026, 3, 4), (2026, 2, 10)),
        (RefillCadence.MONTHLY, 10, (2026, 1, 4), (2025, 12, 10)),
        (RefillCadence.MONTHLY, 10, (2026, 11, 4), (2026, 10, 10)),
        (RefillCadence.MONTHLY, 4, (2026, 3, 4), (2026, 3, 4)),
    ],
)
def test_refill_occurrences(
    cadence: RefillCadence, anchor: int, now: tuple[int, int, int], start: tuple[int, int, int]
) -> None:
    assert refill_period_start(cadence, anchor, datetime(*now, 9, tzinfo=UTC)) == datetime(*start, tzinfo=UTC)


def test_a_month_later_keeps_the_day_or_the_months_last() -> None:
    assert _add_month(datetime(2026, 1, 31, tzinfo=UTC)) == datetime(2026, 2, 28, tzinfo=UTC)
    assert _add_month(datetime(2026, 3, 15, tzinfo=UTC)) == datetime(2026, 4, 15, tzinfo=UTC)
    assert _add_month(datetime(2026, 12, 31, tzinfo=UTC)) == datetime(2027, 1, 31, tzinfo=UTC)


def test_a_charge_is_covered_by_its_hold_up_to_the_holds_amount() -> None:
    hold = Hold(UUID(int=1), "k", UUID(int=2), 5 * C, 5 * C, 0, HoldStatus.OPEN, T0, T0)
    assert charge_split(hold, 8 * C) == (5 * C, 3 * C)
    assert charge_split(hold, 2 * C) == (2 * C, 0)
