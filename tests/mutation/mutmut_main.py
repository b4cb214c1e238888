"""mutmut's command line with two changes to how mypy's errors are mapped to mutants: the
mutant a type error belongs to is found with Python's own parser (`ast`), not libcst; and an
error outside every mutated function is reported and skipped instead of ending the run.

mutmut 3.8 maps each error of `type_check_command` to the mutated function whose lines hold
it by parsing every file with errors with libcst and a position-metadata wrapper (a deep copy
of the tree). On domain/ mutated (about 16 000 mutants, 32 MB of code) that takes longer than
the rest of a run together, and it is repeated by every `mutmut run`. The line span of a
`def` is the same in `ast` (from the `def` line, decorators left out, as in libcst); the rest
(which errors count, the mutant names) is mutmut's own. An error outside every mutated
function comes from the trampolines' own typing (a @total_ordering class whose wrapped
`__lt__` hides it from mypy's plugin) and judges no mutant; mutmut 3.8 raises on it.

    python tests/mutation/mutmut_main.py run --max-children 1 'domain.credits.*'
"""

from __future__ import annotations

import ast
import bisect
import os
import resource
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import mutmut.__main__ as mutmut_main
import mutmut.mutation.file_mutation as file_mutation
from mutmut.configuration import config
from mutmut.type_checking import TypeCheckingError
from mutmut.utils.format_utils import get_mutant_name, is_mutated_method_name

MUTANTS_DIR = Path("mutants").absolute()  # mutmut runs from the repository's root
PHASES = MUTANTS_DIR / "phases.log"  # each phase's wall and CPU seconds, per mutmut run


def mutated_methods(path: Path, source: str) -> list[file_mutation.MutatedMethodLocation]:
    """The mutated functions of a file mutmut wrote, with their first and last line (as
    MutatedMethodsCollector: top-level functions and methods, never what is nested in them)."""
    found: list[file_mutation.MutatedMethodLocation] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_mutated_method_name(node.name):
                end = node.end_lineno or node.lineno  # from `def` (libcst's position leaves decorators out)
                found.append(file_mutation.MutatedMethodLocation(path, node.name, node.lineno, end))
            elif isinstance(node, (ast.If, ast.Try)):  # definitions under `if TYPE_CHECKING:` and the like
                visit([*node.body, *node.orelse, *getattr(node, "finalbody", []), *getattr(node, "handlers", [])])
            elif isinstance(node, ast.ExceptHandler):
                visit(node.body)

    visit(ast.parse(source).body)
    return found


def _type_errors_by_mutant(errors: list[Any]) -> dict[str, file_mutation.FailedTypeCheckMutant]:
    """mypy's errors (paths absolute, under mutants/) mapped to the mutants they refuse."""
    mutants_to_skip: dict[str, file_mutation.FailedTypeCheckMutant] = {}
    for path, errors_of_file in file_mutation.group_by_path(errors).items():
        methods = sorted(mutated_methods(path, path.read_text(encoding="utf-8")), key=lambda m: m.line_number_start)
        if not methods:
            continue
        # mutated functions never nest (methods and top-level functions): the one holding a
        # line is the last starting at or before it, if it ends at or after it (a scan of
        # every function per error took minutes on domain/: thousands of each in one file)
        starts = [m.line_number_start for m in methods]
        for error in errors_of_file:
            at = bisect.bisect_right(starts, error.line_number) - 1
            mutant = methods[at] if at >= 0 and error.line_number <= methods[at].line_number_end else None
            if mutant is None:
                # outside every mutated function: the trampolines' own typing (e.g. a
                # @total_ordering class whose __lt__ is wrapped loses the plugin's >=); it
                # judges no mutant, so it is reported, not fatal (mutmut raises here)
                print(f"type error outside any mutant (ignored): {path}:{error.line_number} "
                      f"{error.error_description}")  # fmt: skip
                continue
            name = get_mutant_name(path.relative_to(MUTANTS_DIR), mutant.function_name)
            mutants_to_skip[name] = file_mutation.FailedTypeCheckMutant(mutant, name, error)
    return mutants_to_skip


class TypeCheckInBackground(Mapping[str, file_mutation.FailedTypeCheckMutant]):
    """The mutants mypy refuses, computed in a thread while mutmut goes on to its stats pass
    (the domain's unit tests, in this process) and the clean run: mypy is a second process
    and the machine has a second core. The first look at the result waits for mypy; mutmut's
    first look is at the first mutant it would test, before any mutant runs. Always true, so
    mutmut's `caught or {}` does not wait for it."""

    def __init__(self, command: list[str]) -> None:
        self._result: dict[str, file_mutation.FailedTypeCheckMutant] | None = None
        self._error: BaseException | None = None
        self._started = _seconds()
        self._thread = threading.Thread(target=self._check, args=(command,), name="mypy-filter", daemon=True)
        self._thread.start()

    def _check(self, command: list[str]) -> None:
        try:
            # mypy runs in mutants/ (its paths relative to it, as mutmut's own filter)
            self._result = _type_errors_by_mutant(run_type_checker([*command], cwd=MUTANTS_DIR))
        except BaseException as error:  # re-raised where the result is first read
            self._error = error

    def result(self) -> dict[str, file_mutation.FailedTypeCheckMutant]:
        if self._result is None and self._error is None:
            waited = _seconds()
            self._thread.join()
            _log_phase("waiting for the mypy filter", *_since(waited))
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def __bool__(self) -> bool:
        return True

    def __getitem__(self, name: str) -> file_mutation.FailedTypeCheckMutant:
        return self.result()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.result())

    def __len__(self) -> int:
        return len(self.result())


