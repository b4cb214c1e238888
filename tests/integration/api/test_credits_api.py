"""The credits API over HTTP (in-process ASGI app, real PostgreSQL): wallets and balances,
allocation and take-back by role, idempotency, ledger history and its CSV export, budgets and
the budget gate, usage by scope, refill schedules; every change in the audit log."""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import AsyncIterator
from typing import Any
from unittest.mock import ANY
from uuid import UUID

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from strawberry import relay

from domain.common.money import micro_to_credits_str
from domain.credits import services as credits
from domain.credits.model import AccountRef
from domain.policies.model import ScopeChain
from domain.tenancy.auth import TokenScope
from tests.support.api import Gql, World, build_world, gid, make_user, unique

C = 1_000_000  # micro-credits per credit


def build_app(container: Any) -> Starlette:
    """/graphql with the credits and policies types composed in (as api/schema.py does once they
    are added there), and the ledger CSV route."""
    from strawberry.tools import merge_types

    import api.schema as schema_module
    from api.app import GShareGraphQL
    from api.credits.export import ledger_csv_route
    from api.credits.mutations import CreditsMutation
    from api.credits.queries import CreditsQuery
    from api.policies.mutations import PoliciesMutation
    from api.policies.queries import PoliciesQuery

    def missing(target: Any, parts: tuple[Any, ...]) -> list[Any]:
        names = {f.python_name for f in target.__strawberry_definition__.fields}
        return [p for p in parts if p.__strawberry_definition__.fields[0].python_name not in names]

    with pytest.MonkeyPatch.context() as mp:
        if extra := missing(schema_module.Query, (CreditsQuery, PoliciesQuery)):
            mp.setattr(schema_module, "Query", merge_types("Query", (schema_module.Query, *extra)))
        if extra := missing(schema_module.Mutation, (CreditsMutation, PoliciesMutation)):
            mp.setattr(schema_module, "Mutation", merge_types("Mutation", (schema_module.Mutation, *extra)))
        graphql_app = GShareGraphQL(container)
    return Starlette(routes=[Route("/graphql", graphql_app, methods=["GET", "POST"]), ledger_csv_route(container)])


@pytest.fixture(scope="module")
async def client(container: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=build_app(container))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(scope="module")
async def w(container: Any) -> World:
    """A world of this module's own, so balances are not shared with other test modules."""
    return await build_world(container)


@pytest.fixture(scope="module")
def as_(client: httpx.AsyncClient, w: World) -> Any:
    def make(role: str) -> Gql:
        return Gql(client, w.tokens[role])

    return make


# ------------------------------------------------------------------------------ helpers

SYSTEM_ACCOUNT: dict[str, Any] = {"kind": "SYSTEM"}


def org(u: UUID) -> dict[str, Any]:
    return {"id": gid("Organization", u)}


def grp(u: UUID) -> dict[str, Any]:
    return {"id": gid("Group", u)}


def usr(u: UUID) -> dict[str, Any]:
    return {"id": gid("User", u)}


TRANSFER = "replayed transfer { id seq kind createdAt idempotencyKey memo amount { micro credits } "
TRANSFER += "source { accountId kind name } destination { accountId kind name } } errors { code field message params { name value } }"


async def move(
    g: Gql, name: str, source: dict[str, Any], destination: dict[str, Any], micro: int, key: str | None = None
) -> dict[str, Any]:
    input_type = "CreditsAllocateInput" if name == "creditsAllocate" else "CreditsTakeBackInput"
    data = await g(
        f"mutation($input: {input_type}!) {{ {name}(input: $input) {{ {TRANSFER} }} }}",
        input={
            "source": source,
            "destination": destination,
            "amountMicro": micro,
            "idempotencyKey": unique("key") if key is None else key,
            "memo": "test",
        },
    )
    return data[name]  # type: ignore[no-any-return]


async def allocate(g: Gql, source: dict[str, Any], destination: dict[str, Any], micro: int, **kw: Any) -> Any:
    return await move(g, "creditsAllocate", source, destination, micro, **kw)


async def take_back(g: Gql, source: dict[str, Any], destination: dict[str, Any], micro: int, **kw: Any) -> Any:
    return await move(g, "creditsTakeBack", source, destination, micro, **kw)


WALLET = "kind name ownerId balance { micro credits } held { micro } available { micro }"


async def balance(g: Gql, account: dict[str, Any]) -> int:
    data = await g(f"query($a: AccountInput!) {{ wallet(account: $a) {{ {WALLET} }} }}", a=account)
    return int(data["wallet"]["balance"]["micro"])


def node_id(global_id: str) -> str:
    return str(relay.GlobalID.from_id(global_id).node_id)


def ok(payload: dict[str, Any]) -> dict[str, Any]:
    assert payload["errors"] == [], payload["errors"]
    return payload


def refused(payload: dict[str, Any]) -> tuple[str, str | None]:
    assert payload["errors"], payload
    e = payload["errors"][0]
    return e["code"], e["field"]


async def audit(g: Gql, operation: str) -> list[dict[str, Any]]:
    data = await g(
        "query($f: AuditFilterInput) { auditLog(filter: $f, first: 100) "
        "{ nodes { operation success resultCode targetType targetId actorUsername } } }",
        f={"operation": operation},
    )
    return data["auditLog"]["nodes"]  # type: ignore[no-any-return]


async def fund_org(as_: Any, w: World, micro: int) -> None:
    ok(await allocate(as_("super_admin"), SYSTEM_ACCOUNT, org(w.org_a), micro))


# ---------------------------------------------------------------------- roles and money


