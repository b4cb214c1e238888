"""Issue 13, finding 3 (what else renders a stranger's text): the CSV exports never hand a
spreadsheet a formula. A cell of free text (a memo, an idempotency key, a user's or group's
name) that begins with one of = + - @ or a tab/carriage return is prefixed with an apostrophe
(OWASP's CSV injection advice), so Excel, LibreOffice and Sheets show it as text."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.credits import services as svc
from domain.credits.budgets import BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef, Attribution, Transfer, TransferKind
from domain.credits.usage import UsageCell, UsageDimension, UsageQuery, build_report, usage_csv

FORMULAS = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


def transfer(memo: str, key: str = "k-1") -> Transfer:
    return Transfer(
        UUID(int=5),
        key,
        TransferKind.ALLOCATION,
        AccountRef.organization(UUID(int=1)),
        AccountRef.group(UUID(int=2)),
        1_500_001,
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        UUID(int=9),
        Attribution(UUID(int=1), UUID(int=2), None),
        None,
        memo,
    )


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))  # as a spreadsheet reads it: \r ends a line too


@pytest.mark.parametrize("formula", FORMULAS)
def test_the_ledger_export_keeps_formulas_as_text(formula: str) -> None:
    header, row = rows(svc.transfers_csv([(1, transfer(formula, key=formula))]))
    assert row[header.index("memo")] == "'" + formula
    assert row[header.index("idempotency_key")] == "'" + formula
    assert row[header.index("amount_credits")] == "1.500001"  # numbers stay numbers


@pytest.mark.parametrize("formula", FORMULAS)
def test_the_usage_export_keeps_formulas_as_text(formula: str) -> None:
    scope = BudgetScope(BudgetScopeKind.ORGANIZATION, UUID(int=1))
    at = datetime(2026, 3, 1, tzinfo=UTC)
    q = UsageQuery(scope, at, datetime(2026, 4, 1, tzinfo=UTC), by=UsageDimension.GROUP)
    report = build_report(q, [UsageCell(UUID(int=10), None, 300)])
    header, row = rows(usage_csv(report, {UUID(int=10): formula}))
    assert row[header.index("key_name")] == "'" + formula


def test_plain_text_is_left_alone() -> None:
    header, row = rows(svc.transfers_csv([(1, transfer("march, lab 3 = ok"))]))
    assert row[header.index("memo")] == "march, lab 3 = ok"


def test_a_line_break_inside_a_cell_starts_no_row() -> None:
    """A bare carriage return is quoted like a newline (RFC 4180 lines), so the text after it
    cannot become a row of its own that starts with a formula."""
    exported = rows(svc.transfers_csv([(1, transfer("lab\r=1+1\nnext"))]))
    assert len(exported) == 2
    assert exported[1][svc.CSV_HEADER.index("memo")] == "lab\r=1+1\nnext"
