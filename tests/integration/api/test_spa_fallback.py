"""`gshare serve` serves the console at /: deep links get index.html, while the API, the
metrics, the exports, the health probes and static assets keep their own answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app

INDEX = "<!doctype html><title>gshare console</title><div id=root></div>"


@pytest.fixture
async def client(container: Any, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text(INDEX)
    (tmp_path / "assets" / "app-1234.js").write_text("console.log('gshare')")
    app = create_app(container, web_dist=tmp_path)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/sessions/abc", "/admin/usage", "/admin/users/VXNlcjox?tab=groups", "/wallet/"])
async def test_console_routes_get_the_index(client: httpx.AsyncClient, path: str) -> None:
    r = await client.get(path)
    assert r.status_code == 200, path
    assert r.headers["content-type"].startswith("text/html") and r.text == INDEX


async def test_server_routes_and_assets_keep_their_answers(client: httpx.AsyncClient) -> None:
    asset = await client.get("/assets/app-1234.js")
    assert asset.status_code == 200 and "gshare" in asset.text
    assert "javascript" in asset.headers["content-type"]
    for missing in ("/assets/app-9999.js", "/favicon.ico", "/api/v1/anything", "/graphql/extra", "/exports/nope.csv"):
        assert (await client.get(missing)).status_code == 404, missing
    graphql = await client.post("/graphql", json={"query": "{ me { id } }"})
    assert graphql.status_code == 200 and graphql.json() == {"data": {"me": None}}
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    metrics = await client.get("/metrics")  # no GSHARE_METRICS_TOKEN: not served, and not the console
    assert metrics.status_code == 404 and metrics.text != INDEX
    assert (await client.get("/auth/config")).status_code == 200
    assert (await client.get("/exports/ledger.csv")).status_code == 401  # a route, not the console
    # a non-GET to a console path is not a page
    assert (await client.post("/sessions/abc")).status_code in (404, 405)
