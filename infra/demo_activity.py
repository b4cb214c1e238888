"""A living demo on first start: what an admin and a member would do in their first minutes,
done through the public GraphQL API of the server that just started (so it obeys every rule,
and the audit log records it as theirs).

After `seed_demo` laid out the catalog and "Demo University" (groups ML-Lab and Vision):

- a member `demo` in ML-Lab (its active group) with a generated password (or
  GSHARE_DEMO_MEMBER_PASSWORD), printed with the admin's;
- credits down the hierarchy: system → Demo University (1,000) → ML-Lab (400) → demo (100);
- a resource policy on ML-Lab (4 concurrent sessions, 4 GPUs, sessions up to 7 days, 1 h idle
  timeout) and a monthly WARN budget of 300 credits on it;
- sessions of the member: a short CPU one already stopped (history for the usage reports and
  the ledger), a running GPU one (metered each minute, its usage streaming), and a queued one
  (more A30 cards than the time-sliced node can give whole).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import ssl
from dataclasses import dataclass
from typing import Any

import httpx

from infra.tls import default_tls_context

log = logging.getLogger(__name__)

MEMBER = "demo"
MEMBER_EMAIL = "demo@demo-university.example"
MEMBER_DISPLAY_NAME = "Demo Member"
C = 1_000_000  # micro-credits per credit


class DemoSeedError(RuntimeError):
    pass


@dataclass(frozen=True)
class DemoMember:
    username: str
    password: str


class _Client:
    def __init__(self, url: str, tls: ssl.SSLContext) -> None:
        self.http = httpx.AsyncClient(base_url=url, timeout=30, verify=tls)

    @classmethod
    async def open(cls, url: str) -> _Client:
        """A client whose TLS context is the process's (infra.tls): not built on the event loop."""
        return cls(url, await default_tls_context())

    async def gql(self, query: str, **variables: Any) -> dict[str, Any]:
        r = await self.http.post("/graphql", json={"query": query, "variables": variables})
        body = r.json()
        if body.get("errors"):
            raise DemoSeedError(f"demo seed: {body['errors'][0].get('message')}")
        data: dict[str, Any] = body["data"]
        return data

    async def mutate(self, name: str, query: str, **variables: Any) -> dict[str, Any]:
        payload: dict[str, Any] = (await self.gql(query, **variables))[name]
        if payload.get("errors"):
            raise DemoSeedError(f"demo seed: {name}: {payload['errors'][0]}")
        return payload

    async def login(self, username: str, password: str) -> None:
        await self.mutate(
            "login",
            "mutation($u: String!, $p: String!) { login(input: {username: $u, password: $p}) "
            "{ errors { code field message } } }",
            u=username,
            p=password,
        )

    async def aclose(self) -> None:
        await self.http.aclose()


def _by_name(nodes: list[dict[str, Any]], name: str) -> str:
    for n in nodes:
        if n["name"] == name:
            return str(n["id"])
    raise DemoSeedError(f"demo seed: {name!r} is not in the demo catalog")


ALLOCATE = "mutation($i: CreditsAllocateInput!) { creditsAllocate(input: $i) { errors { code field message } } }"
CREATE_SESSION = (
    "mutation($i: SessionCreateInput!) { sessionCreate(input: $i) "
    "{ session { id state } errors { code field message } } }"
)


async def _wait_state(member: _Client, session_id: str, states: set[str], within: float = 30) -> str:
    deadline = asyncio.get_running_loop().time() + within
    while True:
        data = await member.gql("query($id: ID!) { node(id: $id) { ... on Session { state } } }", id=session_id)
        state = str((data["node"] or {}).get("state"))
        if state in states or asyncio.get_running_loop().time() > deadline:
            return state
        await asyncio.sleep(0.5)


