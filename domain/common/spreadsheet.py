"""CSV that a spreadsheet opens as data: free text never becomes a formula.

Excel, LibreOffice and Google Sheets evaluate a cell that begins with = + - @ (or a tab or
carriage return before one) as a formula: `=HYPERLINK(...)` in a memo would be a link in an
admin's export. OWASP's advice: prefix such a cell with an apostrophe, which the spreadsheet
shows as text. Lines end in CRLF (RFC 4180), so the writer quotes a cell holding a bare CR
and no line break inside a cell starts a row of its own."""

from __future__ import annotations

import csv
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """Free text as a cell: kept as it is unless a spreadsheet would evaluate it."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def writer(out: TextIO) -> Any:
    return csv.writer(out, lineterminator="\r\n")
