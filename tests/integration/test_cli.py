"""The `gshare` command against a production-style database: refusal when behind, migrations,
and the day-one admin commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.database import create_test_database

ROOT = Path(__file__).resolve().parents[2]


def gshare(*args: str, db: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "--database-url", db, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.fixture
def empty_db() -> str:
    db = create_test_database(prefix="gshare_cli", migrate=False)
    yield db.url  # type: ignore[misc]
    db.drop()


def test_serve_refuses_a_database_behind_the_code(empty_db: str) -> None:
    out = gshare("serve", "--port", "0", db=empty_db)
    assert out.returncode == 2
    assert "run `gshare db upgrade`" in out.stderr and "(empty)" in out.stderr


def test_db_commands_and_admin_commands(empty_db: str) -> None:
    assert gshare("db", "check", db=empty_db).returncode == 1
    assert gshare("db", "upgrade", db=empty_db).returncode == 0
    check = gshare("db", "check", db=empty_db)
    from infra.db import migrate

    assert check.returncode == 0 and f"current: {migrate.head_revision()}" in check.stdout

    assert gshare("org", "create", "Physics Department", "--slug", "physics", db=empty_db).returncode == 0
    dup = gshare("org", "create", "Physics Department", db=empty_db)
    assert dup.returncode == 1 and "DUPLICATE" in dup.stderr and "field name" in dup.stderr

    made = gshare(
        "user",
        "create",
        "alice",
        "--email",
        "alice@example.org",
        "--org",
        "physics",
        "--org-admin",
        db=empty_db,
        stdin="a-long-password\n",
    )
    assert made.returncode == 0, made.stderr
    weak = gshare(
        "user", "create", "bob", "--email", "bob@example.org", "--org", "physics", db=empty_db, stdin="short\n"
    )
    assert weak.returncode == 1 and "WEAK_PASSWORD" in weak.stderr
    assert gshare("user", "set-password", "alice", db=empty_db, stdin="another-long-password\n").returncode == 0
    listed = gshare("user", "list", db=empty_db)
    assert "alice" in listed.stdout and "bob" not in listed.stdout
