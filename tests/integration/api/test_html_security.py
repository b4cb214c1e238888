"""Issue 13, finding 3: nothing the API origin renders runs a stranger's script.

The simulated cluster's endpoint page escapes what it echoes and exists only when a simulated
cluster is configured; every HTML page (the console's index and its deep links, the landing
page, GraphiQL, the endpoint page) carries a Content-Security-Policy whose script-src allows
no inline script but the page's own (by hash), frames nothing in, and sends nosniff and a
Referrer-Policy; every other response is nosniff and unframeable too."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from api.app import create_app

PAYLOAD = "<svg onload=fetch(atob('L2dyYXBocWw'))>"  # no '/': a path segment
SESSION_PAYLOAD = '"><img src=x onerror=alert(1)>'


def client_of(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000")


@pytest.fixture
async def simulated(database_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    from infra.bootstrap import build_container
    from infra.settings import Settings

    settings = Settings(database_url=database_url, demo=False, simulated_cluster=True, data_dir=tmp_path)
    container = build_container(settings, database_url)
    async with client_of(create_app(container, web_dist=tmp_path / "no-console")) as client:
        yield client
    await container.aclose()


@pytest.fixture
async def console(container: Any, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    (tmp_path / "index.html").write_text(
        '<!doctype html><title>gshare</title><div id=root></div><script type=module src="/assets/i.js"></script>'
    )
    (tmp_path / "graphiql.html").write_text(
        "<!doctype html><title>gshare GraphiQL</title><div id=graphiql></div>"
        '<script type=module crossorigin src="/assets/g.js"></script><link rel=stylesheet href="/assets/g.css">'
    )
    async with client_of(create_app(container, web_dist=tmp_path)) as client:
        yield client


def policy(response: httpx.Response) -> dict[str, list[str]]:
    header = response.headers.get("content-security-policy")
    assert header, f"{response.request.url}: no Content-Security-Policy"
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0].lower()] = words[1:]
    return directives


def inline_scripts(html: str) -> list[str]:
    return [
        body
        for attrs, body in re.findall(r"<script\b([^>]*)>(.*?)</script>", html, flags=re.S | re.I)
        if "src=" not in attrs.lower()
    ]


def assert_safe_html_page(response: httpx.Response) -> None:
    assert response.headers["content-type"].startswith("text/html"), response.request.url
    csp = policy(response)
    scripts = csp.get("script-src", csp.get("default-src"))
    assert scripts is not None, csp
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, csp
    assert not any(s in ("*", "http:", "https:", "data:") for s in scripts), csp
    assert csp.get("object-src") == ["'none'"], csp
    assert csp.get("base-uri") in (["'none'"], ["'self'"]), csp
    assert csp.get("frame-ancestors") == ["'none'"], csp
    for body in inline_scripts(response.text):  # the page's own inline script is allowed by its hash
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in scripts, (response.request.url, body[:80])
    assert_not_sniffed_or_framed(response)


def assert_not_sniffed_or_framed(response: httpx.Response) -> None:
    assert response.headers.get("x-content-type-options") == "nosniff", response.request.url
    assert response.headers.get("x-frame-options") == "DENY", response.request.url
    assert response.headers.get("referrer-policy") in ("no-referrer", "same-origin", "strict-origin-when-cross-origin")


async def test_the_endpoint_page_escapes_what_it_echoes(simulated: httpx.AsyncClient) -> None:
    path = f"/s/{quote(SESSION_PAYLOAD, safe='')}/{quote(PAYLOAD, safe='')}/"
    page = await simulated.get(path)
    assert page.status_code == 200
    assert "<svg" not in page.text and "<img" not in page.text, page.text
    assert "&lt;svg onload=fetch(atob(&#x27;L2dyYXBocWw&#x27;))&gt;" in page.text, page.text
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in page.text, page.text
    assert_safe_html_page(page)


@pytest.fixture
async def no_simulated(database_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """An app whose settings say no simulated cluster. Not the session's shared `app`: the
    sessions tests' runtime turns the shared container's simulated cluster on, and an app built
    after that (the order is random) rightly serves /s/."""
    from infra.bootstrap import build_container
    from infra.settings import Settings

    settings = Settings(database_url=database_url, demo=False, simulated_cluster=False, data_dir=tmp_path)
    container = build_container(settings, database_url)
    async with client_of(create_app(container, web_dist=tmp_path / "no-console")) as client:
        yield client
    await container.aclose()


async def test_the_endpoint_page_is_served_only_with_a_simulated_cluster(no_simulated: httpx.AsyncClient) -> None:
    answer = await no_simulated.get("/s/4f1b8a52-0000-4000-8000-000000000000/jupyter/")
    assert answer.status_code == 404
    assert "simulated" not in answer.text


async def test_every_html_page_carries_the_security_headers(
    console: httpx.AsyncClient, simulated: httpx.AsyncClient
) -> None:
    pages = [
        await console.get("/"),
        await console.get("/sessions/abc"),  # a deep link: index.html
        await simulated.get("/"),  # no console built: the landing page
        await simulated.get("/graphql", headers={"accept": "text/html"}),  # GraphiQL
        await simulated.get("/s/4f1b8a52-0000-4000-8000-000000000000/jupyter/"),
    ]
    for page in pages:
        assert page.status_code == 200, page.request.url
        assert_safe_html_page(page)
    graphiql = pages[3]
    assert "make web" in graphiql.text, "no console built: GraphiQL's page says how to build it"
    built = await console.get("/graphql", headers={"accept": "text/html"})
    assert built.status_code == 200 and "/assets/g.js" in built.text
    assert_safe_html_page(built)


async def test_graphiql_loads_nothing_from_another_origin(console: httpx.AsyncClient) -> None:
    """Issue 18: GraphiQL is served from the console's own build, so it works air-gapped; its
    page's policy allows scripts and styles from this origin only."""
    page = await console.get("/graphql", headers={"accept": "text/html"})
    assert "https://" not in page.text and "http://" not in page.text
    csp = policy(page)
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'", "'unsafe-inline'"]
    assert csp["connect-src"] == ["'self'"]


async def test_every_other_answer_is_not_sniffed_or_framed(console: httpx.AsyncClient) -> None:
    answers = [
        await console.post("/graphql", json={"query": "{ me { id } }"}),
        await console.get("/healthz"),
        await console.get("/assets/missing.js"),
        await console.post("/graphql", content=b"{", headers={"content-type": "application/json"}),
    ]
    for answer in answers:
        assert_not_sniffed_or_framed(answer)
        assert policy(answer).get("frame-ancestors") == ["'none'"]