async def test_credits_flow_down_by_the_admin_of_each_level(as_: Any, w: World) -> None:
    sup, oa, ga, member = as_("super_admin"), as_("org_admin"), as_("group_admin"), as_("member")
    before = await balance(member, usr(w.users["member"]))

    t1 = ok(await allocate(sup, SYSTEM_ACCOUNT, org(w.org_a), 1000 * C))["transfer"]
    assert t1["kind"] == "ALLOCATION" and t1["amount"] == {"micro": 1000 * C, "credits": "1000"}
    assert t1["source"]["kind"] == "SYSTEM" and t1["destination"]["kind"] == "ORGANIZATION"
    ok(await allocate(oa, org(w.org_a), grp(w.g1), 300 * C))
    t3 = ok(await allocate(ga, grp(w.g1), usr(w.users["member"]), 12_500_000))["transfer"]
    assert t3["amount"]["credits"] == "12.5"
    assert t3["destination"]["name"] == (await member("{ me { username } }"))["me"]["username"]

    mine = (
        await member(
            f"{{ myWallet {{ id {WALLET} holds {{ id status amount {{ micro }} }} }} }}",
        )
    )["myWallet"]
    assert mine["kind"] == "USER"
    assert int(mine["balance"]["micro"]) == before + 12_500_000
    assert mine["available"]["micro"] == mine["balance"]["micro"] and mine["held"]["micro"] == 0
    assert mine["holds"] == []
    # the wallet is a node its owner and the admins above see; others see nothing
    for role in ("member", "group_admin", "org_admin", "super_admin"):
        node = (await as_(role)("query($id: ID!) { node(id: $id) { id } }", id=mine["id"]))["node"]
        assert node == {"id": mine["id"]}, role
    for role in ("foreign_admin", "foreign_member", "guest"):
        assert (await as_(role)("query($id: ID!) { node(id: $id) { id } }", id=mine["id"]))["node"] is None, role

    # each movement is audited with its scope, visible to that scope's admins
    entries = [e for e in await audit(oa, "creditsAllocate") if e["targetId"] == t3["id"]]
    assert entries and entries[0]["success"] and entries[0]["targetType"] == "LedgerTransfer"
    group_entries = [e for e in await audit(ga, "creditsAllocate") if e["targetId"] == t3["id"]]
    assert group_entries, "the group admin sees movements of their group"
    assert not [e for e in await audit(as_("foreign_admin"), "creditsAllocate") if e["targetId"] == t3["id"]]


async def test_take_back_goes_up_by_the_same_admins(as_: Any, w: World) -> None:
    oa, ga = as_("org_admin"), as_("group_admin")
    await fund_org(as_, w, 100 * C)
    ok(await allocate(oa, org(w.org_a), grp(w.g1), 40 * C))
    ok(await allocate(ga, grp(w.g1), usr(w.users["member"]), 10 * C))
    member_before = await balance(ga, usr(w.users["member"]))
    group_before = await balance(ga, grp(w.g1))

    t = ok(await take_back(ga, usr(w.users["member"]), grp(w.g1), 4 * C))["transfer"]
    assert t["kind"] == "TAKE_BACK"
    assert await balance(ga, usr(w.users["member"])) == member_before - 4 * C
    assert await balance(ga, grp(w.g1)) == group_before + 4 * C
    ok(await take_back(oa, grp(w.g1), org(w.org_a), 1 * C))
    ok(await take_back(as_("super_admin"), org(w.org_a), SYSTEM_ACCOUNT, 1 * C))
    assert [e for e in await audit(oa, "creditsTakeBack") if e["targetId"] == t["id"] and e["success"]]


async def test_a_member_cannot_move_credits_at_all(as_: Any, w: World, container: Any) -> None:
    member = as_("member")
    await fund_org(as_, w, 10 * C)
    ok(await allocate(as_("org_admin"), org(w.org_a), grp(w.g1), 5 * C))
    wallet = await balance(member, usr(w.users["member"]))
    group_before = await balance(as_("group_admin"), grp(w.g1))
    assert refused(await allocate(member, grp(w.g1), usr(w.users["member"]), C)) == ("PERMISSION_DENIED", "source")
    assert refused(await take_back(member, usr(w.users["member"]), grp(w.g1), C)) == (
        "PERMISSION_DENIED",
        "destination",
    )
    assert refused(await allocate(member, usr(w.users["member"]), grp(w.g1), C))[0] == "INVALID_TRANSFER"
    assert await balance(member, usr(w.users["member"])) == wallet
    assert await balance(as_("group_admin"), grp(w.g1)) == group_before
    # refusals are audited too
    failures = [e for e in await audit(as_("org_admin"), "creditsAllocate") if not e["success"]]
    assert any(e["resultCode"] == "PERMISSION_DENIED" for e in failures)


