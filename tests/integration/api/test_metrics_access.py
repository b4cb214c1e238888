"""Issue 13, finding 9: `/metrics` answers only a scraper holding the metrics token.

With `GSHARE_METRICS_TOKEN` set, the API's `/metrics` wants `Authorization: Bearer <token>`
(401 otherwise, compared in constant time); without it, the API serves no metrics at all
(404, like a missing route): what the process measures (actor names, queue depths, request
counts) is nobody's business but the operator's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app

TOKEN = "metrics-4f1b8a52-scrape-only"


@pytest.fixture
async def guarded(database_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    from infra.bootstrap import build_container
    from infra.settings import Settings

    container = build_container(
        Settings(database_url=database_url, demo=False, data_dir=tmp_path, metrics_token=TOKEN), database_url
    )
    transport = httpx.ASGITransport(app=create_app(container, web_dist=tmp_path))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
        yield client
    await container.aclose()


async def test_metrics_want_the_token(guarded: httpx.AsyncClient) -> None:
    for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": f"Basic {TOKEN}"}, {"authorization": ""}):
        refused = await guarded.get("/metrics", headers=headers)
        assert refused.status_code == 401, headers
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert refused.json()["code"] == "UNAUTHENTICATED"
        assert "python_info" not in refused.text and "gshare_" not in refused.text
    for scheme in ("Bearer", "bearer"):
        scraped = await guarded.get("/metrics", headers={"authorization": f"{scheme} {TOKEN}"})
        assert scraped.status_code == 200 and scraped.headers["content-type"].startswith("text/plain")
        assert "python_info" in scraped.text


async def test_without_a_token_the_api_serves_no_metrics(http: Any) -> None:
    answer = await http.get("/metrics")
    assert answer.status_code == 404
    assert "python_info" not in answer.text


def test_the_token_is_a_declared_secret_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import SecretStr

    from infra.settings import Settings

    field = Settings.model_fields["metrics_token"]
    assert field.description and "/metrics" in field.description
    monkeypatch.setenv("GSHARE_METRICS_TOKEN", TOKEN)
    token = Settings().metrics_token
    assert isinstance(token, SecretStr) and token.get_secret_value() == TOKEN
    assert TOKEN not in repr(Settings())
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    assert "GSHARE_METRICS_TOKEN" in readme
