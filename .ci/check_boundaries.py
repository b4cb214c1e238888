"""The hexagon's import rule: `domain/` imports nothing from api/, infra/, workers/, the
operator, nor any I/O library. Usage: python .ci/check_boundaries.py [ROOT]; exit 1 on a breach."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FORBIDDEN = {
    # the other layers
    "api",
    "infra",
    "workers",
    "gshare_operator",
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


def breaches(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "domain").rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(), str(path))
        except SyntaxError as exc:
            found.append(f"{path}: syntax error {exc}")
            continue
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
                names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    found.append(f"{path.relative_to(root)}:{node.lineno}: domain/ must not import {name}")
    return found


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    problems = breaches(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} import boundary breach(es)", file=sys.stderr)
        return 1
    print("domain/ imports no outer layer and no I/O library")
    return 0


if __name__ == "__main__":
    sys.exit(main())
