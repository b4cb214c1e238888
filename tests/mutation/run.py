"""`make mutation`: mutation testing of domain/ (mutmut 3) and the score per package.

    python -m tests.mutation.run                       # every package of domain/
    python -m tests.mutation.run --package domain/credits
    python -m tests.mutation.run --package domain/audit --package domain/volumes   # several, one mutmut run
    python -m tests.mutation.run --report              # print the last results, run nothing
    python -m tests.mutation.run --fresh               # forget earlier results first

mutmut copies domain/ into mutants/, records in one pass of the domain's unit tests (the
selection in pyproject's [tool.mutmut]) which tests reach each function, then runs, for each
mutant, only those tests (`-x`, fastest first by the stats pass's durations, so a slow test such
as the scheduler's golden master runs only for the mutants every faster test let through: judging
in two phases, slow tests only for the first phase's survivors, would run the same tests; two at a
time, `--jobs 1` on a busy machine). Results are kept in
mutants/: a later run tests again only the mutants of functions that changed and those not
killed before (new tests may kill them now); `--fresh` starts over.

The score of a package is killed / (all − reviewed equivalent), where killed counts mutants
that made a test fail, time out, or that mypy refused. Mutants no test reaches count as
survivors. Equivalent mutants are listed in tests/mutation/equivalent.txt, one a line:

    <mutant name> | <the mutated line, stripped> | <why it cannot change behaviour>

An entry whose line no longer matches the mutant (the code moved) is reported as stale and
the mutant counts as a survivor until the entry is reviewed again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = ROOT / "mutants"
EQUIVALENT = Path(__file__).with_name("equivalent.txt")
TARGET = 0.90

KILLED_CODES = {1, 3, 36, 37, -24, 24, 152, 255, -9, -11}  # failed, timed out, refused by mypy (37)
SURVIVED_CODES = {0, 5, 33}  # passed, or no test reached it


@dataclass(frozen=True)
class Equivalent:
    name: str
    line: str
    why: str


@dataclass
class Mutant:
    name: str
    path: str  # domain/credits/model.py
    exit_code: int | None
    seconds: float = 0.0  # its tests' time when it was last run (mutmut's durations_by_key)

    @property
    def package(self) -> str:
        return package_of(self.path)

    @property
    def killed(self) -> bool:
        return self.exit_code in KILLED_CODES


@dataclass
class PackageScore:
    package: str
    total: int = 0
    killed: int = 0
    by_mypy: int = 0  # of the killed: refused by mypy --strict before any test ran
    equivalent: int = 0
    not_run: int = 0
    seconds: float = 0.0  # the tests' time of its mutants' last runs (not mutmut's set-up)
    survivors: list[Mutant] = field(default_factory=list)

    @property
    def score(self) -> float:
        judged = self.total - self.equivalent
        return 1.0 if judged <= 0 else self.killed / judged


def package_of(path: str) -> str:
    """domain/credits/model.py -> domain/credits; domain/ports.py -> domain (top level)."""
    parts = Path(path).parts
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def parse_equivalents(text: str) -> dict[str, Equivalent]:
    out: dict[str, Equivalent] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        # the mutated line may hold " | " itself (a union type): the name is the first part,
        # the reason the last (a reason is written without " | ")
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) >= 3:
            parts = [parts[0], " | ".join(parts[1:-1]), parts[-1]]
        if len(parts) != 3 or not all(parts):
            raise ValueError(f"{EQUIVALENT.name}:{number}: want '<mutant> | <mutated line> | <why>', got {raw!r}")
        if parts[0] in out:
            raise ValueError(f"{EQUIVALENT.name}:{number}: {parts[0]} is listed twice")
        out[parts[0]] = Equivalent(*parts)
    return out


def score(
    mutants: Iterable[Mutant], equivalents: Mapping[str, Equivalent], lines: Mapping[str, str]
) -> tuple[dict[str, PackageScore], list[Equivalent]]:
    """Per package; `lines` maps a mutant to its mutated line (to check the list is current).
    Returns the scores and the stale entries of the equivalent list."""
    scores: dict[str, PackageScore] = {}
    stale: list[Equivalent] = []
    for m in mutants:
        s = scores.setdefault(m.package, PackageScore(m.package))
        s.total += 1
        s.seconds += m.seconds
        if m.killed:
            s.killed += 1
            s.by_mypy += m.exit_code == 37
            continue
        eq = equivalents.get(m.name)
        if eq is not None:
            if lines.get(m.name) == eq.line:
                s.equivalent += 1
                continue
            stale.append(eq)
        if m.exit_code is None:
            s.not_run += 1
        s.survivors.append(m)
    return scores, stale


# ---------------------------------------------------------------------- reading mutmut's results


def load_mutants(packages: Iterable[str] | None = None) -> list[Mutant]:
    wanted = None if packages is None else {p.rstrip("/") for p in packages}
    out: list[Mutant] = []
    for meta in sorted(MUTANTS.glob("domain/**/*.py.meta")):
        path = str(meta.relative_to(MUTANTS))[: -len(".meta")]
        if not (ROOT / path).exists():
            continue  # a module that is gone
        if wanted is not None and package_of(path) not in wanted:
            continue
        data = json.loads(meta.read_text())
        seconds = data.get("durations_by_key", {})
        out += [
            Mutant(name, path, code, float(seconds.get(name) or 0.0))
            for name, code in sorted(data["exit_code_by_key"].items())
        ]
    return out


def mutated_line(name: str, path: str) -> tuple[int, str]:
    """(line in the source file, the mutated line stripped) of a mutant, from mutmut's diff."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        diff = get_diff_for_mutant(name, path=path).splitlines()
    finally:
        os.chdir(cwd)
    removed = next((d[1:] for d in diff if d.startswith("-") and not d.startswith("---")), "")
    added = next((d[1:] for d in diff if d.startswith("+") and not d.startswith("+++")), "")
    source = (ROOT / path).read_text().splitlines()
    target = removed.strip()
    # the function's own lines come first in mutmut's copy: find the unchanged line in the
    # source near the function (names are unique per module, so its def is found first)
    func = name.rsplit("__mutmut_", 1)[0].rsplit(".", 1)[-1]
    func = func.split("ǁ")[-1] if "ǁ" in func else func.removeprefix("x_")
    start = next((i for i, s in enumerate(source) if f"def {func}(" in s), 0)
    line = _line_from_hunk(diff, start, source, target)
    if line is None:  # no usable hunk header: the first line below the def that reads the same
        line = next((i + 1 for i in range(start, len(source)) if source[i].strip() == target), start + 1)
    return line, added.strip() if added else "(line removed)"


