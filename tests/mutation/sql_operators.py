"""Cosmic Ray operators that mutate the SQL inside Python string literals (the billing SQL).

Cosmic Ray's own operators change Python; the billing statement is SQL text, where a wrong
`least`, `<` or `AND` is the bug to catch. Each operator finds its tokens in a string that
reads as SQL (not a docstring, outside `--` comments and, except where the operator is about
them, outside quoted literals) and yields one mutation per token. Registered as the
`gshare-sql` provider (pyproject: entry point `cosmic_ray.operator_providers`), so Cosmic Ray
names them `gshare-sql/<Operator>`.

Not mutated: row locking (`FOR UPDATE`, `SKIP LOCKED`, `ORDER BY` of the locks), which the
concurrency tests guard and a single-process test cannot tell apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from cosmic_ray.operators.operator import Example, Operator
from parso.python.tree import String

_SQL_WORDS = re.compile(r"\b(SELECT|WHERE|UPDATE|INSERT|CASE|AND|OR|IN|IS|NOT)\b")
_COMMENT = re.compile(r"--[^\n]*")
_QUOTED = re.compile(r"'[^']*'")

Replace = Callable[[re.Match[str]], str]


def is_sql(node: Any) -> bool:
    """A plain (not f-) string literal that is not a docstring and reads as SQL."""
    if node.type != "string" or node.parent is None or node.parent.type == "simple_stmt":
        return False
    if "set_config(" in node.value:
        return False  # planner settings (JIT, work_mem): they change speed, not results
    return bool(_SQL_WORDS.search(node.value)) or bool(re.fullmatch(r"[rRbB]?\"\(('\w+',?)+\)\"", node.value))


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


class SqlOperator(Operator):
    """Base: `rules` are (pattern, replacement); a match inside a comment (or a quoted literal,
    unless `in_literals`) is not a mutation point."""

    rules: ClassVar[tuple[tuple[re.Pattern[str], Replace], ...]] = ()
    in_literals: ClassVar[bool] = False

    def _matches(self, node: Any) -> list[tuple[re.Match[str], Replace]]:
        if not is_sql(node):
            return []
        text = node.value
        # quotes are paired outside comments (a comment may hold an apostrophe: "session's")
        code = _COMMENT.sub(lambda m: " " * len(m.group(0)), text)
        blocked = _spans(_COMMENT, text) + ([] if self.in_literals else _spans(_QUOTED, code))
        found = []
        for pattern, replace in self.rules:
            for m in pattern.finditer(text):
                if not any(a <= m.start() < b for a, b in blocked):
                    found.append((m, replace))
        return sorted(found, key=lambda f: f[0].start())

    def mutation_positions(self, node: Any) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        for m, _ in self._matches(node):
            before = node.value[: m.start()]
            line = node.start_pos[0] + before.count("\n")
            col = len(before) - before.rfind("\n") - 1 if "\n" in before else node.start_pos[1] + len(before)
            yield (line, col), (line, col + len(m.group(0)))

    def mutate(self, node: Any, index: int) -> Any:
        m, replace = self._matches(node)[index]
        value = node.value[: m.start()] + replace(m) + node.value[m.end() :]
        return String(value, node.start_pos, node.prefix)

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return ()


def _to(text: str) -> Replace:
    return lambda m: text


class SqlFunctionSwap(SqlOperator):
    """greatest ↔ least."""

    rules = (
        (re.compile(r"\bgreatest\("), _to("least(")),
        (re.compile(r"\bleast\("), _to("greatest(")),
    )


class SqlComparison(SqlOperator):
    """< ↔ <=, > ↔ >=, <> → = (not the JSON operators -> and ->>)."""

    rules = (
        (re.compile(r"(?<![-<>!=])<=(?![=<>])"), _to("<")),
        (re.compile(r"(?<![-<>!=])>=(?![=<>])"), _to(">")),
        (re.compile(r"(?<![-<>!=])<>(?![=<>])"), _to("=")),
        (re.compile(r"(?<![-<>!=])<(?![=<>])"), _to("<=")),
        (re.compile(r"(?<![-<>!=])>(?![=<>])"), _to(">=")),
    )


class SqlEqualsLiteral(SqlOperator):
    """= 'x' → <> 'x' (a state or status compared with a literal)."""

    in_literals = True
    rules = ((re.compile(r"(?<![<>!])= (?='\w+')"), _to("<> ")),)


class SqlArithmetic(SqlOperator):
    """Binary + ↔ -, * → /, and a unary minus dropped."""

    rules = (
        (re.compile(r"(?<=\s)\+(?=\s)"), _to("-")),
        (re.compile(r"(?<=\s)-(?=\s)"), _to("+")),
        (re.compile(r"(?<=\s)\*(?=\s)"), _to("/")),
        (re.compile(r"(?<=[\s,(])-(?=[a-z(])"), _to("")),
    )


class SqlLogic(SqlOperator):
    """AND ↔ OR, NOT dropped, IS NULL → IS NOT NULL (window frames' BETWEEN … AND kept)."""

    rules = (
        (re.compile(r"\bAND\b(?! CURRENT ROW)"), _to("OR")),
        (re.compile(r"\bOR\b"), _to("AND")),
        (re.compile(r"\bNOT "), _to("")),
        (re.compile(r"\bIS NULL\b"), _to("IS NOT NULL")),
    )


class SqlBoolean(SqlOperator):
    """true ↔ false."""

    rules = (
        (re.compile(r"\btrue\b"), _to("false")),
        (re.compile(r"\bfalse\b"), _to("true")),
    )


class SqlNumber(SqlOperator):
    """An integer literal n → n + 1."""

    rules = ((re.compile(r"(?<![\w.:'$])\d+(?![\w.'])"), lambda m: str(int(m.group(0)) + 1)),)


class SqlListItem(SqlOperator):
    """One item dropped from a list of quoted literals, e.g. the states that close a hold."""

    in_literals = True
    rules = ((re.compile(r"(?<=[(,])'\w+',|,'\w+'(?=\))"), _to("")),)


OPERATORS: dict[str, type[SqlOperator]] = {
    op.__name__: op
    for op in (
        SqlFunctionSwap,
        SqlComparison,
        SqlEqualsLiteral,
        SqlArithmetic,
        SqlLogic,
        SqlBoolean,
        SqlNumber,
        SqlListItem,
    )
}


class Provider:
    """The `gshare-sql` operator provider (Cosmic Ray instantiates it once)."""

    def __iter__(self) -> Iterator[str]:
        return iter(OPERATORS)

    def __getitem__(self, name: str) -> type[SqlOperator]:
        return OPERATORS[name]
