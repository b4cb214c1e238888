"""The Cosmic Ray operators for SQL in string literals (tests/mutation/sql_operators.py)."""

from __future__ import annotations

import pytest

cosmic_ray = pytest.importorskip("cosmic_ray", reason="cosmic-ray is in the 'mutation' extra")
parso = pytest.importorskip("parso", reason="parso comes with cosmic-ray")

from tests.mutation.sql_operators import OPERATORS  # noqa: E402

SOURCE = '''"""A docstring: SELECT a AND b."""
STATES = "('A','B','C')"
SQL = """
SELECT greatest(0, a - b) AS d  -- a comment: x AND y, it's 0
FROM t WHERE t.state = 'open' AND t.n > 1 AND s.gpu->>'ratio' IS NULL
WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
"""
'''


def mutants(name: str) -> list[str]:
    tree = parso.parse(SOURCE)
    op = OPERATORS[name]()
    out = []

    def walk(node: object) -> None:
        for i, _ in enumerate(list(op.mutation_positions(node))):
            out.append(op.mutate(node, i).value)
        for child in getattr(node, "children", []):
            walk(child)

    walk(tree)
    return out


def test_each_operator_mutates_sql_tokens_outside_comments_docstrings_and_window_frames() -> None:
    assert [m.split("\n")[1] for m in mutants("SqlFunctionSwap")] == [
        "SELECT least(0, a - b) AS d  -- a comment: x AND y, it's 0"
    ]
    logic = [m.split("\n")[2] for m in mutants("SqlLogic")]
    assert logic == [
        "FROM t WHERE t.state = 'open' OR t.n > 1 AND s.gpu->>'ratio' IS NULL",
        "FROM t WHERE t.state = 'open' AND t.n > 1 OR s.gpu->>'ratio' IS NULL",
        "FROM t WHERE t.state = 'open' AND t.n > 1 AND s.gpu->>'ratio' IS NOT NULL",
    ]
    assert [m.split("\n")[2] for m in mutants("SqlComparison")] == [
        "FROM t WHERE t.state = 'open' AND t.n >= 1 AND s.gpu->>'ratio' IS NULL"
    ]
    assert [m.split("\n")[2] for m in mutants("SqlEqualsLiteral")] == [
        "FROM t WHERE t.state <> 'open' AND t.n > 1 AND s.gpu->>'ratio' IS NULL"
    ]
    assert [m.split("\n")[1][:30] for m in mutants("SqlArithmetic")] == ["SELECT greatest(0, a + b) AS d"]
    numbers = mutants("SqlNumber")
    assert [m.split("\n")[1][:30] for m in numbers] == [
        "SELECT greatest(1, a - b) AS d",
        "SELECT greatest(0, a - b) AS d",
    ]
    assert numbers[1].split("\n")[2] == "FROM t WHERE t.state = 'open' AND t.n > 2 AND s.gpu->>'ratio' IS NULL"
    assert mutants("SqlListItem") == ["\"('B','C')\"", "\"('A','C')\""]