def _line_from_hunk(diff: list[str], start: int, source: list[str], target: str) -> int | None:
    """The changed line's number in the source file from the diff's hunk header: mutmut diffs
    the function's own text, whose line 1 is the `def` (source index `start`). A line that
    reads the same earlier in the function (a second `continue`) is not taken for it."""
    import re

    for i, d in enumerate(diff):
        found = re.match(r"@@ -(\d+)", d)
        if found is None:
            continue
        rel = int(found.group(1))
        for context in diff[i + 1 :]:
            if context.startswith(("-", "+")):
                break
            rel += 1
        line = start + rel
        return line if 0 < line <= len(source) and source[line - 1].strip() == target else None
    return None


# ---------------------------------------------------------------------- running mutmut


JOBS = min(2, os.cpu_count() or 1)  # mutants tested at once (--jobs)
# read by tests/conftest.py: Hypothesis's "mutation" profile (the same examples every run)
MUTATION_ENV = {"GSHARE_MUTATION_RUN": "1"}


def mutmut(*args: str) -> int:
    # mutmut's own command line, its type-error mapping done with `ast` (see mutmut_main)
    # (run as a script: importing the `tests` package here would shadow the copy in mutants/)
    cmd = [sys.executable, str(Path(__file__).with_name("mutmut_main.py")), "run", "--max-children", str(JOBS), *args]
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"  # mypy, for the type filter
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PATH": path, **MUTATION_ENV}
    with open(MUTANTS / "mutmut.log", "a") as log:
        return subprocess.call(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def run_package(packages: list[str] | None) -> None:
    """Bring mutants/ up to date, then test the packages' mutants not killed yet (several
    packages in one mutmut run: its set-up, mypy over all of mutants/ and the test listing,
    takes minutes on its own)."""
    MUTANTS.mkdir(exist_ok=True)
    patterns = ["domain.*"] if packages is None else [p.rstrip("/").replace("/", ".") + ".*" for p in packages]
    if not (MUTANTS / "mutmut-stats.json").exists():
        mutmut(*patterns)  # first run: generate, record which tests reach what, test everything
        return
    mutmut("domain.__generate_only__.*")  # regenerate changed functions, stats for new tests
    pending = [m.name for m in load_mutants(packages) if not m.killed]
    if pending:
        mutmut(*pending)
    # functions that changed while that run set up (its regeneration came after the list)
    fresh = [m.name for m in load_mutants(packages) if m.exit_code is None]
    if fresh:
        mutmut(*fresh)


# ---------------------------------------------------------------------- the billing SQL (Cosmic Ray)

SQL_MODULE = "infra/billing/sql.py"
# the billing tests that exercise the statement's arithmetic, caps, holds and replays (the
# races and the hour of random sessions are left to `make test`: minutes each per mutant)
SQL_TESTS = (
    "tests/integration/billing/test_ticks.py",
    "--deselect=tests/integration/billing/test_ticks.py::test_ticks_settlements_and_pauses_racing_on_the_same_sessions_stay_exact",
    "--deselect=tests/integration/billing/test_ticks.py::test_repeated_and_concurrent_ticks_change_nothing_more",
)
SQL_DIR = MUTANTS / "sql"


def _sql_fingerprint() -> tuple[str, str]:
    """(the mutated code and operators, the tests that judge them): a change of the first
    starts over; of the second only re-tests the survivors."""
    import hashlib

    code, tests = hashlib.sha256(), hashlib.sha256()
    for rel in (SQL_MODULE, "tests/mutation/sql_operators.py"):
        code.update((ROOT / rel).read_bytes())
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "mutation" not in path.parts:
            tests.update(path.read_bytes())
    tests.update(" ".join(SQL_TESTS).encode())
    return code.hexdigest(), tests.hexdigest()


def _copy_tree(tree: Path, only: str | None = None) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    for rel in files.stdout.split("\0"):
        if not rel or rel.startswith("web/") or (only is not None and not rel.startswith(only)):
            continue
        if (ROOT / rel).is_file():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, tree / rel)


