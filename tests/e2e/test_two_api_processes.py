"""Two API processes on one PostgreSQL and one Redis: a change made through one reaches a
subscriber connected to the other (events fan out through Redis pub/sub), and a user
deactivated through one is refused by the other at once, not when its actor cache expires."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_sessions_e2e import gql, login, ok
from tests.support.database import TestDatabase, create_test_database
from tests.support.serve import gshare_serve
from tests.support.services import require_redis
from tests.support.ws import graphql_ws, subscribe

pytestmark = pytest.mark.e2e


@pytest.fixture
def production_db() -> Iterator[TestDatabase]:
    db = create_test_database(prefix="gshare_two")
    yield db
    db.drop()


def test_a_change_through_one_process_reaches_a_subscriber_on_the_other(
    production_db: TestDatabase, tmp_path: Path
) -> None:
    redis_url = require_redis()
    env = {
        "GSHARE_DATABASE_URL": production_db.url,
        "GSHARE_REDIS_URL": redis_url,
        "GSHARE_SIMULATED_CLUSTER": "false",
        "GSHARE_WORKER_METRICS_PORT": "0",
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        gshare_serve(tmp_path / "a", env=env) as a,
        gshare_serve(tmp_path / "b", env={**env, "GSHARE_SECRET_KEY": "x" * 40}) as b,
    ):
        admin = login(a.url, "admin", a.admin_password)
        org = ok(
            gql(
                admin,
                'mutation { organizationCreate(input: {name: "Physics"}) { organization { id } errors { code } } }',
            )["organizationCreate"]
        )["organization"]["id"]
        name = f"bo{uuid.uuid4().hex[:6]}"
        user = ok(
            gql(
                admin,
                "mutation($i: UserCreateInput!) { userCreate(input: $i) { user { id } errors { code } } }",
                i={
                    "organizationId": org,
                    "username": name,
                    "email": f"{name}@x.example",
                    "password": "a-long-password",
                },
            )["userCreate"]
        )["user"]["id"]
        member_on_b = login(b.url, name, "a-long-password")
        token = gql(
            member_on_b, 'mutation { personalAccessTokenCreate(input: {name: "ws", scope: READ_ONLY}) { secret } }'
        )["personalAccessTokenCreate"]["secret"]
        groups = gql(admin, "query($o: ID!) { groups(organizationId: $o) { nodes { id } } }", o=org)["groups"]["nodes"]
        default = groups[0]["id"]

        async def scenario() -> int:
            async with graphql_ws(b.url.replace("http", "ws") + "/graphql", {"authorization": f"Bearer {token}"}) as ws:
                wallet = await subscribe(ws, "w", "subscription { myWallet { balance { micro } } }")
                first = (await wallet.next())["myWallet"]["balance"]["micro"]
                assert first == 0
                hops = [
                    ({"kind": "SYSTEM"}, {"kind": "ORGANIZATION", "id": org}),
                    ({"kind": "ORGANIZATION", "id": org}, {"kind": "GROUP", "id": default}),
                    ({"kind": "GROUP", "id": default}, {"kind": "USER", "id": user}),
                ]
                async with httpx.AsyncClient(base_url=a.url, cookies=admin.cookies) as through_a:
                    for i, (src, dst) in enumerate(hops):
                        r = await through_a.post(
                            "/graphql",
                            json={
                                "query": "mutation($i: CreditsAllocateInput!) { creditsAllocate(input: $i) { errors { code } } }",
                                "variables": {
                                    "i": {
                                        "source": src,
                                        "destination": dst,
                                        "amountMicro": 7_000_000,
                                        "idempotencyKey": f"k{i}",
                                    }
                                },
                            },
                        )
                        assert r.json()["data"]["creditsAllocate"]["errors"] == []
                while True:
                    balance = (await wallet.next(within=10))["myWallet"]["balance"]["micro"]
                    if balance:
                        return int(balance)

        assert asyncio.run(scenario()) == 7_000_000

        # the token was resolved (and cached) on B; deactivating the user through A reaches B's
        # cache through Redis well before its 10 s expiry
        me = "query { me { username } }"
        headers = {"authorization": f"Bearer {token}"}
        assert httpx.post(b.url + "/graphql", json={"query": me}, headers=headers).json()["data"]["me"]
        ok(
            gql(
                admin,
                "mutation($i: UserUpdateInput!) { userUpdate(input: $i) { user { id } errors { code } } }",
                i={"id": user, "isActive": False},
            )["userUpdate"]
        )
        deadline = time.monotonic() + 3
        while True:
            body = httpx.post(b.url + "/graphql", json={"query": me}, headers=headers).json()
            if body.get("errors") or not (body.get("data") or {}).get("me"):
                break
            assert time.monotonic() < deadline, "process B still accepts a deactivated user's token"
            time.sleep(0.05)
