"""One settings surface (issue 21, Must show 1): the README's table, the operator's and the
chart's settings documentation are the generated ones, and no code reads a `GSHARE_*` variable
the settings do not declare (nor a declared one around the settings)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli import settings_docs
from infra.settings import TEST_HOOKS, Settings
from workers.jobs import idle_settings
from workers.registry import configured_jobs


def test_the_docs_are_the_generated_ones() -> None:
    stale = [str(p.relative_to(settings_docs.ROOT)) for p in settings_docs.stale_docs()]
    assert stale == [], "run `python -m cli.settings_docs` and commit the result"


def test_the_code_reads_only_declared_settings() -> None:
    assert settings_docs.source_problems() == []


def test_every_setting_has_a_description() -> None:
    missing = [r.env for r in settings_docs.settings_rows() + settings_docs.operator_rows() if not r.description]
    assert missing == []


def test_the_check_catches_a_stray_read_and_an_undeclared_name(tmp_path: Path) -> None:
    (tmp_path / "workers").mkdir()
    (tmp_path / "workers" / "stray.py").write_text(
        "import os\n"
        'TICK = "GSHARE_WORKER_TICK_SECONDS"\n'
        'a = os.environ.get("GSHARE_BRAND_NEW_KNOB", "1")\n'
        "b = float(os.environ.get(TICK, '1'))\n"
        'c = os.environ["GSHARE_REDIS_URL"]\n'
        'd = os.environ.get("GSHARE_TEST_KILL_POINT")\n'
    )
    (tmp_path / "README.md").write_text("Set `GSHARE_NO_SUCH_SETTING` to win.\n")
    problems = settings_docs.source_problems(tmp_path)
    assert problems == [
        "workers/stray.py:3: GSHARE_BRAND_NEW_KNOB is not a declared setting",
        "workers/stray.py:4: GSHARE_WORKER_TICK_SECONDS read from the environment: read it from the settings",
        "workers/stray.py:5: GSHARE_REDIS_URL read from the environment: read it from the settings",
        "README.md:1: GSHARE_NO_SUCH_SETTING is not a declared setting",
    ]


def test_the_check_says_stale_when_the_table_differs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = tmp_path / "README.md"
    text = settings_docs.README.read_text()
    readme.write_text(text.replace("| `GSHARE_PORT` | 8000 |", "| `GSHARE_PORT` | 8080 |"))
    monkeypatch.setattr(settings_docs, "README", readme)
    assert settings_docs.stale_docs() == [readme]


def test_listen_addresses_default_to_loopback() -> None:
    s = Settings()
    assert s.host == "127.0.0.1"
    assert s.worker_metrics_addr == "127.0.0.1"


def test_test_hooks_stay_out_of_the_product_table() -> None:
    table = settings_docs.readme_table()
    assert not [name for name in TEST_HOOKS if name in table]
    assert not [name for name in TEST_HOOKS if name.removeprefix("GSHARE_").lower() in Settings.model_fields]


def test_worker_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GSHARE_WORKER_JOB_PERIODS", "credits.refills=30")
    monkeypatch.setenv("GSHARE_IDLE_WINDOW_SECONDS", "90")
    monkeypatch.setenv("GSHARE_WORKER_METRICS_ADDR", "0.0.0.0")
    s = Settings()
    assert s.worker_metrics_addr == "0.0.0.0"
    assert idle_settings(s).window_seconds == 90
    refills = next(j for j in configured_jobs(s.worker_job_periods) if j.name == "credits.refills")
    assert refills.definition.cadence.seconds == 30


def test_gshare_config_masks_secrets_and_names_each_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from cli.main import main

    config = tmp_path / "gshare.toml"
    config.write_text('port = 9000\nlog_level = "debug"\noidc_client_secret = "file-secret-value"\n')
    for name in list(os.environ):
        if name.startswith("GSHARE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("GSHARE_CONFIG_FILE", str(config))
    monkeypatch.setenv("GSHARE_PORT", "9100")  # the environment wins over the file
    monkeypatch.setenv("GSHARE_SECRET_KEY", "env-secret-value")
    monkeypatch.setenv("GSHARE_REDIS_URL", "redis://:redis-password@cache:6379/2")

    assert main(["--data-dir", str(tmp_path / "data"), "config", "--json"]) == 0
    out = capsys.readouterr().out
    assert "secret-value" not in out and "redis-password" not in out
    rows = {r["setting"]: (r["value"], r["source"]) for r in json.loads(out)}
    assert set(rows) == {f"GSHARE_{name.upper()}" for name in Settings.model_fields}
    assert rows["GSHARE_PORT"] == ("9100", "environment")
    assert rows["GSHARE_LOG_LEVEL"] == ("debug", f"file {config}")
    assert rows["GSHARE_OIDC_CLIENT_SECRET"] == ("********", f"file {config}")
    assert rows["GSHARE_SECRET_KEY"] == ("********", "environment")
    assert rows["GSHARE_REDIS_URL"] == ("redis://:********@cache:6379/2", "environment")
    assert rows["GSHARE_DATA_DIR"] == (str(tmp_path / "data"), "command line")
    assert rows["GSHARE_HOST"] == ("127.0.0.1", "default")
    assert rows["GSHARE_WORKER_METRICS_ADDR"] == ("127.0.0.1", "default")
    assert rows["GSHARE_CONFIG_FILE"] == (str(config), "environment")

    assert main(["config"]) == 0
    text = capsys.readouterr().out
    port_line = next(line for line in text.splitlines() if line.startswith("GSHARE_PORT "))
    assert port_line.split() == ["GSHARE_PORT", "9100", "environment"]


def test_gshare_config_refuses_an_invalid_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli.main import main

    monkeypatch.setenv("GSHARE_PORT", "eighty")
    assert main(["config"]) == 2
    assert capsys.readouterr().err.startswith("gshare: GSHARE_PORT: Input should be a valid integer")
