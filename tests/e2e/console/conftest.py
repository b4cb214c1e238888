"""Browser tests of the console: Playwright driving Debian's chromium (no downloaded browsers)
against a real `gshare serve` on its embedded defaults, serving the built `web/dist`.

Skipped, with the reason, only when chromium (or the playwright package) is missing and
`CI` is not `true`; in CI a missing browser fails the run."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.serve import Served, gshare_serve

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "web"
SCREENSHOTS = ROOT / "tests" / "e2e" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("GSHARE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the console's browser tests must run)")
    pytest.skip(reason)


def ensure_console_built() -> None:
    """`make test` builds web/dist first; a bare `pytest` builds it here when it is missing."""
    if (WEB / "dist" / "index.html").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        _missing("web/dist is not built and npm is not installed")
    subprocess.run(["make", "web"], cwd=ROOT, check=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        _missing("chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Served]:
    ensure_console_built()
    with gshare_serve(tmp_path_factory.mktemp("console"), premade_postgres=True) as s:
        yield s


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
