"""The `make mutation` report: scores per package and the reviewed list of equivalent mutants."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.mutation import run
from tests.mutation.run import Equivalent, Mutant, package_of, parse_equivalents, score


def test_a_package_is_the_first_folder_below_domain() -> None:
    assert package_of("domain/credits/model.py") == "domain/credits"
    assert package_of("domain/ports.py") == "domain"


def test_equivalent_entries_need_a_name_the_mutated_line_and_a_reason() -> None:
    text = "# a comment\n\nm.x_f__mutmut_1 | return a <= b | a == b never reaches here\n"
    assert parse_equivalents(text) == {
        "m.x_f__mutmut_1": Equivalent("m.x_f__mutmut_1", "return a <= b", "a == b never reaches here")
    }
    with pytest.raises(ValueError, match=r"equivalent\.txt:1: want"):
        parse_equivalents("m.x_f__mutmut_1 | return a <= b\n")
    # a mutated line holding " | " (a union type) keeps it: the reason is the last part
    union = "m.x_g__mutmut_1 | def get(self) -> A | None: ... | never run\n"
    assert parse_equivalents(union)["m.x_g__mutmut_1"].line == "def get(self) -> A | None: ..."
    with pytest.raises(ValueError, match="listed twice"):
        parse_equivalents("a | b | c\na | b | c\n")


def test_the_score_leaves_out_reviewed_equivalents_and_counts_unreached_mutants_as_survivors() -> None:
    mutants = [
        Mutant("domain.credits.model.x_f__mutmut_1", "domain/credits/model.py", 1),  # killed
        Mutant("domain.credits.model.x_f__mutmut_2", "domain/credits/model.py", 37),  # refused by mypy
        Mutant("domain.credits.model.x_f__mutmut_3", "domain/credits/model.py", 0),  # survived
        Mutant("domain.credits.model.x_f__mutmut_4", "domain/credits/model.py", 33),  # no test reached it
        Mutant("domain.credits.model.x_f__mutmut_5", "domain/credits/model.py", 0),  # equivalent
        Mutant("domain.credits.model.x_f__mutmut_6", "domain/credits/model.py", 0),  # stale entry
        Mutant("domain.audit.model.x_g__mutmut_1", "domain/audit/model.py", 36),  # timed out
    ]
    eq = {
        "domain.credits.model.x_f__mutmut_5": Equivalent("domain.credits.model.x_f__mutmut_5", "x = 1", "why"),
        "domain.credits.model.x_f__mutmut_6": Equivalent("domain.credits.model.x_f__mutmut_6", "y = 2", "why"),
    }
    lines = {"domain.credits.model.x_f__mutmut_5": "x = 1", "domain.credits.model.x_f__mutmut_6": "y = 3"}
    scores, stale = score(mutants, eq, lines)
    credits = scores["domain/credits"]
    assert (credits.total, credits.killed, credits.by_mypy, credits.equivalent) == (6, 2, 1, 1)
    assert [m.name[-1] for m in credits.survivors] == ["3", "4", "6"]
    assert credits.score == pytest.approx(2 / 5)
    assert scores["domain/audit"].score == 1.0
    assert [e.name for e in stale] == ["domain.credits.model.x_f__mutmut_6"]


def test_each_hand_mutant_of_issue_20_still_finds_its_code_once_and_names_existing_tests() -> None:
    """`python -m tests.mutation.hand_mutants` (Must show 2) applies each by text: the code it
    replaces must still be there exactly once, and the tests it runs must exist."""
    from tests.mutation.hand_mutants import MUTANTS, ROOT

    assert [m.name for m in MUTANTS] == ["mig-cores", "preemption-count", "drain", "role-matrix"]
    for m in MUTANTS:
        assert (ROOT / m.path).read_text().count(m.original) == 1, m.name
        assert m.original != m.mutated
        assert all((ROOT / t).is_file() for t in m.tests), m.name


def test_the_readme_and_the_makefile_say_how_many_mutants_are_tested_at_once_as_run_py_does() -> None:
    """run.py tests min(2, cores) mutants at a time unless told (--jobs / JOBS=): the README
    and the Makefile's comment say the same."""
    root = Path(run.__file__).resolve().parents[2]
    assert min(2, os.cpu_count() or 1) == run.JOBS
    section = (root / "README.md").read_text().split("## Mutation testing", 1)[1].split("\n## ", 1)[0]
    readme = " ".join(section.split())
    assert "`JOBS` defaults to min(2, cores)" in readme and "one worker)" not in readme
    assert "JOBS=1 one mutant at a time (default min(2, cores))" in (root / "Makefile").read_text()


def test_a_mutants_line_is_read_from_the_hunk_not_the_first_line_that_reads_the_same() -> None:
    """mutmut diffs the function's own text (its line 1 the `def`): a `continue` turned into
    `break` in the second of two `continue`s is reported on the second."""
    source = ["x = 1", "def f(xs):", "    for x in xs:", "        if x:", "            continue", "        try:",
              "            g(x)", "        except E:", "            continue", "        h(x)"]  # fmt: skip
    diff = ["--- m.py", "+++ m.py", "@@ -5,4 +5,4 @@", "         try:", "             g(x)", "         except E:",
            "-            continue", "+            break", "         h(x)"]  # fmt: skip
    assert run._line_from_hunk(diff, 1, source, "continue") == 9
    assert run._line_from_hunk(diff, 1, source, "return") is None  # the source moved: the caller falls back
    assert run._line_from_hunk(["no hunk"], 1, source, "continue") is None