async def test_a_group_admin_cannot_allocate_to_another_group_or_take_from_the_org(as_: Any, w: World) -> None:
    ga = as_("group_admin")
    await fund_org(as_, w, 50 * C)
    ok(await allocate(as_("org_admin"), org(w.org_a), grp(w.g2), 20 * C))
    org_before = await balance(as_("org_admin"), org(w.org_a))
    g2_before = await balance(as_("org_admin"), grp(w.g2))

    # giving to G2 from the org, or from G2 to someone, takes an admin of the giver
    assert refused(await allocate(ga, org(w.org_a), grp(w.g2), C)) == ("PERMISSION_DENIED", "source")
    assert refused(await allocate(ga, grp(w.g2), usr(w.users["member"]), C)) == ("PERMISSION_DENIED", "source")
    # from their own group to another group is not an edge of the hierarchy
    assert refused(await allocate(ga, grp(w.g1), grp(w.g2), C))[0] == "INVALID_TRANSFER"
    # taking from the organisation (up to the system, or down into their group by take-back) is refused
    assert refused(await take_back(ga, org(w.org_a), SYSTEM_ACCOUNT, C)) == ("PERMISSION_DENIED", "destination")
    assert refused(await take_back(ga, grp(w.g1), org(w.org_a), C)) == ("PERMISSION_DENIED", "destination")
    # nor to a user outside the group
    assert refused(await allocate(ga, grp(w.g1), usr(w.users["foreign_member"]), C)) == (
        "INVALID_TRANSFER",
        "destination",
    )
    assert await balance(as_("org_admin"), org(w.org_a)) == org_before
    assert await balance(as_("org_admin"), grp(w.g2)) == g2_before


async def test_allocating_more_than_available_is_a_typed_error_and_moves_nothing(as_: Any, w: World) -> None:
    oa = as_("org_admin")
    available = await balance(oa, org(w.org_a))
    history_before = await history_ids(oa, org(w.org_a))
    payload = await allocate(oa, org(w.org_a), grp(w.g2), available + 1)
    code, field = refused(payload)
    assert (code, field) == ("INSUFFICIENT_CREDITS", "amountMicro")
    assert payload["transfer"] is None
    assert "available" in payload["errors"][0]["message"]
    # the numbers of the refusal are typed parameters too: a console says them in its language
    params = {p["name"]: p["value"] for p in payload["errors"][0]["params"]}
    assert params == {"available": micro_to_credits_str(available), "requested": micro_to_credits_str(available + 1)}
    assert await balance(oa, org(w.org_a)) == available
    assert await history_ids(oa, org(w.org_a)) == history_before
    failures = [e for e in await audit(oa, "creditsAllocate") if e["resultCode"] == "INSUFFICIENT_CREDITS"]
    assert failures and not failures[0]["success"]


async def test_bad_input_is_typed_and_names_the_field(as_: Any, w: World, container: Any) -> None:
    oa = as_("org_admin")
    assert refused(await allocate(oa, {"id": "nonsense"}, grp(w.g1), C)) == ("NOT_FOUND", "source.id")
    assert refused(await allocate(oa, org(w.org_a), {"kind": "GROUP", "id": gid("User", w.users["member"])}, C)) == (
        "NOT_FOUND",
        "destination.id",
    )
    assert refused(await allocate(oa, org(w.org_a), grp(w.g1), 0))[0:2] == ("INVALID_TRANSFER", "amountMicro")
    assert refused(await allocate(oa, org(w.org_a), grp(w.g1), C, key="")) == ("INVALID_TRANSFER", "idempotencyKey")
    _, ro_token = await make_user(container, w.org_a, unique("ro"), scope=TokenScope.READ_ONLY)
    ro = Gql(as_("org_admin").client, ro_token)
    assert refused(await allocate(ro, org(w.org_a), grp(w.g1), C))[0] in ("PERMISSION_DENIED", "READ_ONLY_TOKEN")
    # a read-only token still reads its wallet
    assert (await ro("{ myWallet { kind } }"))["myWallet"]["kind"] == "USER"


async def test_replaying_an_idempotency_key_returns_the_same_transfer(as_: Any, w: World) -> None:
    oa = as_("org_admin")
    await fund_org(as_, w, 10 * C)
    key = unique("replay")
    before = await balance(oa, grp(w.g2))
    first = ok(await allocate(oa, org(w.org_a), grp(w.g2), 3 * C, key=key))
    again = ok(await allocate(oa, org(w.org_a), grp(w.g2), 3 * C, key=key))
    assert not first["replayed"] and again["replayed"]
    assert again["transfer"]["id"] == first["transfer"]["id"]
    assert again["transfer"]["idempotencyKey"] == first["transfer"]["idempotencyKey"]
    assert await balance(oa, grp(w.g2)) == before + 3 * C
    # the same key for another movement is refused
    assert refused(await allocate(oa, org(w.org_a), grp(w.g2), 4 * C, key=key)) == (
        "IDEMPOTENCY_KEY_REUSED",
        "idempotencyKey",
    )
    # keys live in each caller's namespace: another admin's same key is a new movement
    other = ok(await allocate(as_("super_admin"), org(w.org_a), grp(w.g2), 3 * C, key=key))
    assert not other["replayed"] and other["transfer"]["id"] != first["transfer"]["id"]


async def test_bulk_allocation_to_every_member_of_a_group(as_: Any, w: World) -> None:
    ga = as_("group_admin")
    await fund_org(as_, w, 100 * C)
    ok(await allocate(as_("org_admin"), org(w.org_a), grp(w.g1), 30 * C))
    members = [w.users["group_admin"], w.users["member"], w.users["guest"]]
    before = {u: await balance(ga, usr(u)) for u in members}
    q = (
        "mutation($input: CreditsAllocateToGroupMembersInput!) { creditsAllocateToGroupMembers(input: $input) "
        "{ replayed transfers { id destination { ownerId } amount { micro } } errors { code field message } } }"
    )
    key = unique("bulk")
    input = {"groupId": gid("Group", w.g1), "amountMicro": 2 * C, "idempotencyKey": key}
    first = ok((await ga(q, input=input))["creditsAllocateToGroupMembers"])
    assert not first["replayed"]
    assert sorted(t["destination"]["ownerId"] for t in first["transfers"]) == sorted(gid("User", u) for u in members)
    again = ok((await ga(q, input=input))["creditsAllocateToGroupMembers"])
    assert again["replayed"] and {t["id"] for t in again["transfers"]} == {t["id"] for t in first["transfers"]}
    for u in members:
        assert await balance(ga, usr(u)) == before[u] + 2 * C
    # not for another group's members, and not by a member
    refusal = (await ga(q, input={**input, "groupId": gid("Group", w.g2)}))["creditsAllocateToGroupMembers"]
    assert refused(refusal)[0] == "PERMISSION_DENIED"
    assert refused((await as_("member")(q, input=input))["creditsAllocateToGroupMembers"])[0] == "PERMISSION_DENIED"
    entries = [e for e in await audit(ga, "creditsAllocateToGroupMembers") if e["success"]]
    assert entries and entries[0]["targetType"] == "Group" and entries[0]["targetId"] == str(w.g1)


