"""The CI guards themselves: the import boundary and the schema drift check catch breaches."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _boundaries():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("check_boundaries", ROOT / ".ci" / "check_boundaries.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_domain_imports_no_outer_layer_or_io_library() -> None:
    assert _boundaries().breaches(ROOT) == []


@pytest.mark.parametrize(
    "line",
    [
        "import sqlalchemy",
        "from sqlalchemy.orm import Session",
        "from infra.db import base",
        "import redis.asyncio",
        "from api.schema import schema",
        "__import__('strawberry')",
    ],
)
def test_importing_an_outer_layer_from_domain_is_a_breach(tmp_path: Path, line: str) -> None:
    (tmp_path / "domain" / "credits").mkdir(parents=True)
    (tmp_path / "domain" / "credits" / "leak.py").write_text(f"{line}\n")
    problems = _boundaries().breaches(tmp_path)
    assert len(problems) == 1 and "leak.py:1" in problems[0]


def test_checked_in_schema_matches_the_code() -> None:
    from api import export_schema

    assert export_schema.main(["--check"]) == 0


def test_a_resolver_change_without_regenerating_the_schema_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api import export_schema

    stale = tmp_path / "schema.graphql"
    stale.write_text(export_schema.render().replace("search: String = null", "search: String = null, limit: Int"))
    monkeypatch.setattr(export_schema, "SCHEMA_FILE", stale)
    assert export_schema.main(["--check"]) == 1


@pytest.mark.parametrize(
    ("folder", "line"),
    [
        ("infra", "from api.app import create_app"),
        ("infra", "import workers.runtime"),
        ("infra", "from gshare_operator.settings import OperatorSettings"),
        ("infra", "from cli.main import build_parser"),
        ("infra", "importlib.import_module('workers.main')"),
        ("api", "from workers.registry import configured_jobs"),
        ("api", "from gshare_operator import signing"),
    ],
)
def test_an_adapter_or_the_api_importing_a_driver_is_a_breach(tmp_path: Path, folder: str, line: str) -> None:
    """Only the command line (cli/) composes the drivers: infra/ imports none of them, api/
    none of the others, so neither can import the command line's imports back."""
    (tmp_path / folder / "x").mkdir(parents=True)
    (tmp_path / folder / "x" / "leak.py").write_text(f"import importlib\n{line}\n")
    problems = _boundaries().breaches(tmp_path)
    assert len(problems) == 1 and "leak.py:2" in problems[0] and f"{folder}/ must not import" in problems[0]


def test_the_command_line_and_the_workers_may_import_what_they_drive(tmp_path: Path) -> None:
    (tmp_path / "cli").mkdir()
    (tmp_path / "cli" / "main.py").write_text("from api.app import create_app\nfrom workers.main import run_worker\n")
    (tmp_path / "workers").mkdir()
    (tmp_path / "workers" / "jobs.py").write_text("from infra.bootstrap import Container\n")
    assert _boundaries().breaches(tmp_path) == []
