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


def _mypy_printing(tmp_path: Path, *diagnostics: dict[str, object], exit_code: int = 1) -> list[str]:
    """A command that prints what `mypy --output json` prints for these diagnostics."""
    import json
    import sys

    script = tmp_path / "fake_mypy.py"
    lines = "\n".join(json.dumps(d) for d in diagnostics)
    script.write_text(f"import sys\nprint({lines!r})\nsys.exit({exit_code})\n")
    return [sys.executable, str(script)]


def test_the_type_check_in_the_background_names_the_refused_mutants_whatever_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mypy runs in a thread while mutmut's stats pass chdirs into mutants/ and back: its paths
    are read against mutants/, not the process's directory at that moment."""
    from mutmut.utils.format_utils import get_mutant_name

    import tests.mutation.mutmut_main as main

    mutants = tmp_path / "mutants"
    (mutants / "domain").mkdir(parents=True)
    code = mutate_file_contents("domain/shapes.py", SOURCE).code
    (mutants / "domain" / "shapes.py").write_text(code)
    monkeypatch.setattr(main, "MUTANTS_DIR", mutants)
    monkeypatch.setattr(main, "PHASES", tmp_path / "phases.log")
    area = next(m for m in mutated_methods(Path("shapes.py"), code) if m.function_name.startswith("xǁShapeǁarea"))
    error = {"file": "domain/shapes.py", "line": area.line_number_end, "severity": "error", "message": "bad"}
    note = {**error, "severity": "note", "line": 1}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    caught = main.TypeCheckInBackground(_mypy_printing(tmp_path, error, note))
    assert caught  # true before mypy is done: mutmut's `caught or {}` does not wait
    assert dict(caught).keys() == {get_mutant_name(Path("domain/shapes.py"), area.function_name)}
    assert caught.get("domain.shapes.x_plain__mutmut_1") is None
    assert "mypy itself" in (tmp_path / "phases.log").read_text()


def test_a_type_check_that_fails_ends_the_run_where_its_result_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tests.mutation.mutmut_main as main

    monkeypatch.setattr(main, "PHASES", tmp_path / "phases.log")
    monkeypatch.setattr(main, "MUTANTS_DIR", tmp_path)
    caught = main.TypeCheckInBackground(_mypy_printing(tmp_path, exit_code=2))
    with pytest.raises(RuntimeError, match="exit 2"):
        caught.get("anything")


def test_the_clean_run_is_left_out_only_after_a_full_stats_pass_in_the_same_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tests.mutation.mutmut_main as main

    monkeypatch.setattr(main, "PHASES", tmp_path / "phases.log")
    monkeypatch.setattr(main, "_full_stats_passed", [])
    stats: list[object] = []
    monkeypatch.setattr(main, "_original_stats", lambda runner, tests: stats.append(tests))
    ran: list[object] = []

    def clean_tests(tests: object) -> int:
        ran.append(tests)
        return 3

    clean = main._clean_run(clean_tests)
    main.run_stats_collection(object(), tests={"tests/unit/test_a.py::test_new"})  # new tests only
    assert clean({"t"}) == 3 and ran == [{"t"}]  # stats loaded from an earlier run: the clean run runs
    main.run_stats_collection(object())  # every selected test, passed (mutmut exits otherwise)
    assert clean({"t"}) == 0 and ran == [{"t"}]
    assert stats == [{"tests/unit/test_a.py::test_new"}, None]


def test_every_line_of_the_mutated_code_is_given_to_the_function_holding_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search by the functions' first lines names, for an error on any line, the mutant
    whose span holds it (and none outside every span), as a scan of every span does."""
    from mutmut.type_checking import TypeCheckingError
    from mutmut.utils.format_utils import get_mutant_name

    import tests.mutation.mutmut_main as main

    (tmp_path / "domain").mkdir()
    path = tmp_path / "domain" / "shapes.py"
    code = mutate_file_contents("domain/shapes.py", SOURCE).code
    path.write_text(code)
    monkeypatch.setattr(main, "MUTANTS_DIR", tmp_path)
    methods = mutated_methods(path, code)
    for line in range(1, code.count("\n") + 2):
        holding = [m for m in methods if m.line_number_start <= line <= m.line_number_end]
        found = main._type_errors_by_mutant([TypeCheckingError(path, line, "bad")])
        want = {get_mutant_name(Path("domain/shapes.py"), m.function_name) for m in holding}
        assert found.keys() == want, line
