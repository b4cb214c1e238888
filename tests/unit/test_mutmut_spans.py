"""`make mutation` maps mypy's errors to mutants with `ast` (tests/mutation/mutmut_main.py):
the same functions and lines as mutmut's libcst collector, on code mutmut itself generates."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mutmut", reason="mutmut is in the 'mutation' extra")
import libcst as cst
from mutmut.mutation.file_mutation import MutatedMethodsCollector, mutate_file_contents

from tests.mutation.mutmut_main import mutated_methods

SOURCE = """
from dataclasses import dataclass


def plain(a: int, b: int) -> int:
    if a > b:
        return a - b
    return b + 1


async def waits(x: str) -> str:
    def inner(y: str) -> str:
        return y + "!"

    return inner(x) or "none"


@dataclass
class Shape:
    w: int = 1

    def area(self, h: int) -> int:
        return self.w * h if h > 0 else 0

    @classmethod
    def square(cls, w: int) -> "Shape":
        return cls(w=w * 2)

    @staticmethod
    def unit() -> int:
        return 1 + 0
"""


def test_the_spans_of_mutated_functions_are_those_of_mutmuts_collector(tmp_path: Path) -> None:
    path = tmp_path / "shapes.py"
    code = mutate_file_contents(str(path), SOURCE).code
    collector = MutatedMethodsCollector(path)
    cst.MetadataWrapper(cst.parse_module(code)).visit(collector)
    expected = [(m.function_name, m.line_number_start, m.line_number_end) for m in collector.found_mutants]
    got = [(m.function_name, m.line_number_start, m.line_number_end) for m in mutated_methods(path, code)]
    assert got == expected
    # every kind of function above is mutated: module level, async, methods, class and static
    names = {name.split("__mutmut_")[0] for name, _, _ in got}
    assert names == {"x_plain", "x_waits", "xǁShapeǁarea", "xǁShapeǁsquare", "xǁShapeǁunit"}
    assert len(got) > 10
