"""The hexagon's import rules. `domain/` imports nothing from api/, infra/, workers/, the
operator, nor any I/O library. The adapters (`infra/`) import no driver (api/, workers/, the
operator's and the agent's packages, the command line `cli/`), and `api/` imports no other driver
(workers/, the operator, `cli/`): only the command line (`cli/`), above every driver, composes
them. Usage: python .ci/check_boundaries.py [ROOT]; exit 1 on a breach."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FORBIDDEN = {
    # the other layers
    "api",
    "cli",
    "infra",
    "workers",
    "gshare_operator",
    "gshare_agent",
    "tests",
    # I/O and framework libraries
    "sqlalchemy",
    "asyncpg",
    "psycopg",
    "psycopg2",
    "alembic",
    "redis",
    "dramatiq",
    "strawberry",
    "starlette",
    "uvicorn",
    "fastapi",
    "httpx",
    "requests",
    "aiohttp",
    "kubernetes",
    "kubernetes_asyncio",
    "authlib",
    "pgserver",
    "pydantic_settings",
    "pwdlib",
    "yaml",
    "socket",
    "subprocess",
    "urllib",
    "http",
    "sqlite3",
    "os",
    "shutil",
    "pathlib",
    "prometheus_client",
    "jwt",
    "cryptography",
}


# the outer layers: what each folder must not import (beyond the domain's list above)
LAYERS: dict[str, frozenset[str]] = {
    "infra": frozenset({"api", "cli", "workers", "gshare_operator", "gshare_agent", "tests"}),
    "api": frozenset({"cli", "workers", "gshare_operator", "gshare_agent", "tests"}),
}


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        found.extend((getattr(node, "lineno", 0), name) for name in names)
    return found


def breaches(root: Path) -> list[str]:
    found = []
    rules: list[tuple[str, frozenset[str], str]] = [("domain", frozenset(FORBIDDEN), "domain/ must not import")]
    rules += [(folder, forbidden, f"{folder}/ must not import") for folder, forbidden in LAYERS.items()]
    for folder, forbidden, message in rules:
        for path in sorted((root / folder).rglob("*.py")):
            try:
                tree = ast.parse(path.read_text(), str(path))
            except SyntaxError as exc:
                found.append(f"{path}: syntax error {exc}")
                continue
            for lineno, name in _imported(tree):
                if name.split(".")[0] in forbidden:
                    found.append(f"{path.relative_to(root)}:{lineno}: {message} {name}")
    return found


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    problems = breaches(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} import boundary breach(es)", file=sys.stderr)
        return 1
    print("domain/ imports no outer layer and no I/O library; infra/ imports no driver; api/ no other driver")
    return 0


if __name__ == "__main__":
    sys.exit(main())
