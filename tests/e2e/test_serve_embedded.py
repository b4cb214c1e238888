"""README command 1, for real: `gshare serve` on its embedded defaults, over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.support.serve import Served, gshare_serve

pytestmark = pytest.mark.e2e
DEMO_PASSWORD = "demo-member-password-from-its-setting"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    # the demo member's password from its setting (unset, one is generated and printed)
    with gshare_serve(tmp_path_factory.mktemp("serve"), env={"GSHARE_DEMO_MEMBER_PASSWORD": DEMO_PASSWORD}) as s:
        yield s


def gql(client: httpx.Client, query: str, **variables: object) -> dict:  # type: ignore[type-arg]
    r = client.post("/graphql", json={"query": query, "variables": variables})
    r.raise_for_status()
    body = r.json()
    assert not body.get("errors"), body
    return body["data"]  # type: ignore[no-any-return]


def test_graphiql_is_served(served: Served) -> None:
    r = httpx.get(served.url + "/graphql", headers={"accept": "text/html"})
    assert r.status_code == 200 and "graphiql" in r.text.lower()


def test_login_me_token_and_websocket(served: Served) -> None:
    with httpx.Client(base_url=served.url) as browser:
        data = gql(
            browser,
            "mutation($u: String!, $p: String!) { login(input: {username: $u, password: $p}) "
            "{ user { username isSuperAdmin } errors { code } } }",
            u="admin",
            p=served.admin_password,
        )
        assert data["login"] == {"user": {"username": "admin", "isSuperAdmin": True}, "errors": []}
        cookie = browser.cookies.get("gshare_session")
        assert cookie
        me = gql(browser, "{ me { username memberships { group { name } } } }")["me"]
        assert me["username"] == "admin"
        assert me["memberships"][0]["group"]["name"] == "Default"
        # the demo catalog is seeded in embedded mode
        assert gql(browser, "{ offerings { totalCount } }")["offerings"]["totalCount"] >= 3
        token = gql(
            browser,
            'mutation { personalAccessTokenCreate(input: {name: "e2e", scope: READ_WRITE}) { secret errors { code } } }',
        )["personalAccessTokenCreate"]["secret"]
        assert token.startswith("gsp_")
        out = gql(browser, "mutation { logout { ok } }")
        assert out["logout"]["ok"] is True
        assert gql(browser, "{ me { username } }")["me"] is None

    with httpx.Client(base_url=served.url, headers={"authorization": f"Bearer {token}"}) as third_party:
        assert gql(third_party, "{ me { username } }")["me"]["username"] == "admin"
    with httpx.Client(base_url=served.url, headers={"authorization": "Bearer gsp_wrong"}) as forger:
        assert gql(forger, "{ me { username } }")["me"] is None

    ws_url = served.url.replace("http", "ws") + "/graphql"
    assert asyncio.run(_subscribe_viewer(ws_url, {"authorization": f"Bearer {token}"})) == "admin"
    with pytest.raises(websockets.exceptions.ConnectionClosed) as refused:
        asyncio.run(_subscribe_viewer(ws_url, {}))
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 4403
    with pytest.raises(websockets.exceptions.ConnectionClosed):
        asyncio.run(_subscribe_viewer(ws_url, {"authorization": "Bearer gsp_forged"}))


async def _subscribe_viewer(url: str, params: dict[str, str]) -> str:
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": params}))
        ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        await ws.send(
            json.dumps({"id": "1", "type": "subscribe", "payload": {"query": "subscription { viewer { username } }"}})
        )
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert msg["type"] == "next", msg
        return str(msg["payload"]["data"]["viewer"]["username"])


def test_second_start_keeps_data_and_prints_no_new_password(tmp_path: Path) -> None:
    with gshare_serve(tmp_path) as first:
        pass
    first_log = first.log.read_text()
    with gshare_serve(tmp_path, env={"GSHARE_BOOTSTRAP_ADMIN_PASSWORD": "another-password-x"}) as again:
        with httpx.Client(base_url=again.url) as c:
            data = gql(
                c,
                'mutation($p: String!) { login(input: {username: "admin", password: $p}) { errors { code } } }',
                p=first.admin_password,
            )
            assert data["login"]["errors"] == []
    assert "super_admin account:" in first_log and "username: admin" in first_log
    second_log = again.log.read_text()
    assert "gshare is ready:" in second_log and "password:" not in second_log


_ACCESS_LINE = re.compile(r" (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /\S* (\d{3}|-) [\d.]+ms$")


def test_first_start_seeds_a_living_demo_and_prints_the_accounts_last(served: Served) -> None:
    """Issue 18: a fresh `gshare serve` is usable as shipped. Its last lines name the URL and the
    accounts; the demo member signs in with the printed password and finds credits (system →
    organisation → group → wallet), the group's policy and budget, and sessions that ran, run
    and wait; nothing else is printed after the banner."""
    accounts = served.printed_accounts()
    assert set(accounts) == {"admin", "demo"}
    assert accounts["demo"] == DEMO_PASSWORD  # GSHARE_DEMO_MEMBER_PASSWORD
    log = served.log.read_text()
    tail = log[log.rindex("gshare is ready:") :]
    assert "username: demo" in tail and "username: admin" in tail
    # The banner comes last of what start-up prints. The module's other tests share this server,
    # so the access lines of their requests (api.http: "METHOD /path STATUS 1.2ms") may follow it.
    startup = [line for line in tail.splitlines() if " INFO " in line and not _ACCESS_LINE.search(line)]
    assert not startup, tail
    with httpx.Client(base_url=served.url) as member:
        data = gql(
            member,
            "mutation($u: String!, $p: String!) { login(input: {username: $u, password: $p}) { errors { code } } }",
            u="demo",
            p=accounts["demo"],
        )
        assert data["login"]["errors"] == []
        me = gql(member, "{ me { username activeGroup { name } } }")["me"]
        assert me == {"username": "demo", "activeGroup": {"name": "ML-Lab"}}
        sessions = gql(member, "{ mySessions { nodes { name state } } }")["mySessions"]["nodes"]
        assert {s["name"]: s["state"] for s in sessions} == {
            "first-notebook": "STOPPED",
            "pytorch-lab": "RUNNING",
            "a30-pair": "QUEUED",
        }
        policy = gql(member, "{ effectivePolicy { maxSessionSeconds { value } } }")["effectivePolicy"]
        assert policy["maxSessionSeconds"]["value"] == 7 * 24 * 3600
        gate = gql(member, "{ budgetGate { allowed statuses { scopeName } } }")["budgetGate"]
        assert gate["allowed"] and [s["scopeName"] for s in gate["statuses"]] == ["ML-Lab"]
    with httpx.Client(base_url=served.url) as admin:
        gql(
            admin,
            'mutation($p: String!) { login(input: {username: "admin", password: $p}) { errors { code } } }',
            p=served.admin_password,
        )
        ledger = gql(admin, "{ ledgerHistory(kind: ALLOCATION, first: 10) { nodes { amount { micro } } } }")
        allocations = [n["amount"]["micro"] for n in ledger["ledgerHistory"]["nodes"]]
        assert sorted(int(a) for a in allocations) == [100_000_000, 400_000_000, 1_000_000_000]
