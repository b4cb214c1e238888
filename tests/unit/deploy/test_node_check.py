"""The first-run check of Node.js and npm (web/check_node.py, run by `make serve` before npm) and
the promise it guards: every package in the console's lockfile accepts the oldest Node.js that
web/package.json's "engines" names, so `npm ci` there prints no EBADENGINE warning."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[3]


def _check_node() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_node", ROOT / "web" / "check_node.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _check_node()


def test_ranges_as_npm_reads_them() -> None:
    assert check.satisfies((20, 19, 0), "^20.19.0 || ^22.13.0 || >=24")
    assert not check.satisfies((20, 18, 3), "^20.19.0 || ^22.13.0 || >=24")
    assert not check.satisfies((21, 7, 0), "^20.19.0 || ^22.13.0 || >=24")
    assert not check.satisfies((22, 12, 0), "^20.19.0 || ^22.13.0 || >=24")
    assert check.satisfies((24, 1, 0), "^20.19.0 || ^22.13.0 || >=24")
    assert check.satisfies((20, 20, 2), "18 || 20 || >=22")
    assert not check.satisfies((19, 0, 0), "18 || 20 || >=22")
    assert check.satisfies((20, 20, 2), ">=v12.22.7")
    assert not check.satisfies((20, 20, 2), ">=22.15.0")
    assert check.satisfies((20, 1, 0), ">=18 <21")


def test_missing_and_old_tools_are_named_with_what_is_needed() -> None:
    engines = {"node": "^20.19.0 || >=22.12.0", "npm": ">=9"}
    assert check.problems(engines, {"node": (20, 20, 2), "npm": (11, 19, 1)}) == []
    assert check.problems(engines, {"node": None, "npm": None}) == [
        "Node.js ^20.19.0 || >=22.12.0 is needed to build the web console, and `node` is not on PATH",
        "npm >=9 is needed to build the web console, and `npm` is not on PATH",
    ]
    assert check.problems(engines, {"node": (18, 19, 0), "npm": (11, 0, 0)}) == [
        "Node.js ^20.19.0 || >=22.12.0 is needed to build the web console; this machine has 18.19.0"
    ]


def test_every_locked_package_accepts_the_oldest_supported_node() -> None:
    engines = json.loads((ROOT / "web" / "package.json").read_text())["engines"]
    oldest = check.parse_version(engines["node"].split("||")[0].strip().lstrip("^>="))
    lock = json.loads((ROOT / "web" / "package-lock.json").read_text())
    refusing = {
        path: meta["engines"]["node"]
        for path, meta in lock["packages"].items()
        if path and isinstance(meta.get("engines"), dict) and "node" in meta["engines"]
        if not check.satisfies(oldest, meta["engines"]["node"])
    }
    assert refusing == {}, f"these packages refuse Node.js {oldest} (EBADENGINE): {refusing}"


def test_make_node_check_passes_on_this_machine() -> None:
    """The README names `make node-check`; the machines that build the console have Node.js."""
    import subprocess

    out = subprocess.run(["make", "--no-print-directory", "node-check"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_the_readmes_stand_alone() -> None:
    """A clone has no steering folder beside it: the READMEs link nothing outside the repository."""
    for readme in (ROOT / "README.md", ROOT / "web" / "README.md"):
        text = readme.read_text()
        assert "../shared" not in text and "DESIGN.md" not in text and "CONVENTIONS.md" not in text, readme