async def seed_demo_activity(url: str, admin_password: str, member_password: str | None = None) -> DemoMember:
    """Run once, right after the first start's `seed_demo`, against the server at `url`."""
    password = member_password or secrets.token_urlsafe(12)
    admin, member = await _Client.open(url), await _Client.open(url)
    try:
        await admin.login("admin", admin_password)
        orgs = (await admin.gql("{ organizations { nodes { id name slug groups { nodes { id name } } } } }"))[
            "organizations"
        ]["nodes"]
        org = next((o for o in orgs if o["slug"] == "demo"), None)
        if org is None:
            raise DemoSeedError("demo seed: no Demo University organisation")
        lab = _by_name(org["groups"]["nodes"], "ML-Lab")
        user = (
            await admin.mutate(
                "userCreate",
                "mutation($i: UserCreateInput!) { userCreate(input: $i) { user { id } errors { code field message } } }",
                i={
                    "organizationId": org["id"],
                    "username": MEMBER,
                    "email": MEMBER_EMAIL,
                    "displayName": MEMBER_DISPLAY_NAME,
                    "password": password,
                    "groupIds": [lab],
                },
            )
        )["user"]["id"]
        hops = [
            ({"kind": "SYSTEM"}, {"kind": "ORGANIZATION", "id": org["id"]}, 1000),
            ({"kind": "ORGANIZATION", "id": org["id"]}, {"kind": "GROUP", "id": lab}, 400),
            ({"kind": "GROUP", "id": lab}, {"kind": "USER", "id": user}, 100),
        ]
        for i, (src, dst, credits) in enumerate(hops):
            await admin.mutate(
                "creditsAllocate",
                ALLOCATE,
                i={
                    "source": src,
                    "destination": dst,
                    "amountMicro": credits * C,
                    "idempotencyKey": f"demo-seed-{i}",
                    "memo": "demo seed",
                },
            )
        await admin.mutate(
            "policySet",
            "mutation($i: PolicySetInput!) { policySet(input: $i) { errors { code field message } } }",
            i={
                "scope": {"kind": "GROUP", "id": lab},
                "maxConcurrentSessions": 4,
                "maxGpus": "4",
                "maxSessionSeconds": 7 * 24 * 3600,
                "idleTimeoutSeconds": 3600,
            },
        )
        await admin.mutate(
            "budgetSet",
            "mutation($i: BudgetSetInput!) { budgetSet(input: $i) { errors { code field message } } }",
            i={"scope": {"kind": "GROUP", "id": lab}, "limitMicro": 300 * C, "action": "WARN", "period": "MONTHLY"},
        )

        await member.login(MEMBER, password)
        catalog = await member.gql(
            "{ offerings { nodes { id name } } presets { nodes { id name } } images { nodes { id name } } }"
        )
        offering = {o["name"]: o["id"] for o in catalog["offerings"]["nodes"]}
        preset = {p["name"]: p["id"] for p in catalog["presets"]["nodes"]}
        image = {i["name"]: i["id"] for i in catalog["images"]["nodes"]}

        # history: a CPU notebook that ran a few seconds and was stopped
        done = (
            await member.mutate(
                "sessionCreate",
                CREATE_SESSION,
                i={"name": "first-notebook", "imageId": image["Jupyter SciPy (CPU)"], "presetId": preset["CPU small"]},
            )
        )["session"]["id"]
        await _wait_state(member, done, {"RUNNING"})
        await asyncio.sleep(2)
        await member.mutate(
            "sessionStop",
            "mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code field message } } }",
            id=done,
        )
        # running: a quarter of an A100, metered while it runs
        running = (
            await member.mutate(
                "sessionCreate",
                CREATE_SESSION,
                i={
                    "name": "pytorch-lab",
                    "imageId": image["PyTorch 24.05"],
                    "presetId": preset["GPU L (1/4)"],
                    "offeringId": offering["A100-80GB"],
                    "expiry": "D1",
                },
            )
        )["session"]["id"]
        # queued: two whole A30s, which only the time-sliced node has (it lends slices, not cards)
        await member.mutate(
            "sessionCreate",
            CREATE_SESSION,
            i={
                "name": "a30-pair",
                "imageId": image["PyTorch 24.05"],
                "presetId": preset["GPU 2 cards"],
                "offeringId": offering["A30-24GB"],
            },
        )
        await _wait_state(member, running, {"RUNNING"})
    finally:
        await admin.aclose()
        await member.aclose()
    log.info("seeded the demo's member, credits, policy, budget and sessions")
    return DemoMember(MEMBER, password)
