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
from pathlib import Path

import mutmut.__main__ as mutmut_main
import mutmut.mutation.file_mutation as file_mutation
from mutmut.configuration import config
from mutmut.type_checking import run_type_checker
from mutmut.utils.file_utils import change_cwd
from mutmut.utils.format_utils import get_mutant_name, is_mutated_method_name


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


def filter_mutants_with_type_checker() -> dict[str, file_mutation.FailedTypeCheckMutant]:
    with change_cwd(Path("mutants")):
        errors = run_type_checker(config().type_check_command)
        mutants_to_skip: dict[str, file_mutation.FailedTypeCheckMutant] = {}
        for path, errors_of_file in file_mutation.group_by_path(errors).items():
            methods = mutated_methods(path, path.read_text(encoding="utf-8"))
            if not methods:
                continue
            for error in errors_of_file:
                mutant = next(
                    (m for m in methods if m.line_number_start <= error.line_number <= m.line_number_end), None
                )
                if mutant is None:
                    # outside every mutated function: the trampolines' own typing (e.g. a
                    # @total_ordering class whose __lt__ is wrapped loses the plugin's >=); it
                    # judges no mutant, so it is reported, not fatal (mutmut raises here)
                    print(f"type error outside any mutant (ignored): {path}:{error.line_number} "
                          f"{error.error_description}")  # fmt: skip
                    continue
                name = get_mutant_name(path.relative_to(Path(".").absolute()), mutant.function_name)
                mutants_to_skip[name] = file_mutation.FailedTypeCheckMutant(mutant, name, error)
        return mutants_to_skip


mutmut_main.filter_mutants_with_type_checker = filter_mutants_with_type_checker  # type: ignore[assignment]

if __name__ == "__main__":
    mutmut_main.cli()