def _write_sql_config(config: Path) -> None:
    tests = " ".join(SQL_TESTS)
    config.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{SQL_MODULE}"\n'
        "timeout = 300.0\n"
        "excluded-modules = []\n"
        f'test-command = "{sys.executable} -m pytest -x -q -p no:randomly -p no:cacheprovider {tests}"\n'
        "[cosmic-ray.distributor]\n"
        'name = "local"\n'
        "[cosmic-ray.filters.operators-filter]\n"
        'exclude-operators = ["core/.*"]\n'
    )


def run_sql() -> None:
    """Cosmic Ray with the gshare-sql operators on a copy of the repository (it mutates the
    file in place), one mutant at a time. Incremental: an interrupted run resumes; changed
    tests re-test only the survivors; a changed statement or operator set starts over."""
    import sqlite3

    tree, session = SQL_DIR / "tree", SQL_DIR / "session.sqlite"
    stamp = SQL_DIR / "fingerprint"
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1", **MUTATION_ENV}
    config = SQL_DIR / "config.toml"
    code, tests = _sql_fingerprint()
    steps: list[list[object]] = [[bin_dir / "cosmic-ray", "exec", config, session]]  # runs what is pending
    old = stamp.read_text().split() if stamp.exists() and session.exists() else []
    if not old or old[0] != code:
        if SQL_DIR.exists():
            shutil.rmtree(SQL_DIR)
        tree.mkdir(parents=True)
        _copy_tree(tree)
        _write_sql_config(config)
        steps = [
            [bin_dir / "cosmic-ray", "init", config, session],
            [bin_dir / "cr-filter-operators", session, config],
            *steps,
        ]
    elif old[1:] != [tests]:
        _copy_tree(tree, only="tests/")
        _write_sql_config(config)
        with sqlite3.connect(session) as db:
            db.execute("DELETE FROM work_results WHERE upper(test_outcome) = 'SURVIVED'")
    stamp.write_text(f"{code} {tests}")  # written first: an interrupted run resumes what is pending
    # an interrupted run may have left a mutant in the copy
    shutil.copy2(ROOT / SQL_MODULE, tree / SQL_MODULE)
    # compiled once: each mutant's run then imports the application from bytecode, and only
    # the mutated module is compiled from source (no bytecode is written)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-x", r"billing/sql\.py$", str(tree)], check=False)
    (tree / Path(SQL_MODULE).parent / "__pycache__").mkdir(exist_ok=True)
    for stale in (tree / Path(SQL_MODULE).parent / "__pycache__").glob(Path(SQL_MODULE).stem + ".*"):
        stale.unlink()
    from tests.support.database import create_test_database

    template = create_test_database("gshare_mutation_template")  # migrated once, copied per mutant
    env["GSHARE_TEST_DATABASE_TEMPLATE"] = template.name
    try:
        with open(SQL_DIR / "cosmic-ray.log", "a") as log:
            for cmd in steps:
                subprocess.run(
                    [str(c) for c in cmd], cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT, check=True
                )
    finally:
        template.drop()