async def test_accounts_lists_what_the_viewer_administers_with_balances(as_: Any, w: World) -> None:
    q = (
        "query($o: ID, $g: ID) { accounts(organizationId: $o, groupId: $g, first: 50) "
        "{ totalCount nodes { id kind ownerId name balance { micro } available { micro } } } }"
    )
    top = (await as_("org_admin")(q))["accounts"]
    kinds = {(n["kind"], n["ownerId"]) for n in top["nodes"]}
    assert ("ORGANIZATION", gid("Organization", w.org_a)) in kinds
    assert ("CONSUMPTION", gid("Organization", w.org_a)) in kinds
    in_org = (await as_("org_admin")(q, o=gid("Organization", w.org_a)))["accounts"]
    assert {gid("Group", w.g1), gid("Group", w.g2)} <= {n["ownerId"] for n in in_org["nodes"]}
    in_group = (await as_("group_admin")(q, g=gid("Group", w.g1)))["accounts"]
    owners = {n["ownerId"] for n in in_group["nodes"]}
    assert gid("Group", w.g1) in owners and gid("User", w.users["member"]) in owners
    assert in_group["totalCount"] == len(in_group["nodes"]) == 4  # the group and its three members
    # paging
    page = (await as_("group_admin")(q.replace("first: 50", "first: 2"), g=gid("Group", w.g1)))["accounts"]
    assert len(page["nodes"]) == 2 and page["totalCount"] == 4
    # the group admin does not see the organisation's accounts, nor another group's
    top_ga = (await as_("group_admin")(q))["accounts"]
    assert {n["kind"] for n in top_ga["nodes"]} == {"GROUP"}
    body = await as_("group_admin").raw(q, g=gid("Group", w.g2))
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert (await as_("member")(q))["accounts"]["totalCount"] == 0
    # super admins start at the system account
    sup = (await as_("super_admin")(q))["accounts"]
    assert sup["nodes"][0]["kind"] == "SYSTEM" and int(sup["nodes"][0]["balance"]["micro"]) < 0


async def test_wallet_of_an_account_one_may_not_see_is_not_found(as_: Any, w: World) -> None:
    body = await as_("member").raw("query($a: AccountInput!) { wallet(account: $a) { kind } }", a=org(w.org_a))
    assert body["errors"][0]["extensions"] == {"code": "NOT_FOUND", "field": "account", "requestId": ANY}
    body = await as_("foreign_admin").raw(
        "query($a: AccountInput!) { wallet(account: $a) { kind } }", a=usr(w.users["member"])
    )
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    body = await Gql(as_("member").client).raw("{ myWallet { kind } }")
    assert body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


# ------------------------------------------------------------------------------ history

HISTORY = (
    "query($a: AccountInput, $k: TransferKind, $s: DateTime, $u: DateTime, $first: Int, $after: String) "
    "{ ledgerHistory(account: $a, kind: $k, since: $s, until: $u, first: $first, after: $after) "
    "{ edges { cursor node { id seq kind createdAt amount { micro } } } "
    "pageInfo { hasNextPage hasPreviousPage endCursor } } }"
)


async def history_ids(g: Gql, account: dict[str, Any], **kw: Any) -> list[str]:
    data = await g(HISTORY, a=account, first=500, **kw)
    return [e["node"]["id"] for e in data["ledgerHistory"]["edges"]]


async def fresh_group(container: Any, w: World) -> UUID:
    from domain.tenancy import services as tenancy
    from tests.support.api import SYSTEM

    async with container.uow() as uow:
        g = await tenancy.group_create(
            uow, SYSTEM, container.ids, container.clock, organization_id=w.org_a, name=unique("hist")
        )
        await uow.commit()
    return g.id


