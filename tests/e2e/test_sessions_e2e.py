"""Issue 5, end to end against a real `gshare serve` (embedded) over HTTP and WebSocket: a
member creates a session, watches it start on a subscription, sees usage samples arrive,
pauses (GPU freed, visible in capacity), resumes, stops; the hold is settled and the wallet
shows the charge for the seconds it ran. Also: the demo inventory's capacity counts, and a
subscriber that reconnects gets the current state first."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.serve import Served, gshare_serve
from tests.support.ws import graphql_ws, subscribe

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    env = {"GSHARE_SIMULATED_START_DELAY": "1.0", "GSHARE_SIMULATED_JOB_SECONDS": "1.0"}
    with gshare_serve(tmp_path_factory.mktemp("sessions"), env=env, premade_postgres=True) as s:
        # the first start seeds the living demo (its GPU session takes a card) through the API
        # after /healthz answers; the tests count capacity, so they begin once it is seeded
        s.printed_accounts()
        yield s


def gql(client: httpx.Client, query: str, **variables: Any) -> dict[str, Any]:
    r = client.post("/graphql", json={"query": query, "variables": variables})
    r.raise_for_status()
    body = r.json()
    assert not body.get("errors"), body
    return body["data"]  # type: ignore[no-any-return]


def ok(payload: dict[str, Any]) -> dict[str, Any]:
    assert payload["errors"] == [], payload["errors"]
    return payload


def login(url: str, username: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    data = gql(
        client,
        "mutation($u: String!, $p: String!) { login(input: {username: $u, password: $p}) { errors { code } } }",
        u=username,
        p=password,
    )
    assert data["login"]["errors"] == []
    return client


def test_demo_inventory_capacity_counts_physical_and_logical(served: Served) -> None:
    admin = login(served.url, "admin", served.admin_password)
    cap = gql(
        admin,
        "{ capacity { byResource { resource kind shared physical { total used } logical { total used } } "
        "models { model physical { total } logical { total } } } }",
    )["capacity"]
    rows = {(r["resource"], r["kind"]): r for r in cap["byResource"]}
    shared = rows[("nvidia.com/gpu.shared", "SHARED")]
    assert shared["shared"] is True and shared["physical"]["total"] == 4 and shared["logical"]["total"] == 16
    assert rows[("nvidia.com/gpu", "HAMI")]["physical"]["total"] == 8 and rows[("nvidia.com/gpu", "HAMI")]["shared"]
    mig = [r for (res, kind), r in rows.items() if kind == "MIG"]
    assert mig and all(not r["shared"] for r in mig)
    models = {m["model"]: m for m in cap["models"]}
    assert models["A30-24GB"]["physical"]["total"] == 4 and models["A30-24GB"]["logical"]["total"] == 16
    assert models["A100-80GB"]["physical"]["total"] == models["A100-80GB"]["logical"]["total"] == 8


def setup_member(served: Served) -> tuple[httpx.Client, str, dict[str, str]]:
    admin = login(served.url, "admin", served.admin_password)
    orgs = gql(admin, "{ organizations { nodes { id slug } } }")["organizations"]["nodes"]
    demo = next(o["id"] for o in orgs if o["slug"] == "demo")
    groups = gql(admin, "query($o: ID!) { groups(organizationId: $o) { nodes { id name } } }", o=demo)["groups"][
        "nodes"
    ]
    lab = next(g["id"] for g in groups if g["name"] == "ML-Lab")
    name = f"ada{uuid.uuid4().hex[:6]}"
    user = ok(
        gql(
            admin,
            "mutation($i: UserCreateInput!) { userCreate(input: $i) { user { id } errors { code field message } } }",
            i={
                "organizationId": demo,
                "username": name,
                "email": f"{name}@uni.example",
                "password": "a-long-password",
                "groupIds": [lab],
            },
        )["userCreate"]
    )["user"]["id"]
    hops = [
        ({"kind": "SYSTEM"}, {"kind": "ORGANIZATION", "id": demo}),
        ({"kind": "ORGANIZATION", "id": demo}, {"kind": "GROUP", "id": lab}),
        ({"kind": "GROUP", "id": lab}, {"kind": "USER", "id": user}),
    ]
    for i, (src, dst) in enumerate(hops):
        ok(
            gql(
                admin,
                "mutation($i: CreditsAllocateInput!) { creditsAllocate(input: $i) { errors { code field message } } }",
                i={"source": src, "destination": dst, "amountMicro": 100_000_000, "idempotencyKey": f"{name}-{i}"},
            )["creditsAllocate"]
        )
    member = login(served.url, name, "a-long-password")
    ok(
        gql(member, "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=lab)[
            "activeGroupSet"
        ]
    )
    catalog = gql(
        member, "{ offerings { nodes { id name } } presets { nodes { id name } } images { nodes { id name } } }"
    )
    ids = {
        "offering": next(o["id"] for o in catalog["offerings"]["nodes"] if o["name"] == "A100-80GB"),
        "preset": next(p["id"] for p in catalog["presets"]["nodes"] if p["name"] == "GPU L (1/4)"),
        "image": next(i["id"] for i in catalog["images"]["nodes"] if i["name"] == "PyTorch 24.05"),
    }
    token = ok(
        gql(
            member,
            'mutation { personalAccessTokenCreate(input: {name: "ws", scope: READ_WRITE}) { secret errors { code } } }',
        )["personalAccessTokenCreate"]
    )["secret"]
    return member, token, ids


STATUS = "subscription($id: ID!) { sessionStatus(id: $id) { state stateReason endpoints { jupyterlab } } }"
USAGE = "subscription($id: ID!) { sessionUsage(sessionId: $id) { at cpuMillicores gpuUtilPercent } }"


def hami_used(client: httpx.Client) -> float:
    """HAMi shares in use, in cards. Not physical cards: the demo's running session shares a
    card with whatever best fit packs beside it, so a quarter card may add no physical card."""
    cap = gql(client, "{ capacity { byResource { kind usedCardEquivalents } } }")["capacity"]
    return round(sum(r["usedCardEquivalents"] for r in cap["byResource"] if r["kind"] == "HAMI"), 6)


def test_member_runs_pauses_resumes_and_stops_a_session(served: Served) -> None:
    member, token, ids = setup_member(served)
    before = hami_used(member)
    created = ok(
        gql(
            member,
            "mutation($i: SessionCreateInput!) { sessionCreate(input: $i) { session { id state } errors { code field message } } }",
            i={
                "name": "train",
                "imageId": ids["image"],
                "presetId": ids["preset"],
                "offeringId": ids["offering"],
                "expiry": "H4",
            },
        )["sessionCreate"]
    )["session"]
    sid = created["id"]
    assert created["state"] in ("SCHEDULED", "QUEUED")
    ws_url = served.url.replace("http", "ws") + "/graphql"

    async def watch() -> tuple[list[str], int]:
        async with graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as ws:
            status = await subscribe(ws, "s", STATUS, id=sid)
            seen = [(await status.next())["sessionStatus"]["state"]]
            while seen[-1] != "RUNNING":
                seen.append((await status.next())["sessionStatus"]["state"])
            usage = await subscribe(ws, "u", USAGE, id=sid)
            samples = 0
            while samples < 3:
                samples += len((await usage.next(within=15))["sessionUsage"])
            return seen, samples

    seen, samples = asyncio.run(watch())
    assert seen[0] in ("SCHEDULED", "STARTING") and "STARTING" in seen and seen[-1] == "RUNNING"
    assert samples >= 3
    assert hami_used(member) == round(before + 0.25, 6)  # GPU L (1/4)

    paused = ok(
        gql(
            member,
            "mutation($i: IdInput!) { sessionPause(input: $i) { session { state } errors { code } } }",
            i={"id": sid},
        )["sessionPause"]
    )["session"]
    assert paused["state"] in ("PAUSING", "PAUSED")
    assert hami_used(member) == before  # the GPU is free at once
    ok(
        gql(
            member,
            "mutation($i: IdInput!) { sessionResume(input: $i) { session { state } errors { code } } }",
            i={"id": sid},
        )["sessionResume"]
    )

    async def until_running() -> None:
        async with graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as ws:
            status = await subscribe(ws, "s", STATUS, id=sid)
            while (await status.next())["sessionStatus"]["state"] != "RUNNING":
                pass

    asyncio.run(until_running())
    ok(
        gql(
            member,
            "mutation($i: IdInput!) { sessionStop(input: $i) { session { state } errors { code } } }",
            i={"id": sid},
        )["sessionStop"]
    )

    async def until_stopped() -> None:
        async with graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as ws:
            status = await subscribe(ws, "s", STATUS, id=sid)
            while (await status.next())["sessionStatus"]["state"] != "STOPPED":
                pass

    asyncio.run(until_stopped())
    final = gql(
        member,
        "query($id: ID!) { node(id: $id) { ... on Session { state runningSeconds charged { micro } gpu { hourlyCost { micro } } } } "
        "myWallet { balance { micro } held { micro } } }",
        id=sid,
    )
    s, wallet = final["node"], final["myWallet"]
    assert s["state"] == "STOPPED" and s["runningSeconds"] >= 1
    # A100 at 4 credits/hour × 1/4 = 1 credit/hour = 1e6/3600 micro-credits per second, floored once
    assert s["charged"]["micro"] == 1_000_000 * s["runningSeconds"] // 3600
    assert wallet["held"]["micro"] == 0
    assert wallet["balance"]["micro"] == 100_000_000 - s["charged"]["micro"]


def test_a_subscriber_that_reconnects_gets_the_current_state_first(served: Served) -> None:
    member, token, ids = setup_member(served)
    sid = ok(
        gql(
            member,
            "mutation($i: SessionCreateInput!) { sessionCreate(input: $i) { session { id } errors { code } } }",
            i={"name": "r", "imageId": ids["image"], "presetId": ids["preset"], "offeringId": ids["offering"]},
        )["sessionCreate"]
    )["session"]["id"]
    ws_url = served.url.replace("http", "ws") + "/graphql"

    async def first_state() -> str:
        async with graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as ws:
            status = await subscribe(ws, "s", STATUS, id=sid)
            return str((await status.next())["sessionStatus"]["state"])

    assert asyncio.run(first_state()) in ("SCHEDULED", "STARTING", "RUNNING")
    # while disconnected, the session stops: the reconnecting subscriber sees the final state first
    ok(
        gql(member, "mutation($i: IdInput!) { sessionStop(input: $i) { errors { code } } }", i={"id": sid})[
            "sessionStop"
        ]
    )

    async def final_state() -> str:
        for _ in range(50):
            state = await first_state()
            if state == "STOPPED":
                return state
            await asyncio.sleep(0.1)
        return state

    assert asyncio.run(final_state()) == "STOPPED"


def test_the_server_declines_websocket_compression(served: Served) -> None:
    """permessage-deflate keeps a compressor per socket (~100 KiB resident, issue 15's 60 KiB per
    subscribed socket): `gshare serve` declines it unless GSHARE_WEBSOCKET_COMPRESSION is on."""
    _member, token, _ids = setup_member(served)

    async def extensions() -> str | None:
        # the client offers permessage-deflate, as browsers do
        async with graphql_ws(
            served.url.replace("http", "ws") + "/graphql", {"authorization": f"Bearer {token}"}
        ) as ws:
            return ws.response.headers.get("Sec-WebSocket-Extensions")  # type: ignore[no-any-return]

    assert asyncio.run(extensions()) is None


JOB = """
query($id: ID!) {
  node(id: $id) {
    ... on Session { state stateReason exitCode command args backoffLimit logTail(lines: 3) { lines live reason } }
  }
}"""


def test_member_runs_a_batch_job_to_its_exit_code(served: Served) -> None:
    """GSHARE_SIMULATED_JOB_SECONDS=1: the demo's simulated job ends within seconds."""
    member, _, ids = setup_member(served)
    catalog = gql(member, "{ presets { nodes { id name } } }")
    one_card = next(p["id"] for p in catalog["presets"]["nodes"] if p["name"] == "GPU 1 card")
    created = ok(
        gql(
            member,
            "mutation($i: SessionCreateInput!) { sessionCreate(input: $i) { session { id } errors { code field message } } }",
            i={
                "name": "train",
                "kind": "JOB",
                "imageId": ids["image"],
                "offeringId": ids["offering"],
                "presetId": one_card,
                "command": ["sh", "-c"],
                "args": ["python train.py; exit 3"],
            },
        )["sessionCreate"]
    )["session"]["id"]
    deadline = time.monotonic() + 60
    while (job := gql(member, JOB, id=created)["node"])["state"] not in ("FAILED", "SUCCEEDED"):
        assert time.monotonic() < deadline, job
        time.sleep(0.5)
    assert job["state"] == "FAILED" and job["exitCode"] == 3 and job["stateReason"].startswith("exit code 3")
    assert job["command"] == ["sh", "-c"] and job["args"] == ["python train.py; exit 3"] and job["backoffLimit"] == 0
    assert job["logTail"]["live"] is False and job["logTail"]["lines"][-1] == "[simulated] exited with code 3"
