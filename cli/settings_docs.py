"""The configuration documentation, generated from the settings, and the check that the code
reads no `GSHARE_*` variable the settings do not declare.

    python -m cli.settings_docs           # rewrite the generated parts of the docs
    python -m cli.settings_docs --check   # exit 1 when a doc is stale or a read is undeclared

Generated parts sit between `<!-- settings:NAME -->` and `<!-- /settings:NAME -->` in the
README (the control plane's table), operator/README.md (the operator's) and the Helm chart's
README (the settings each Deployment accepts through its `env` values).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from infra.settings import ALL, CONFIG_FILE_ENV, JOBS, SERVE, TEST_HOOKS, WORKER, Settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
OPERATOR_README = ROOT / "operator" / "README.md"
CHART = ROOT / "deploy" / "helm" / "gshare"
CHART_README = CHART / "README.md"

# Variables gshare writes into session pods (the operator) and never reads itself
WRITTEN_FOR_SESSIONS: dict[str, str] = {
    "GSHARE_SESSION_ID": "the session's id, set by the operator in every session pod",
    "GSHARE_ACCESS_TOKEN": "the session's access token, set by the operator in every session pod",
}
# Chart templates of processes this codebase does not have yet: their variables are not checked
# while the command is missing (the test fails once the command exists and this still names it)
PENDING_TEMPLATES: dict[str, str] = {}

NAME = re.compile(r"\bGSHARE_[A-Z0-9]+(?:_[A-Z0-9]+)*\b")
SOURCE_DIRS = ("api", "cli", "infra", "workers", "operator", "domain")
# Where reading the environment is the settings' own business
SETTINGS_MODULES = ("infra/settings.py", "operator/gshare_operator/settings.py", "operator/gshare_agent/settings.py")


@dataclass(frozen=True)
class Row:
    env: str
    default: str
    used_by: str
    description: str
    secret: bool = False
    flag: str | None = None


def _shown(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[]" if not value else ", ".join(map(str, value))
    return str(value)


def settings_rows() -> list[Row]:
    rows = []
    for name, info in Settings.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if info.default_factory is not None:
            default = "see meaning" if name == "data_dir" else _shown(info.default_factory())  # type: ignore[call-arg]
        else:
            default = _shown(info.default)
        secret = info.annotation is not None and SecretStr in getattr(info.annotation, "__args__", (info.annotation,))
        rows.append(
            Row(
                env=f"GSHARE_{name.upper()}",
                default=default,
                used_by=str(extra.get("used_by", ALL)),
                description=info.description or "",
                secret=secret,
            )
        )
    return rows


def operator_rows() -> list[Row]:
    from gshare_operator.settings import OperatorSettings, documented

    del OperatorSettings
    rows = []
    for f in documented():
        default = "" if f.default is MISSING else _shown(f.default)
        if f.name == "cluster_id":
            default = "required"
        elif f.name == "identity":
            default = "see meaning"
        elif f.name == "leader_election":
            default = "election on"
        rows.append(
            Row(
                env=f.metadata.get("env") or "",
                default=default,
                used_by="operator",
                description=f.metadata["description"],
                flag=f.metadata.get("flag"),
            )
        )
    return rows


def agent_rows() -> list[Row]:
    """The node agent's settings (`gshare_agent.settings`: standard library only, like the
    operator's; the meaning is its option's help)."""
    from gshare_agent.settings import ENV, AgentSettings, parser

    helps = {a.dest: a for a in parser()._actions}
    rows = []
    for f in fields(AgentSettings):
        action = helps.get(f.name)
        if action is None:
            continue
        default = _shown(f.default) if f.default is not MISSING else "required"
        rows.append(
            Row(
                env=ENV.get(f.name, ""),
                default=default,
                used_by="agent",
                description=(action.help or "").split(" ($")[0],
                flag=action.option_strings[0] if action.option_strings else None,
            )
        )
    return rows


def declared_names() -> dict[str, str]:
    """Every `GSHARE_*` name gshare knows, with what it is."""
    names = {r.env: "setting" for r in settings_rows()}
    names.update({r.env: "operator setting" for r in operator_rows() if r.env.startswith("GSHARE_")})
    names.update({r.env: "agent setting" for r in agent_rows() if r.env.startswith("GSHARE_")})
    names.update(dict.fromkeys(TEST_HOOKS, "test hook"))
    names.update(dict.fromkeys(WRITTEN_FOR_SESSIONS, "written into session pods"))
    return names


# ---------------------------------------------------------------------- the generated tables


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _used_by(value: str) -> str:
    return {
        ALL: "all",
        SERVE: "serve",
        WORKER: "worker",
        JOBS: "jobs (worker; serve without Redis)",
    }.get(value, value)


def readme_table() -> str:
    lines = [
        "| setting | default | read by | meaning |",
        "| --- | --- | --- | --- |",
    ]
    for r in settings_rows():
        default = "(secret) unset" if r.secret and r.default == "unset" else r.default
        lines.append(f"| `{r.env}` | {_cell(default)} | {_used_by(r.used_by)} | {_cell(r.description)} |")
    return "\n".join(lines)


def operator_table(rows: list[Row] | None = None) -> str:
    lines = ["| option | environment | default | meaning |", "| --- | --- | --- | --- |"]
    for r in operator_rows() if rows is None else rows:
        env = f"`{r.env}`" if r.env else ""
        lines.append(f"| `{r.flag}` | {env} | {_cell(r.default)} | {_cell(r.description)} |")
    return "\n".join(lines)


CHART_ENV_VALUES = (
    ("controlPlane.api.env", "the `gshare-api` Deployment (`gshare serve`)", (ALL, SERVE)),
    ("controlPlane.worker.env", "the `gshare-worker` Deployment (`gshare worker`)", (ALL, WORKER, JOBS)),
)


def chart_table() -> str:
    out = []
    for value, what, used_by in CHART_ENV_VALUES:
        out.append(f"`{value}` — settings of {what}:")
        out.append("")
        out.append("| name | default | meaning |")
        out.append("| --- | --- | --- |")
        for r in settings_rows():
            if r.used_by in used_by and r.env != CONFIG_FILE_ENV:
                out.append(f"| `{r.env}` | {_cell(r.default)} | {_cell(r.description)} |")
        out.append("")
    out.append("`operator.env` — settings of the `gshare-operator` Deployment (`gshare operator`):")
    out.append("")
    out.append("| name | default | meaning |")
    out.append("| --- | --- | --- |")
    for r in operator_rows():
        if r.env.startswith("GSHARE_"):
            out.append(f"| `{r.env}` | {_cell(r.default)} | {_cell(r.description)} |")
    return "\n".join(out)


def _replace(text: str, name: str, body: str) -> str:
    begin, end = f"<!-- settings:{name} -->", f"<!-- /settings:{name} -->"
    if begin not in text or end not in text:
        raise ValueError(f"markers {begin} … {end} missing")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def generated() -> dict[Path, str]:
    """Each documentation file as it should read."""
    return {
        README: _replace(README.read_text(), "gshare", readme_table()),
        OPERATOR_README: _replace(OPERATOR_README.read_text(), "operator", operator_table()),
        CHART_README: _replace(
            _replace(CHART_README.read_text(), "chart", chart_table()), "agent", operator_table(agent_rows())
        ),
    }


def stale_docs() -> list[Path]:
    return [path for path, text in generated().items() if path.read_text() != text]


# ---------------------------------------------------------------------- the source check


def _strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def _environment_reads(tree: ast.AST, constants: dict[str, str]) -> Iterator[tuple[int, str]]:
    """`os.environ.get(X)`, `os.environ[X]`, `os.getenv(X)`, `environ.get(X)` with X a literal
    or a module constant."""

    def literal(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None

    def is_environ(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
            isinstance(node, ast.Name) and node.id == "environ"
        )

    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr in ("get", "pop") and is_environ(func.value)) or (
                isinstance(func, ast.Attribute) and func.attr == "getenv"
            ):
                name = literal(node.args[0])
        elif isinstance(node, ast.Subscript) and is_environ(node.value) and isinstance(node.ctx, ast.Load):
            name = literal(node.slice)
        if name and name.startswith("GSHARE_"):
            yield getattr(node, "lineno", 0), name


def _python_files(root: Path) -> Iterable[Path]:
    for top in SOURCE_DIRS:
        yield from sorted((root / top).rglob("*.py"))


def source_problems(root: Path = ROOT) -> list[str]:
    """Names no setting declares, anywhere in the code or the shipped docs, and product settings
    read from the environment outside the settings modules."""
    declared = declared_names()
    problems = []
    for path in _python_files(root):
        rel = path.relative_to(root).as_posix()
        if "/migrations/versions/" in rel:
            continue
        tree = ast.parse(path.read_text(), rel)
        constants = {
            t.id: n.value.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        for line, text in sorted(_strings(tree)):
            for name in NAME.findall(text):
                if name not in declared:
                    problems.append(f"{rel}:{line}: {name} is not a declared setting")
        if rel in SETTINGS_MODULES:
            continue
        for line, name in sorted(_environment_reads(tree, constants)):
            if declared.get(name) in ("setting", "operator setting", "agent setting"):
                problems.append(f"{rel}:{line}: {name} read from the environment: read it from the settings")
    from cli.main import build_parser

    subcommands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    commands = set(subcommands.choices)
    chart = root / CHART.relative_to(ROOT)
    docs = [root / p.relative_to(ROOT) for p in (README, OPERATOR_README, CHART_README)]
    docs += [*sorted((chart / "templates").glob("*")), *sorted((root / "deploy" / "operator").glob("*.yaml"))]
    for path in (d for d in docs if d.is_file()):
        pending = PENDING_TEMPLATES.get(path.name)
        if pending is not None and path.parent.name == "templates":
            if pending in commands:
                problems.append(f"{path.name}: `gshare {pending}` exists now: check its template (PENDING_TEMPLATES)")
            continue
        for number, text in enumerate(path.read_text().splitlines(), 1):
            for name in NAME.findall(text):
                if name not in declared:
                    problems.append(f"{path.relative_to(root)}:{number}: {name} is not a declared setting")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--check" in args:
        stale = stale_docs()
        problems = source_problems()
        for path in stale:
            print(f"{path.relative_to(ROOT)} differs from the settings: run python -m cli.settings_docs")
        for p in problems:
            print(p)
        return 1 if stale or problems else 0
    for path, text in generated().items():
        if path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
