"""`gshare operator` hands everything after the command to `gshare_operator.main`."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from cli import main as cli

GSHARE = Path(sys.executable).with_name("gshare")


def test_gshare_operator_help_is_the_operators(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["operator", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: gshare operator") and "--cluster-id" in out and "--no-leader-election" in out


def test_operator_options_reach_the_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    operator_main = importlib.import_module("gshare_operator.main")
    monkeypatch.setattr(operator_main, "main", lambda argv: seen.append(list(argv)) or 0)
    assert cli.main(["--data-dir", "/tmp/x", "operator", "--cluster-id", "c1", "--no-leader-election"]) == 0
    assert cli.main(["operator", "--", "--cluster-id", "c2"]) == 0
    assert seen == [["--cluster-id", "c1", "--no-leader-election"], ["--cluster-id", "c2"]]


@pytest.mark.skipif(not GSHARE.exists(), reason="the gshare script is not installed")
def test_the_installed_command() -> None:
    result = subprocess.run([str(GSHARE), "operator", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "--callback-url" in result.stdout