async def test_ledger_history_pages_newest_first_by_a_keyset_cursor(as_: Any, w: World, container: Any) -> None:
    oa = as_("org_admin")
    await fund_org(as_, w, 100 * C)
    g = await fresh_group(container, w)
    posted = [ok(await allocate(oa, org(w.org_a), grp(g), (i + 1) * C))["transfer"] for i in range(5)]
    ok(await take_back(oa, grp(g), org(w.org_a), C))

    seen: list[dict[str, Any]] = []
    after = None
    pages = 0
    while True:
        data = (await oa(HISTORY, a=grp(g), first=2, after=after))["ledgerHistory"]
        seen += [e["node"] for e in data["edges"]]
        pages += 1
        assert data["pageInfo"]["hasPreviousPage"] == (after is not None)
        if not data["pageInfo"]["hasNextPage"]:
            break
        after = data["pageInfo"]["endCursor"]
    assert pages == 3 and len(seen) == 6
    seqs = [int(n["seq"]) for n in seen]
    assert seqs == sorted(seqs, reverse=True) and len(set(seqs)) == 6
    assert [n["id"] for n in seen[1:]] == [t["id"] for t in reversed(posted)]
    assert seen[0]["kind"] == "TAKE_BACK"

    # a transfer posted meanwhile does not shift the pages already handed out
    first_page = (await oa(HISTORY, a=grp(g), first=2))["ledgerHistory"]
    ok(await allocate(oa, org(w.org_a), grp(g), C))
    second = (await oa(HISTORY, a=grp(g), first=2, after=first_page["pageInfo"]["endCursor"]))["ledgerHistory"]
    assert [e["node"]["id"] for e in second["edges"]] == [seen[2]["id"], seen[3]["id"]]

    # filters: kind and period
    takes = await oa(HISTORY, a=grp(g), k="TAKE_BACK", first=10)
    assert [e["node"]["kind"] for e in takes["ledgerHistory"]["edges"]] == ["TAKE_BACK"]
    since = posted[2]["createdAt"]
    until = seen[0]["createdAt"]
    window = await history_ids(oa, grp(g), s=since, u=until)
    assert window == [t["id"] for t in reversed(posted[2:])]

    # the whole ledger is for super_admins; an account's history for its viewers
    body = await oa.raw(HISTORY, first=1)
    assert body["errors"][0]["extensions"] == {"code": "PERMISSION_DENIED", "field": "account", "requestId": ANY}
    assert len(await history_ids(as_("super_admin"), None)) > 0  # type: ignore[arg-type]
    body = await as_("foreign_admin").raw(HISTORY, a=grp(g), first=1)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    body = await oa.raw(HISTORY, a=grp(g), first=1, after="garbage")
    assert body["errors"][0]["extensions"] == {"code": "INVALID_VALUE", "field": "after", "requestId": ANY}


