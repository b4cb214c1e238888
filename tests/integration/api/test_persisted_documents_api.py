"""Persisted documents (issue 18, first run): the console sends each query as the sha256 of a
document codegen persisted, not its ~3 KB text in the URL; the server runs the document it
holds under the hash, refuses an unknown hash with a typed code, and with
`persisted_documents_only` refuses a document's text."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app

ROOT = Path(__file__).resolve().parents[3]
PROBE = "query Probe { __typename }"
PROBE_HASH = hashlib.sha256(PROBE.encode()).hexdigest()


def client_for(container: Any, tmp_path: Path) -> httpx.AsyncClient:
    (tmp_path / "persisted-documents.json").write_text(json.dumps({PROBE_HASH: PROBE}))
    app = create_app(container, web_dist=tmp_path)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000")


def by_hash(digest: str) -> dict[str, str]:
    return {"extensions": json.dumps({"persistedQuery": {"version": 1, "sha256Hash": digest}})}


async def test_a_query_sent_as_its_hash_runs_the_persisted_document(container: Any, tmp_path: Path) -> None:
    async with client_for(container, tmp_path) as c:
        # (as urql's fetch asks: a GET asking for HTML would be GraphiQL's page)
        accept = {"accept": "application/graphql-response+json, application/json"}
        r = await c.get("/graphql", params=by_hash(PROBE_HASH), headers=accept)
        assert r.status_code == 200 and r.json()["data"] == {"__typename": "Query"}, r.text
        assert len(str(r.request.url)) < 200  # the hash, not the document, in the URL
        missing = await c.get("/graphql", params=by_hash("0" * 64), headers=accept)
        assert missing.status_code == 400
        assert missing.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND"
        # a document's text is still answered by default (GraphiQL, scripts)
        text = await c.post("/graphql", json={"query": PROBE})
        assert text.json()["data"] == {"__typename": "Query"}


async def test_persisted_documents_only_refuses_a_document_text(
    container: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(container, "settings", container.settings.model_copy(update={"persisted_documents_only": True}))
    async with client_for(container, tmp_path) as c:
        refused = await c.post("/graphql", json={"query": PROBE})
        assert refused.status_code == 400
        assert refused.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_REQUIRED"
        ok = await c.post("/graphql", json={"extensions": {"persistedQuery": {"version": 1, "sha256Hash": PROBE_HASH}}})
        assert ok.json()["data"] == {"__typename": "Query"}, ok.text


def test_the_consoles_manifest_holds_each_document_under_its_own_sha256() -> None:
    manifest = json.loads((ROOT / "web" / "src" / "gql" / "persisted-documents.json").read_text())
    assert len(manifest) > 50
    assert all(hashlib.sha256(text.encode()).hexdigest() == digest for digest, text in manifest.items())