def report_sql() -> int:
    """Survivors of the billing SQL by line, and its score (equivalents as for domain/)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    session = SQL_DIR / "session.sqlite"
    if not session.exists():
        print("no results for the billing SQL yet")
        return 1
    equivalents = parse_equivalents(EQUIVALENT.read_text()) if EQUIVALENT.exists() else {}
    total = killed = equivalent = pending = 0
    survivors = []
    source = (ROOT / SQL_MODULE).read_text().splitlines()
    with use_db(str(session), WorkDB.Mode.open) as db:
        results = dict(db.results)
        pending = sum(1 for _ in db.pending_work_items)
        for item in db.work_items:
            total += 1
            result = results.get(item.job_id)
            if result is None:
                continue
            if result.worker_outcome == WorkerOutcome.SKIPPED:  # an operator filtered out (core/*)
                total -= 1
                continue
            mutation = item.mutations[0]
            line = mutation.start_pos[0]
            name = f"sql:{mutation.operator_name}:{mutation.occurrence}"
            text = _sql_mutated_line(result.diff) or source[line - 1].strip()
            if result.worker_outcome == WorkerOutcome.NORMAL and result.test_outcome != TestOutcome.SURVIVED:
                killed += 1
            elif name in equivalents and equivalents[name].line == text:
                equivalent += 1
            else:
                survivors.append((line, name, text))
    print("\nsurviving mutants of the billing SQL (file:line  mutant  → mutated line):")
    for line, name, text in sorted(survivors):
        print(f"  {SQL_MODULE}:{line}  {name}  → {text[:110]}")
    judged = total - equivalent
    rate = killed / judged if judged else 1.0
    print(f"\nbilling SQL ({SQL_MODULE}): {total} mutants, {killed} killed, {equivalent} equivalent, "
          f"{len(survivors)} survived, {pending} not run: {rate:.1%}")  # fmt: skip
    return 0 if rate >= TARGET and not pending else 1


def _sql_mutated_line(diff: str | None) -> str:
    for d in (diff or "").splitlines():
        if d.startswith("+") and not d.startswith("+++"):
            return d[1:].strip()
    return ""


# ---------------------------------------------------------------------- report


def report(packages: list[str] | None) -> int:
    equivalents = parse_equivalents(EQUIVALENT.read_text()) if EQUIVALENT.exists() else {}
    mutants = load_mutants(packages)
    if not mutants:
        print("no mutation results yet: run `make mutation` first")
        return 1
    not_killed = [m for m in mutants if not m.killed]
    where = {m.name: mutated_line(m.name, m.path) for m in not_killed}
    lines = {name: text for name, (_, text) in where.items()}
    scores, stale = score(mutants, equivalents, lines)
    print("\nsurviving mutants (file:line  mutant  → mutated line):")
    for s in sorted(scores.values(), key=lambda s: s.package):
        for m in sorted(s.survivors, key=lambda m: (m.path, where[m.name][0])):
            line, text = where[m.name]
            state = "not run" if m.exit_code is None else ("no test" if m.exit_code in (5, 33) else "survived")
            print(f"  {m.path}:{line}  {m.name}  [{state}]  → {text[:110]}")
    for eq in stale:
        print(f"  stale entry in {EQUIVALENT.name}: {eq.name} (its line is no longer {eq.line!r})")
    print(f"\nmutation score per package (killed / non-equivalent; target {TARGET:.0%}):")
    print(f"  {'package':<22} {'mutants':>8} {'killed':>7} {'(mypy)':>7} {'equiv.':>7} {'surv.':>6} {'score':>7} "
          f"{'tests':>7}")  # fmt: skip
    totals: Counter[str] = Counter()
    seconds = 0.0
    below = []
    for s in sorted(scores.values(), key=lambda s: s.package):
        mark = "" if s.score >= TARGET else "  < target"
        print(
            f"  {s.package:<22} {s.total:>8} {s.killed:>7} {s.by_mypy:>7} {s.equivalent:>7} {len(s.survivors):>6} "
            f"{s.score:>7.1%} {s.seconds / 60:>5.1f}min{mark}"
        )
        totals.update(
            total=s.total, killed=s.killed, by_mypy=s.by_mypy, equivalent=s.equivalent, survivors=len(s.survivors)
        )
        seconds += s.seconds
        if s.score < TARGET:
            below.append(s.package)
    judged = totals["total"] - totals["equivalent"]
    print(f"  {'all':<22} {totals['total']:>8} {totals['killed']:>7} {totals['by_mypy']:>7} {totals['equivalent']:>7} "
          f"{totals['survivors']:>6} {totals['killed'] / max(1, judged):>7.1%} {seconds / 60:>5.1f}min")  # fmt: skip
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    print(f"  (commit {commit.stdout.strip()}; survivors include mutants no test reaches; 'tests': the time of the "
          "mutants' test runs when each was last run, without mutmut's set-up)")  # fmt: skip
    return 1 if below or stale else 0


class Background:
    """The billing SQL's Cosmic Ray run beside mutmut's: its time is mostly one pytest at a time
    waiting on PostgreSQL, and mutmut's set-up has single-process stretches (the largest
    module's generation, the stats pass), so the two together take less than one after the
    other. They share nothing: Cosmic Ray works on its own copy of the repository
    (mutants/sql/tree) and its own template database."""

    def __init__(self, fn: Callable[[], None], what: str) -> None:
        import threading

        self.what = what
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.seconds = 0.0

        def run() -> None:
            try:
                fn()
            except BaseException as error:  # re-raised by join, in the main thread
                self.error = error
            self.seconds = time.monotonic() - self.started

        self.thread = threading.Thread(target=run, name=what, daemon=True)
        self.thread.start()

    def join(self) -> None:
        self.thread.join()
        if self.error is not None:
            raise RuntimeError(f"{self.what} failed") from self.error
        print(f"  ({self.what}: {self.seconds / 60:.1f} min, beside domain/)")


def main(argv: list[str] | None = None) -> int:
    global JOBS
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--package", action="append", help="a package of domain/, e.g. domain/credits (repeat for several)"
    )
    parser.add_argument("--report", action="store_true", help="print the last results only")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument("--sql", action="store_true", help="only the billing SQL")
    parser.add_argument("--no-sql", action="store_true", help="only domain/")
    parser.add_argument("--jobs", type=int, default=JOBS, help=f"mutants tested at once (default {JOBS})")
    args = parser.parse_args(argv)
    JOBS = max(1, args.jobs)
    for package in args.package or ():
        if not (ROOT / package).is_dir():
            parser.error(f"--package: {package} is not a folder of the repository")
    started = time.monotonic()
    if args.fresh and MUTANTS.exists():
        shutil.rmtree(MUTANTS)
    code = 0
    with_sql = args.sql or (not args.no_sql and args.package is None)
    sql = None if args.report or not with_sql else Background(run_sql, "the billing SQL")
    if args.sql and sql is not None:
        sql.join()
    if not args.sql:
        if not args.report:
            run_package(args.package)
        code |= report(args.package)
    if with_sql:
        if sql is not None:
            sql.join()
        code |= report_sql()
    print(f"  ({(time.monotonic() - started) / 60:.1f} min)")
    return code


if __name__ == "__main__":
    sys.exit(main())