def run_type_checker(command: list[str], cwd: Path) -> list[TypeCheckingError]:
    """mutmut's run_type_checker for mypy with an explicit working directory: a thread cannot
    chdir without moving the whole process (mutmut's stats pass runs pytest in mutants/ at the
    same time), so the paths mypy prints are made absolute against `cwd`, not the process's."""
    import json
    import subprocess

    wall = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, encoding="utf-8", cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # mypy's, unless a test's child ended meanwhile
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    _log_phase("mypy itself (in the background)", time.monotonic() - wall, (0.0, cpu))
    try:
        report = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    except json.JSONDecodeError:
        raise RuntimeError(
            f"mypy did not print JSON: {done.stdout[:2000]!r} (stderr: {done.stderr[:2000]!r})"
        ) from None
    if done.returncode not in (0, 1) or (done.returncode == 1 and not report):
        raise RuntimeError(f"mypy failed (exit {done.returncode}): {done.stderr[:2000]}")
    return [
        TypeCheckingError(file_path=cwd / d["file"], line_number=d["line"], error_description=d["message"])
        for d in report
        if d["severity"] == "error"
    ]


def filter_mutants_with_type_checker() -> Mapping[str, file_mutation.FailedTypeCheckMutant]:
    return TypeCheckInBackground(list(config().type_check_command))


# ---------------------------------------------------------------------- the clean run


_full_stats_passed: list[bool] = []


def run_stats_collection(runner: Any, tests: Any = None) -> None:
    """mutmut's stats pass; remembers when it ran every selected test and they passed (mutmut
    exits otherwise), so the clean run right after it need not run them all again."""
    _original_stats(runner, tests)
    if not tests:
        _full_stats_passed.append(True)


def _clean_run(run_clean_tests: Callable[..., int]) -> Callable[..., int]:
    """mutmut's clean run (the tests of the mutants to test, on the unmutated trampolines)
    checks that they pass before mutants are judged by them. After a full stats pass in the
    same process it is the same check again, minutes of tests: the stats pass ran every
    selected test with every trampoline calling the original (recording who called it) and
    stopped the run had one failed. Otherwise (stats loaded from an earlier run) it runs."""

    def clean(tests: Any) -> int:
        if _full_stats_passed:
            _log_phase("clean tests (skipped: the full stats pass ran them and they passed)", 0.0, (0.0, 0.0))
            return 0
        return run_clean_tests(tests)

    return clean


# ---------------------------------------------------------------------- the time of each phase


def _seconds() -> tuple[float, tuple[float, float]]:
    """(wall, (CPU of this process, CPU of its waited-for children)) in seconds."""
    t = os.times()
    return time.monotonic(), (t.user + t.system, t.children_user + t.children_system)


def _log_phase(phase: str, wall: float, cpu: tuple[float, float]) -> None:
    with open(PHASES, "a") as log:  # not stdout: mutmut's spinner swallows it
        log.write(f"{os.getpid()} {phase}: wall={wall:.1f}s cpu_self={cpu[0]:.1f}s cpu_children={cpu[1]:.1f}s\n")


def _since(start: tuple[float, tuple[float, float]]) -> tuple[float, tuple[float, float]]:
    wall, (me, children) = _seconds()
    return wall - start[0], (me - start[1][0], children - start[1][1])


def _timed(phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = _seconds()
        try:
            return fn(*args, **kwargs)
        finally:
            _log_phase(phase, *_since(start))

    return timed


_mutants_started: list[tuple[float, tuple[float, float]]] = []


def _make_runner(make: Callable[..., Any]) -> Callable[..., Any]:
    def make_runner(*args: Any, **kwargs: Any) -> Any:
        runner = make(*args, **kwargs)
        runner.run_clean_tests = _timed("clean tests", _clean_run(runner.run_clean_tests))
        runner.collect_stats = _timed("stats (which tests reach each function)", runner.collect_stats)
        runner.list_all_tests = _timed("listing the tests", runner.list_all_tests)
        startup, shutdown = runner.startup, runner.shutdown

        def timed_startup() -> None:
            _mutants_started.append(_seconds())
            startup()

        def timed_shutdown() -> None:
            shutdown()
            if _mutants_started:
                _log_phase("mutants' tests", *_since(_mutants_started.pop()))

        runner.startup, runner.shutdown = timed_startup, timed_shutdown
        return runner

    return make_runner


_original_stats = mutmut_main.run_stats_collection
mutmut_main.run_stats_collection = run_stats_collection
mutmut_main.create_mutants = _timed("generation", mutmut_main.create_mutants)
mutmut_main.filter_mutants_with_type_checker = _timed("mypy filter (started)", filter_mutants_with_type_checker)
mutmut_main.get_mutant_runner = _make_runner(mutmut_main.get_mutant_runner)
mutmut_main.run_forced_fail_test = _timed("forced-fail check", mutmut_main.run_forced_fail_test)
mutmut_main._run = _timed("mutmut run, all of it", mutmut_main._run)

if __name__ == "__main__":
    mutmut_main.cli()
