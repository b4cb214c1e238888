"""Usage reports' pure parts: which session a charge names, period boundaries, the merged
report (totals by spend, series oldest first) and its CSV."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.common.errors import InvalidValueError
from domain.credits.budgets import BudgetScope, BudgetScopeKind
from domain.credits.usage import (
    USAGE_CSV_HEADER,
    UsageCell,
    UsageDimension,
    UsageInterval,
    UsageQuery,
    UsageTotal,
    build_report,
    period_start,
    periods,
    session_of_charge,
    usage_csv,
)

SID = UUID("12345678-1234-5678-1234-567812345678")
ORG = BudgetScope(BudgetScopeKind.ORGANIZATION, UUID(int=1))
A, B = UUID(int=10), UUID(int=11)
DAY, WEEK, MONTH = UsageInterval.DAY, UsageInterval.WEEK, UsageInterval.MONTH


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def test_the_session_a_charge_names() -> None:
    assert session_of_charge(f"session:{SID}:meter:20260101T000000Z") == SID
    assert session_of_charge(f"session:{SID}:settle:2:360") == SID
    assert session_of_charge(f"session:{SID}") == SID
    assert session_of_charge(f"session:{SID}x") is None  # more than a uuid before the next ':'
    assert session_of_charge(f"refill:{SID}:x") is None
    assert session_of_charge("session:short") is None
    assert session_of_charge("session:" + "z" * 36) is None  # 36 characters that are not a uuid
    assert session_of_charge("SESSION:" + str(SID)) is None
    # the id is the UUID's own text: its 32 bare hex digits (which UUID() would read) are not
    assert session_of_charge(f"session:{SID.hex}") is None
    assert session_of_charge(f"session:{SID.hex}:meter:20260101T000000Z") is None


def test_periods_start_at_midnight_monday_and_the_first_of_the_month_in_utc() -> None:
    from datetime import timedelta, timezone

    late = datetime(2026, 3, 4, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # 04:30 UTC on the 5th
    assert period_start(late, DAY) == at(2026, 3, 5)
    assert period_start(at(2026, 3, 5, 12), WEEK) == at(2026, 3, 2)  # a Thursday -> its Monday
    assert period_start(at(2026, 3, 2), WEEK) == at(2026, 3, 2)
    assert period_start(at(2026, 3, 31, 23), MONTH) == at(2026, 3, 1)
    assert periods(at(2026, 1, 30, 6), at(2026, 2, 2), DAY) == [at(2026, 1, 30), at(2026, 1, 31), at(2026, 2, 1)]
    assert periods(at(2026, 3, 4), at(2026, 3, 17), WEEK) == [at(2026, 3, 2), at(2026, 3, 9), at(2026, 3, 16)]
    assert periods(at(2025, 11, 15), at(2026, 2, 1), MONTH) == [at(2025, 11, 1), at(2025, 12, 1), at(2026, 1, 1)]
    assert periods(at(2026, 1, 1), at(2026, 1, 1, 0, 0, 1), DAY) == [at(2026, 1, 1)]


def test_a_query_is_refused_when_its_window_split_or_points_are_wrong() -> None:
    with pytest.raises(InvalidValueError) as empty:
        UsageQuery(ORG, at(2026, 1, 2), at(2026, 1, 2))
    assert (empty.value.field, empty.value.message) == ("until", "until must be after since")
    group = BudgetScope(BudgetScopeKind.GROUP, A)
    with pytest.raises(InvalidValueError) as split:
        UsageQuery(group, at(2026, 1, 1), at(2026, 2, 1), by=UsageDimension.GROUP)
    assert (split.value.field, split.value.message) == ("by", "a group report cannot be split by group")
    user = BudgetScope(BudgetScopeKind.USER, A)
    with pytest.raises(InvalidValueError):
        UsageQuery(user, at(2026, 1, 1), at(2026, 2, 1), by=UsageDimension.USER)
    assert UsageQuery(user, at(2026, 1, 1), at(2026, 2, 1), by=UsageDimension.OFFERING).by is UsageDimension.OFFERING
    assert UsageQuery(group, at(2026, 1, 1), at(2026, 2, 1), by=UsageDimension.USER).by is UsageDimension.USER
    # 400 days is the most; 401 is refused
    assert len(periods(at(2026, 1, 1), at(2027, 2, 5), DAY)) == 400
    UsageQuery(ORG, at(2026, 1, 1), at(2027, 2, 5), interval=DAY)
    with pytest.raises(InvalidValueError) as many:
        UsageQuery(ORG, at(2026, 1, 1), at(2027, 2, 6), interval=DAY)
    assert (many.value.field, many.value.message) == (
        "interval",
        "at most 400 points per report: choose a longer interval",
    )


def test_a_report_merges_cells_orders_keys_by_spend_and_periods_oldest_first() -> None:
    q = UsageQuery(ORG, at(2026, 3, 1), at(2026, 3, 4), by=UsageDimension.GROUP, interval=DAY)
    cells = [
        UsageCell(A, at(2026, 3, 2), 100),
        UsageCell(B, at(2026, 3, 1), 300),
        UsageCell(A, at(2026, 3, 1), 50),
        UsageCell(A, at(2026, 3, 2), 25),  # the same key and period again: merged
        UsageCell(None, at(2026, 3, 3), 7),
        UsageCell(B, at(2026, 3, 3), 0),  # nothing spent: left out
    ]
    r = build_report(q, cells)
    assert r.total_micro == 482
    assert r.totals == (UsageTotal(B, 300), UsageTotal(A, 175), UsageTotal(None, 7))
    assert r.cells == (
        UsageCell(B, at(2026, 3, 1), 300),
        UsageCell(A, at(2026, 3, 1), 50),
        UsageCell(A, at(2026, 3, 2), 125),
        UsageCell(None, at(2026, 3, 3), 7),
    )
    assert r.periods == (at(2026, 3, 1), at(2026, 3, 2), at(2026, 3, 3))
    assert usage_csv(r, {A: "Lab A", B: "Lab B"}).splitlines() == [
        ",".join(USAGE_CSV_HEADER),
        f"organization,{ORG.id},group,{B},Lab B,2026-03-01T00:00:00+00:00,0.0003",
        f"organization,{ORG.id},group,{B},Lab B,2026-03-02T00:00:00+00:00,0",
        f"organization,{ORG.id},group,{B},Lab B,2026-03-03T00:00:00+00:00,0",
        f"organization,{ORG.id},group,{A},Lab A,2026-03-01T00:00:00+00:00,0.00005",
        f"organization,{ORG.id},group,{A},Lab A,2026-03-02T00:00:00+00:00,0.000125",
        f"organization,{ORG.id},group,{A},Lab A,2026-03-03T00:00:00+00:00,0",
        f"organization,{ORG.id},group,,,2026-03-01T00:00:00+00:00,0",
        f"organization,{ORG.id},group,,,2026-03-02T00:00:00+00:00,0",
        f"organization,{ORG.id},group,,,2026-03-03T00:00:00+00:00,0.000007",
    ]


def test_a_report_without_split_or_interval() -> None:
    q = UsageQuery(ORG, at(2026, 3, 1), at(2026, 4, 1))
    r = build_report(q, [UsageCell(None, None, 2_500_000), UsageCell(None, None, 500_000)])
    assert (r.total_micro, r.totals, r.cells, r.periods) == (3_000_000, (UsageTotal(None, 3_000_000),), (), ())
    assert usage_csv(r, {}).splitlines() == [",".join(USAGE_CSV_HEADER), f"organization,{ORG.id},,,,,3"]
    # equal spend: keys in a stable order (by id), the unattributed last
    tie = build_report(
        UsageQuery(ORG, at(2026, 3, 1), at(2026, 4, 1), by=UsageDimension.USER),
        [UsageCell(B, None, 5), UsageCell(None, None, 5), UsageCell(A, None, 5)],
    )
    assert [t.key for t in tie.totals] == [A, B, None]
    empty = build_report(q, [])
    assert (empty.total_micro, empty.totals) == (0, ())


def test_a_split_report_without_interval_lists_every_key_and_the_unattributed_last_on_a_tie() -> None:
    """F sorts after "None" as text: the unattributed spend is still last among equals."""
    f = UUID("f0000000-0000-0000-0000-000000000000")
    q = UsageQuery(ORG, at(2026, 3, 1), at(2026, 4, 1), by=UsageDimension.USER)
    r = build_report(q, [UsageCell(None, None, 5), UsageCell(f, None, 5), UsageCell(A, None, 9)])
    assert r.totals == (UsageTotal(A, 9), UsageTotal(f, 5), UsageTotal(None, 5))
    assert usage_csv(r, {A: "ann", f: "fay"}).splitlines() == [
        ",".join(USAGE_CSV_HEADER),
        f"organization,{ORG.id},user,{A},ann,,0.000009",
        f"organization,{ORG.id},user,{f},fay,,0.000005",
        f"organization,{ORG.id},user,,,,0.000005",
    ]