async def test_ledger_csv_export(as_: Any, w: World, client: httpx.AsyncClient, container: Any) -> None:
    oa = as_("org_admin")
    await fund_org(as_, w, 100 * C)
    g = await fresh_group(container, w)
    posted = [ok(await allocate(oa, org(w.org_a), grp(g), amount))["transfer"] for amount in (C, 2_500_000, 7)]
    ok(await take_back(oa, grp(g), org(w.org_a), C))

    headers = {"authorization": f"Bearer {w.tokens['org_admin']}"}
    r = await client.get("/exports/ledger.csv", params={"account": gid("Group", g)}, headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [row["kind"] for row in rows] == ["take_back", "allocation", "allocation", "allocation"]
    assert [row["id"] for row in rows[1:]] == [t["id"] for t in reversed(posted)]
    assert [row["amount_credits"] for row in rows[1:]] == ["0.000007", "2.5", "1"]
    assert rows[1]["source"] == f"organization:{w.org_a}" and rows[1]["destination"] == f"group:{g}"
    assert rows[1]["actor_id"] == str(w.users["org_admin"])

    # same filters as ledgerHistory
    r = await client.get(
        "/exports/ledger.csv", params={"account": gid("Group", g), "kind": "TAKE_BACK"}, headers=headers
    )
    assert [row["kind"] for row in csv.DictReader(io.StringIO(r.text))] == ["take_back"]
    r = await client.get(
        "/exports/ledger.csv",
        params={"account": gid("Group", g), "since": posted[1]["createdAt"], "until": posted[2]["createdAt"]},
        headers=headers,
    )
    assert [row["id"] for row in csv.DictReader(io.StringIO(r.text))] == [posted[1]["id"]]

    # refusals
    r = await client.get("/exports/ledger.csv", params={"account": gid("Group", g)})
    assert r.status_code == 401
    r = await client.get(
        "/exports/ledger.csv",
        params={"account": gid("Group", g)},
        headers={"authorization": f"Bearer {w.tokens['foreign_admin']}"},
    )
    assert r.status_code == 404 and r.json()["code"] == "NOT_FOUND"
    r = await client.get("/exports/ledger.csv", headers=headers)
    assert r.status_code == 403 and r.json()["field"] == "account"
    r = await client.get("/exports/ledger.csv", params={"account": gid("Group", g), "kind": "GIFT"}, headers=headers)
    assert r.status_code == 400 and r.json()["field"] == "kind"

    # a browser session cookie works too
    password = "correct horse battery staple 42"
    uid, _ = await make_user(container, w.org_a, unique("csvadmin"), password=password)
    from domain.tenancy import services as tenancy
    from tests.support.api import SYSTEM

    async with container.uow() as uow:
        await tenancy.org_admin_set(uow, SYSTEM, uid, w.org_a, True)
        user = await uow.tenancy.get_user(uid)
        await uow.commit()
    transport = httpx.ASGITransport(app=client._transport.app)  # type: ignore[attr-defined]
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as browser:
        login = await Gql(browser)(
            "mutation($i: LoginInput!) { login(input: $i) { errors { code } } }",
            i={"username": user.username, "password": password},
        )
        assert login["login"]["errors"] == []
        r = await browser.get("/exports/ledger.csv", params={"account": gid("Group", g)})
        assert r.status_code == 200 and len(list(csv.DictReader(io.StringIO(r.text)))) == 4


# ------------------------------------------------------------------------ budgets, usage


BUDGET = "id action period alertThresholds limit { micro } scope { kind id name } "
BUDGET += "status { spent { micro } limit { micro } percentUsed exceeded crossedThresholds periodStart periodEnd }"


async def budget_set(g: Gql, scope: dict[str, Any], limit: int, action: str = "BLOCK", **extra: Any) -> Any:
    data = await g(
        f"mutation($input: BudgetSetInput!) {{ budgetSet(input: $input) {{ budget {{ {BUDGET} }} "
        "errors { code field message } } }",
        input={"scope": scope, "limitMicro": limit, "action": action, **extra},
    )
    return data["budgetSet"]


async def charge(container: Any, w: World, user: UUID, group: UUID, micro: int) -> None:
    """What metering does: a charge from the user's wallet, attributed to user, group and org."""
    await credits.charge_wallet(
        container.credits.ledger,
        container.clock,
        container.ids,
        wallet=AccountRef.user(user),
        chain=ScopeChain(user, group, w.org_a),
        amount_micro=micro,
        idempotency_key=f"test-charge:{uuid.uuid4()}",
    )


async def test_budgets_crud_with_status_and_the_gate(client: httpx.AsyncClient, container: Any) -> None:
    w = await build_world(container)  # a world of its own: spend is per period, not per test
    oa, ga, member = (Gql(client, w.tokens[r]) for r in ("org_admin", "group_admin", "member"))
    ok(await allocate(Gql(client, w.tokens["super_admin"]), SYSTEM_ACCOUNT, org(w.org_a), 100 * C))
    ok(await allocate(oa, org(w.org_a), grp(w.g1), 90 * C))
    ok(await allocate(ga, grp(w.g1), usr(w.users["member"]), 80 * C))
    g1 = {"kind": "GROUP", "id": gid("Group", w.g1)}

    created = ok(await budget_set(ga, g1, 100 * C, "BLOCK", alertThresholds=[50, 90]))["budget"]
    assert created["scope"] == {"kind": "GROUP", "id": gid("Group", w.g1), "name": "G1"}
    assert created["period"] == "MONTHLY" and created["alertThresholds"] == [50, 90]
    assert created["status"]["spent"]["micro"] == 0 and created["status"]["exceeded"] is False

    await charge(container, w, w.users["member"], w.g1, 60 * C)
    listed = (await member(f"query($s: ScopeInput!) {{ budgets(scope: $s) {{ {BUDGET} }} }}", s=g1))["budgets"]
    assert len(listed) == 1
    status = listed[0]["status"]
    assert status["spent"]["micro"] == 60 * C and status["limit"]["micro"] == 100 * C
    assert status["percentUsed"] == 60.0 and status["crossedThresholds"] == [50] and not status["exceeded"]
    assert status["periodStart"] < status["periodEnd"]

    gate_q = (
        "query($u: ID, $g: ID) { budgetGate(userId: $u, groupId: $g) { allowed message "
        "statuses { scopeName budget { id } } warnings { scopeName } refusal { scopeName limit { micro } } } }"
    )
    # by default the member's active group is judged: G1, the first group it was created into
    gate = (await member(gate_q))["budgetGate"]
    assert gate["allowed"] and gate["warnings"] == [{"scopeName": "G1"}] and gate["refusal"] is None
    gate = (await member(gate_q, g=gid("Group", w.g1)))["budgetGate"]
    assert gate["allowed"] and gate["warnings"] == [{"scopeName": "G1"}] and gate["refusal"] is None

    # replacing lowers the limit below the spend: a BLOCK budget now refuses
    replaced = ok(await budget_set(ga, g1, 60 * C, "BLOCK"))["budget"]
    assert replaced["id"] == created["id"] and replaced["status"]["exceeded"]
    gate = (await ga(gate_q, u=gid("User", w.users["member"]), g=gid("Group", w.g1)))["budgetGate"]
    assert not gate["allowed"] and gate["refusal"]["scopeName"] == "G1" and "G1" in gate["message"]
    # a user-level WARN budget comes first in the chain
    ok(await budget_set(ga, {"kind": "USER", "id": gid("User", w.users["member"])}, 10 * C, "WARN"))
    gate = (await member(gate_q, g=gid("Group", w.g1)))["budgetGate"]
    assert gate["statuses"][0]["scopeName"] == (await member("{ me { username } }"))["me"]["username"]
    # another user's gate is for the admins above them only
    body = await Gql(oa.client, w.tokens["foreign_admin"]).raw(gate_q, u=gid("User", w.users["member"]))
    assert body["errors"][0]["extensions"] == {"code": "NOT_FOUND", "field": "userId", "requestId": ANY}

    # who may set: not a member, not a group admin for the organisation, not another org's admin
    assert refused(await budget_set(member, g1, C)) == ("PERMISSION_DENIED", "scope")
    assert refused(await budget_set(ga, {"kind": "ORGANIZATION", "id": gid("Organization", w.org_a)}, C)) == (
        "PERMISSION_DENIED",
        "scope",
    )
    foreign = Gql(oa.client, w.tokens["foreign_admin"])
    assert refused(await budget_set(foreign, g1, C)) == ("NOT_FOUND", "scope")  # out of reach: as if missing
    assert refused(await budget_set(oa, g1, -1))[0:2] == ("INVALID_VALUE", "limitMicro")
    assert refused(await budget_set(oa, g1, C, alertThresholds=[80, 50])) == ("INVALID_VALUE", "alertThresholds")
    assert refused(await budget_set(oa, {"kind": "GLOBAL"}, C)) == ("INVALID_VALUE", "scope.kind")
    assert refused(await budget_set(oa, {"kind": "GROUP", "id": "x"}, C)) == ("NOT_FOUND", "scope.id")

    delete_q = "mutation($input: IdInput!) { budgetDelete(input: $input) { deletedId errors { code field } } }"
    assert refused((await member(delete_q, input={"id": created["id"]}))["budgetDelete"])[0] == "PERMISSION_DENIED"
    assert (await oa(delete_q, input={"id": created["id"]}))["budgetDelete"] == {
        "deletedId": created["id"],
        "errors": [],
    }
    assert (await member("query($s: ScopeInput!) { budgets(scope: $s) { id } }", s=g1))["budgets"] == []
    assert refused((await oa(delete_q, input={"id": created["id"]}))["budgetDelete"])[0] == "NOT_FOUND"

    ops = {e["operation"]: e for e in [*await audit(ga, "budgetSet"), *await audit(ga, "budgetDelete")]}
    assert ops["budgetSet"]["success"] and ops["budgetSet"]["targetType"] == "Budget"
    assert ops["budgetDelete"]["targetId"] == node_id(created["id"])


async def test_usage_by_scope_with_breakdowns(client: httpx.AsyncClient, container: Any) -> None:
    w = await build_world(container)
    oa = Gql(client, w.tokens["org_admin"])
    sup = Gql(oa.client, w.tokens["super_admin"])
    ga = Gql(oa.client, w.tokens["group_admin"])
    ok(await allocate(sup, SYSTEM_ACCOUNT, org(w.org_a), 100 * C))
    ok(await allocate(oa, org(w.org_a), grp(w.g1), 100 * C))
    for u in (w.users["member"], w.users["group_admin"]):
        ok(await allocate(ga, grp(w.g1), usr(u), 40 * C))
    await charge(container, w, w.users["member"], w.g1, 7 * C)
    await charge(container, w, w.users["group_admin"], w.g1, 3 * C)

    q = (
        "query($s: ScopeInput!, $by: ScopeKind, $since: DateTime, $until: DateTime) "
        "{ usageBySope: usageByScope(scope: $s, by: $by, since: $since, until: $until) "
        "{ scope { kind name } spent { micro credits } since until breakdown { scope { kind id } spent { micro } } } }"
    )
    org_scope = {"kind": "ORGANIZATION", "id": gid("Organization", w.org_a)}
    by_group = (await oa(q, s=org_scope, by="GROUP"))["usageBySope"]
    assert by_group["spent"] == {"micro": 10 * C, "credits": "10"}
    assert by_group["breakdown"] == [{"scope": {"kind": "GROUP", "id": gid("Group", w.g1)}, "spent": {"micro": 10 * C}}]
    by_user = (await oa(q, s=org_scope, by="USER"))["usageBySope"]
    assert [(r["scope"]["id"], r["spent"]["micro"]) for r in by_user["breakdown"]] == [
        (gid("User", w.users["member"]), 7 * C),
        (gid("User", w.users["group_admin"]), 3 * C),
    ]
    g1_scope = {"kind": "GROUP", "id": gid("Group", w.g1)}
    assert (await ga(q, s=g1_scope))["usageBySope"]["spent"]["micro"] == 10 * C
    member = Gql(oa.client, w.tokens["member"])
    own = (await member(q, s={"kind": "USER", "id": gid("User", w.users["member"])}))["usageBySope"]
    assert own["spent"]["micro"] == 7 * C
    # an empty window, a scope one may not see, a split that is not finer
    past = (await oa(q, s=org_scope, since="2000-01-01T00:00:00Z", until="2000-02-01T00:00:00Z"))["usageBySope"]
    assert past["spent"]["micro"] == 0
    body = await member.raw(q, s=org_scope)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    body = await ga.raw(q, s=g1_scope, by="GROUP")
    assert body["errors"][0]["extensions"]["field"] == "by"


# ---------------------------------------------------------------------------- refills


async def test_refill_schedules_create_list_pause(as_: Any, w: World) -> None:
    ga, oa = as_("group_admin"), as_("org_admin")
    create_q = (
        "mutation($input: RefillScheduleCreateInput!) { refillScheduleCreate(input: $input) "
        "{ refillSchedule { id mode cadence anchorDay active amount { micro } source { kind ownerId } "
        "target { kind } membersOfGroupId } errors { code field message } } }"
    )
    members = ok(
        (
            await ga(
                create_q,
                input={
                    "source": grp(w.g1),
                    "membersOfGroupId": gid("Group", w.g1),
                    "amountMicro": 500 * C,
                    "cadence": "MONTHLY",
                    "anchorDay": 1,
                },
            )
        )["refillScheduleCreate"]
    )["refillSchedule"]
    assert members["mode"] == "GRANT" and members["membersOfGroupId"] == gid("Group", w.g1)
    assert members["target"] is None and members["active"]
    top_up = ok(
        (
            await oa(
                create_q,
                input={
                    "source": org(w.org_a),
                    "target": grp(w.g2),
                    "mode": "TOP_UP",
                    "amountMicro": 1000 * C,
                    "cadence": "WEEKLY",
                    "anchorDay": 0,
                },
            )
        )["refillScheduleCreate"]
    )["refillSchedule"]
    assert top_up["target"] == {"kind": "GROUP"}

    # refusals: the group admin cannot refill from the organisation; bad day; two targets
    def inp(**kw: Any) -> dict[str, Any]:
        return {"source": org(w.org_a), "target": grp(w.g1), "amountMicro": C, **kw}

    assert refused((await ga(create_q, input=inp()))["refillScheduleCreate"]) == ("PERMISSION_DENIED", "source")
    assert refused((await oa(create_q, input=inp(anchorDay=31)))["refillScheduleCreate"]) == (
        "INVALID_VALUE",
        "anchorDay",
    )
    assert (
        refused((await oa(create_q, input=inp(membersOfGroupId=gid("Group", w.g1))))["refillScheduleCreate"])[0]
        == "INVALID_VALUE"
    )

    list_q = "{ refillSchedules(first: 100) { totalCount nodes { id active } } }"
    ga_ids = {n["id"] for n in (await ga(list_q))["refillSchedules"]["nodes"]}
    assert members["id"] in ga_ids and top_up["id"] not in ga_ids
    oa_ids = {n["id"] for n in (await oa(list_q))["refillSchedules"]["nodes"]}
    assert {members["id"], top_up["id"]} <= oa_ids
    assert (await as_("member")(list_q))["refillSchedules"]["totalCount"] == 0

    set_q = (
        "mutation($input: RefillScheduleSetActiveInput!) { refillScheduleSetActive(input: $input) "
        "{ refillSchedule { id active } errors { code field } } }"
    )
    paused = ok((await ga(set_q, input={"id": members["id"], "active": False}))["refillScheduleSetActive"])
    assert paused["refillSchedule"] == {"id": members["id"], "active": False}
    node = await ga("query($id: ID!) { node(id: $id) { ... on RefillSchedule { active } } }", id=members["id"])
    assert node["node"] == {"active": False}
    assert refused((await ga(set_q, input={"id": top_up["id"], "active": False}))["refillScheduleSetActive"])[0] == (
        "NOT_FOUND"
    )
    for op in ("refillScheduleCreate", "refillScheduleSetActive"):
        assert [e for e in await audit(oa, op) if e["success"] and e["targetId"] == node_id(members["id"])], op


async def test_my_wallet_shows_what_open_holds_reserve(as_: Any, w: World, container: Any) -> None:
    member = as_("member")
    await fund_org(as_, w, 20 * C)
    ok(await allocate(as_("org_admin"), org(w.org_a), grp(w.g1), 20 * C))
    ok(await allocate(as_("group_admin"), grp(w.g1), usr(w.users["member"]), 20 * C))
    cr = container.credits
    hold = await credits.reserve_hold(
        cr.ledger,
        container.clock,
        container.ids,
        chain=ScopeChain(w.users["member"], w.g1, w.org_a),
        amount_micro=3_250_000,
        idempotency_key=f"test-hold:{uuid.uuid4()}",
        memo="session x",
    )
    q = (
        "query($closed: Boolean!) { myWallet { balance { micro } held { micro } available { micro } "
        "holds(includeClosed: $closed) { id status memo amount { micro } reserved { micro } charged { micro } } } }"
    )
    mine = (await member(q, closed=False))["myWallet"]
    assert mine["held"]["micro"] >= 3_250_000
    assert int(mine["available"]["micro"]) == int(mine["balance"]["micro"]) - int(mine["held"]["micro"])
    ours = [h for h in mine["holds"] if node_id(h["id"]) == str(hold.hold.id)]
    assert ours == [
        {
            "id": ours[0]["id"],
            "status": "OPEN",
            "memo": "session x",
            "amount": {"micro": 3_250_000},
            "reserved": {"micro": 3_250_000},
            "charged": {"micro": 0},
        }
    ]
    node_q = "query($id: ID!) { node(id: $id) { ... on CreditHold { status } } }"
    assert (await as_("group_admin")(node_q, id=ours[0]["id"]))["node"] == {"status": "OPEN"}
    assert (await as_("foreign_admin")(node_q, id=ours[0]["id"]))["node"] is None

    await credits.release_hold(cr.ledger, container.clock, hold_id=hold.hold.id)
    after = (await member(q, closed=False))["myWallet"]
    assert not [h for h in after["holds"] if node_id(h["id"]) == str(hold.hold.id)]
    assert int(after["held"]["micro"]) == int(mine["held"]["micro"]) - 3_250_000
    closed = (await member(q, closed=True))["myWallet"]["holds"]
    assert [h["status"] for h in closed if node_id(h["id"]) == str(hold.hold.id)] == ["RELEASED"]


def rows(connection: dict[str, Any]) -> list[Any]:
    return connection.get("edges") or connection.get("nodes") or []


async def test_history_and_account_lists_do_not_grow_in_statements_with_the_page(
    as_: Any, w: World, container: Any
) -> None:
    from tests.integration.api.test_query_count import statements

    oa = as_("org_admin")
    await fund_org(as_, w, 100 * C)
    g = await fresh_group(container, w)
    for _ in range(12):
        uid, _ = await make_user(container, w.org_a, unique("many"), groups=[g])
        ok(await allocate(oa, org(w.org_a), grp(g), C))
        ok(await allocate(oa, grp(g), usr(uid), C))
    history = (
        "query($a: AccountInput, $first: Int) { ledgerHistory(account: $a, first: $first) { edges { node { "
        "source { name accountId ownerId } destination { name kind } amount { micro } } } } }"
    )
    accounts = (
        "query($g: ID, $first: Int) { accounts(groupId: $g, first: $first) "
        "{ nodes { name kind ownerId balance { micro } available { micro } } } }"
    )
    await oa(history, a=grp(g), first=1)  # warm up: the token's last-used stamp is written once a minute
    for query, args, key in ((history, {"a": grp(g)}, "ledgerHistory"), (accounts, {"g": gid("Group", g)}, "accounts")):
        with statements(container) as small:
            a = await oa(query, first=2, **args)
        with statements(container) as large:
            b = await oa(query, first=12, **args)
        assert len(rows(a[key])) == 2 and len(rows(b[key])) == 12
        assert len(large) == len(small), (key, len(small), len(large))
