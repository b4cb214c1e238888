"""OIDC sign-in through Authlib against a real (test) provider: code + PKCE S256, first sign-in
provisions the user into the organisation's Default group, a second one finds the same user."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from api.app import create_app
from tests.support.oidc_idp import FakeIdP


@pytest.fixture(scope="module")
def idp() -> Iterator[FakeIdP]:
    provider = FakeIdP()
    provider.start()
    yield provider
    provider.stop()


async def sign_in(app: Any, idp: FakeIdP) -> httpx.Cookies:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000") as gshare:
        start = await gshare.get("/auth/oidc/login")
        assert start.status_code == 302
        location = start.headers["location"]
        assert location.startswith(idp.issuer + "/authorize") and "code_challenge=" in location
        async with httpx.AsyncClient() as browser:
            consent = await browser.get(location)
        assert consent.status_code == 302
        callback = consent.headers["location"]
        assert callback.startswith("http://127.0.0.1:8000/auth/oidc/callback")
        done = await gshare.get(callback.removeprefix("http://127.0.0.1:8000"))
        assert done.status_code == 303, done.text
        assert done.headers["location"] == "/"
        assert "gshare_session" in gshare.cookies
        return gshare.cookies


async def me(app: Any, cookies: httpx.Cookies) -> dict[str, Any]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000", cookies=cookies
    ) as c:
        r = await c.post(
            "/graphql",
            json={
                "query": "{ me { username email displayName memberships { role group { name isDefault organization { slug } } } } }"
            },
        )
    return r.json()["data"]["me"]  # type: ignore[no-any-return]


async def test_oidc_sign_in_provisions_into_the_default_group(container: Any, idp: FakeIdP) -> None:
    settings = container.settings.model_copy(
        update={
            "oidc_issuer": idp.issuer,
            "oidc_client_id": idp.client_id,
            "oidc_client_secret": SecretStr(idp.client_secret),
            "oidc_organization": "oidc-test-org",
        }
    )
    app = create_app(dataclasses.replace(container, settings=settings))
    first = await me(app, await sign_in(app, idp))
    assert idp.seen_challenge_methods[-1] == "S256"
    assert first["username"] == "ada" and first["email"] == "ada@uni.example" and first["displayName"] == "Ada L."
    assert first["memberships"] == [
        {"role": "MEMBER", "group": {"name": "Default", "isDefault": True, "organization": {"slug": "oidc-test-org"}}}
    ]
    again = await me(app, await sign_in(app, idp))
    assert again["username"] == "ada"  # the same account, not ada-2


async def test_oidc_routes_absent_when_not_configured(http: Any) -> None:
    assert (await http.get("/auth/oidc/login")).status_code == 404
    assert (await http.get("/auth/config")).json() == {"oidc": False, "oidcLoginUrl": None}
