"""The policies API over HTTP (in-process ASGI app, real PostgreSQL): who may set which scope's
policy, the policy list and node, the effective view field by field with its source scope
(a user-level idle timeout beats the group's, which beats the organisation's), and the audit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from unittest.mock import ANY

import httpx
import pytest

from tests.integration.api.test_credits_api import build_app, node_id
from tests.support.api import Gql, World, build_world, gid

POLICY = (
    "id scope { kind id name } maxConcurrentSessions maxGpus modelCaps { model cards } maxVramMib "
    "maxCpuMillicores maxMemoryMib storageQuotaMib idleTimeoutSeconds maxSessionSeconds approvalRequired "
    "defaultPriority preemptible allowedClusters updatedAt updatedBy"
)
SET = f"mutation($input: PolicySetInput!) {{ policySet(input: $input) {{ policy {{ {POLICY} }} errors {{ code field message }} }} }}"
DELETE = (
    "mutation($input: PolicyDeleteInput!) { policyDelete(input: $input) { deletedId errors { code field message } } }"
)
EFFECTIVE = """query($u: ID, $g: ID) { effectivePolicy(userId: $u, groupId: $g) {
  chain { kind id }
  idleTimeoutSeconds { value source { kind id name } }
  maxSessionSeconds { value source { kind } }
  approvalRequired { value source { kind } }
  defaultPriority { value source { kind } }
  preemptible { value source { kind } }
  limits { field scope { kind id } value model }
  allowedClusters
  allowedClustersSources { kind }
} }"""


@pytest.fixture(scope="module")
async def client(container: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=build_app(container))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(scope="module")
async def w(container: Any) -> World:
    return await build_world(container)


@pytest.fixture(scope="module")
def as_(client: httpx.AsyncClient, w: World) -> Any:
    return lambda role: Gql(client, w.tokens[role])


def scope(kind: str, type_name: str | None = None, value: Any = None) -> dict[str, Any]:
    return {"kind": kind} if type_name is None else {"kind": kind, "id": gid(type_name, value)}


async def policy_set(g: Gql, s: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return (await g(SET, input={"scope": s, **fields}))["policySet"]  # type: ignore[no-any-return]


async def policy_delete(g: Gql, s: dict[str, Any]) -> dict[str, Any]:
    return (await g(DELETE, input={"scope": s}))["policyDelete"]  # type: ignore[no-any-return]


def ok(payload: dict[str, Any]) -> dict[str, Any]:
    assert payload["errors"] == [], payload["errors"]
    return payload


def refused(payload: dict[str, Any]) -> tuple[str, str | None]:
    assert payload["errors"], payload
    return payload["errors"][0]["code"], payload["errors"][0]["field"]


async def audit(g: Gql, operation: str) -> list[dict[str, Any]]:
    data = await g(
        "query($f: AuditFilterInput) { auditLog(filter: $f, first: 100) "
        "{ nodes { operation success resultCode targetType targetId } } }",
        f={"operation": operation},
    )
    return data["auditLog"]["nodes"]  # type: ignore[no-any-return]


async def test_the_most_specific_idle_timeout_wins_field_by_field(as_: Any, w: World) -> None:
    oa, ga, member = as_("org_admin"), as_("group_admin"), as_("member")
    org_a = scope("ORGANIZATION", "Organization", w.org_a)
    g1 = scope("GROUP", "Group", w.g1)
    me = scope("USER", "User", w.users["member"])

    org_policy = ok(await policy_set(oa, org_a, idleTimeoutSeconds=3600, maxSessionSeconds=86400, maxGpus="8"))
    assert org_policy["policy"]["scope"] == {
        "kind": "ORGANIZATION",
        "id": gid("Organization", w.org_a),
        "name": org_policy["policy"]["scope"]["name"],
    }
    group_policy = ok(
        await policy_set(
            oa,
            g1,
            idleTimeoutSeconds=1800,
            maxGpus="2.5",
            modelCaps=[{"model": "A100", "cards": "4"}, {"model": "T4", "cards": "1/3"}],
            approvalRequired=True,
            allowedClusters=["east", "west"],
        )
    )["policy"]
    assert group_policy["maxGpus"] == "2.5"
    assert group_policy["modelCaps"] == [{"model": "A100", "cards": "4"}, {"model": "T4", "cards": "1/3"}]
    assert group_policy["allowedClusters"] == ["east", "west"]
    assert group_policy["updatedBy"] == gid("User", w.users["org_admin"]) and group_policy["updatedAt"]
    ok(await policy_set(ga, me, idleTimeoutSeconds=600))

    eff = (await member(EFFECTIVE, g=gid("Group", w.g1)))["effectivePolicy"]
    assert [c["kind"] for c in eff["chain"]] == ["USER", "GROUP", "ORGANIZATION", "GLOBAL"]
    assert eff["idleTimeoutSeconds"]["value"] == 600
    assert eff["idleTimeoutSeconds"]["source"]["kind"] == "USER"
    assert eff["idleTimeoutSeconds"]["source"]["id"] == gid("User", w.users["member"])
    assert eff["maxSessionSeconds"] == {"value": 86400, "source": {"kind": "ORGANIZATION"}}
    assert eff["approvalRequired"] == {"value": True, "source": {"kind": "GROUP"}}
    assert eff["defaultPriority"] == {"value": 0, "source": None}  # built-in default
    assert eff["allowedClusters"] == ["east", "west"] and eff["allowedClustersSources"] == [{"kind": "GROUP"}]
    limits = {(x["field"], x["scope"]["kind"], x["model"]): x["value"] for x in eff["limits"]}
    assert limits[("maxGpus", "GROUP", None)] == "2.5"
    assert limits[("maxGpus", "ORGANIZATION", None)] == "8"  # aggregate limits apply at every level
    assert limits[("modelCaps", "GROUP", "A100")] == "4"

    # without the user's own setting, the group's applies; without the group's, the organisation's
    ok(await policy_delete(ga, me))
    eff = (await ga(EFFECTIVE, u=gid("User", w.users["member"]), g=gid("Group", w.g1)))["effectivePolicy"]
    assert eff["idleTimeoutSeconds"]["value"] == 1800 and eff["idleTimeoutSeconds"]["source"]["kind"] == "GROUP"
    deleted = ok(await policy_delete(oa, g1))
    assert node_id(deleted["deletedId"]) == f"group:{w.g1}"
    eff = (await member(EFFECTIVE, g=gid("Group", w.g1)))["effectivePolicy"]
    assert eff["idleTimeoutSeconds"]["value"] == 3600
    assert eff["idleTimeoutSeconds"]["source"]["kind"] == "ORGANIZATION"
    assert eff["allowedClusters"] is None

    # every change is audited with its scope, visible to the organisation's admins
    sets = [e for e in await audit(oa, "policySet") if e["success"]]
    assert {f"organization:{w.org_a}", f"group:{w.g1}", f"user:{w.users['member']}"} <= {e["targetId"] for e in sets}
    deletes = [e for e in await audit(ga, "policyDelete") if e["success"]]
    assert f"user:{w.users['member']}" in {e["targetId"] for e in deletes}
    assert all(e["targetType"] == "ResourcePolicy" for e in sets + deletes)
    ok(await policy_delete(oa, org_a))


async def test_who_may_set_which_policy(as_: Any, w: World) -> None:
    g1 = scope("GROUP", "Group", w.g1)
    org_a = scope("ORGANIZATION", "Organization", w.org_a)
    me = scope("USER", "User", w.users["member"])
    # a group admin may not raise their own group's caps, nor touch the organisation or the deployment
    assert refused(await policy_set(as_("group_admin"), g1, maxGpus="100")) == ("PERMISSION_DENIED", "scope")
    assert refused(await policy_set(as_("group_admin"), org_a, maxGpus="100")) == ("PERMISSION_DENIED", "scope")
    assert refused(await policy_set(as_("org_admin"), scope("GLOBAL"), maxGpus="100")) == (
        "PERMISSION_DENIED",
        "scope",
    )
    # a member may not set their own policy; to another organisation's admin our group does not exist
    assert refused(await policy_set(as_("member"), me, idleTimeoutSeconds=99999)) == ("PERMISSION_DENIED", "scope")
    assert refused(await policy_set(as_("foreign_admin"), g1, maxGpus="1")) == ("NOT_FOUND", "scope")
    # bad values name their field
    assert refused(await policy_set(as_("org_admin"), g1, maxGpus="lots")) == ("INVALID_VALUE", "maxGpus")
    assert refused(await policy_set(as_("org_admin"), g1, idleTimeoutSeconds=-1)) == (
        "INVALID_VALUE",
        "idleTimeoutSeconds",
    )
    assert refused(await policy_set(as_("org_admin"), g1, modelCaps=[{"model": "A100", "cards": "-1"}])) == (
        "INVALID_VALUE",
        "modelCaps",
    )
    assert refused(await policy_set(as_("org_admin"), {"kind": "GLOBAL", "id": gid("Group", w.g1)})) == (
        "INVALID_VALUE",
        "scope.id",
    )
    assert refused(await policy_set(as_("org_admin"), {"kind": "GROUP", "id": "zzz"})) == ("NOT_FOUND", "scope.id")
    assert refused(await policy_delete(as_("org_admin"), g1)) == ("NOT_FOUND", "scope")  # none set
    failures = [e for e in await audit(as_("org_admin"), "policySet") if not e["success"]]
    assert {"PERMISSION_DENIED", "INVALID_VALUE"} <= {e["resultCode"] for e in failures}


async def test_policies_list_node_and_visibility(as_: Any, w: World) -> None:
    g2 = scope("GROUP", "Group", w.g2)
    created = ok(await policy_set(as_("org_admin"), g2, maxConcurrentSessions=3, storageQuotaMib=10240))["policy"]
    try:
        listed = (await as_("org_admin")("{ policies(first: 100) { totalCount nodes { id } } }"))["policies"]
        assert created["id"] in {n["id"] for n in listed["nodes"]}
        foreign = (await as_("foreign_admin")("{ policies(first: 100) { nodes { id } } }"))["policies"]
        assert created["id"] not in {n["id"] for n in foreign["nodes"]}
        node_q = "query($id: ID!) { node(id: $id) { ... on ResourcePolicy { maxConcurrentSessions } } }"
        assert (await as_("org_admin")(node_q, id=created["id"]))["node"] == {"maxConcurrentSessions": 3}
        assert (await as_("foreign_admin")(node_q, id=created["id"]))["node"] is None
        one = "query($s: ScopeInput!) { policy(scope: $s) { storageQuotaMib } }"
        assert (await as_("org_admin")(one, s=g2))["policy"] == {"storageQuotaMib": 10240}
        assert (await as_("org_admin")(one, s=scope("GROUP", "Group", w.g1)))["policy"] is None
        body = await as_("foreign_member").raw(one, s=g2)
        assert body["errors"][0]["extensions"] == {"code": "NOT_FOUND", "field": "scope", "requestId": ANY}
    finally:
        ok(await policy_delete(as_("org_admin"), g2))


async def test_effective_policy_of_someone_else_is_for_their_admins(as_: Any, w: World) -> None:
    member = gid("User", w.users["member"])
    body = await as_("foreign_admin").raw(EFFECTIVE, u=member)
    assert body["errors"][0]["extensions"] == {"code": "NOT_FOUND", "field": "userId", "requestId": ANY}
    body = await as_("guest").raw(EFFECTIVE, u=member)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    body = await as_("group_admin").raw(EFFECTIVE, u=member, g=gid("Group", w.h))
    assert body["errors"][0]["extensions"] == {"code": "NOT_FOUND", "field": "groupId", "requestId": ANY}
    eff = (await as_("org_admin")(EFFECTIVE, u=member))["effectivePolicy"]
    assert eff["chain"][0] == {"kind": "USER", "id": member}


async def test_budget_and_policy_changes_on_a_scope_out_of_reach_answer_like_a_missing_one(
    as_: Any, w: World, container: Any
) -> None:
    """Issue 13, finding 4: budgetSet/budgetDelete/policySet/policyDelete on another
    organisation's group answered PERMISSION_DENIED, on a made-up one NOT_FOUND."""
    import uuid

    from domain.credits import services as credits
    from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
    from tests.support.api import SYSTEM

    c = container
    foreign_budget = await credits.set_budget(
        SYSTEM,
        c.credits.budgets,
        c.credits.directory,
        c.clock,
        c.ids,
        scope=BudgetScope(BudgetScopeKind.GROUP, w.h),
        limit_micro=10_000_000,
        action=BudgetAction.BLOCK,
    )
    budget_set = (
        "mutation($input: BudgetSetInput!) { budgetSet(input: $input) { budget { id } errors { code field message } } }"
    )
    budget_delete = (
        "mutation($input: IdInput!) { budgetDelete(input: $input) { deletedId errors { code field message } } }"
    )
    cases = {
        "budgetSet": lambda target: (budget_set, {"scope": target, "limitMicro": 1, "action": "WARN"}),
        "policySet": lambda target: (SET, {"scope": target, "maxConcurrentSessions": 1}),
        "policyDelete": lambda target: (DELETE, {"scope": target}),
    }
    for role in ("org_admin", "group_admin", "member", "guest"):
        for name, build in cases.items():
            answers = []
            for target in (scope("GROUP", "Group", w.h), scope("GROUP", "Group", uuid.uuid4())):
                query, payload = build(target)
                answers.append((await as_(role)(query, input=payload))[name]["errors"])
            assert answers[0] == answers[1], (role, name, answers)
            assert answers[0][0]["code"] == "NOT_FOUND", (role, name, answers)
        deleted = [
            (await as_(role)(budget_delete, input={"id": gid("Budget", b)}))["budgetDelete"]
            for b in (foreign_budget.id, uuid.uuid4())
        ]
        assert deleted[0] == deleted[1] and deleted[0]["errors"][0]["code"] == "NOT_FOUND", (role, deleted)


async def test_each_effective_limit_says_what_its_scope_uses_and_what_is_left(as_: Any, w: World) -> None:
    """Issue 18: session creation and the home page show the group's caps and what is left of
    them (the member's world has no sessions or volumes in this group: all of it is left)."""
    g1 = scope("GROUP", "Group", w.g1)
    ok(await policy_set(as_("org_admin"), g1, maxConcurrentSessions=3, maxGpus="2.5", storageQuotaMib=500))
    try:
        q = "query($g: ID) { effectivePolicy(groupId: $g) { limits { field scope { kind } value used remaining } } }"
        limits = (await as_("member")(q, g=gid("Group", w.g1)))["effectivePolicy"]["limits"]
        assert {x["field"]: (x["scope"]["kind"], x["value"], x["used"], x["remaining"]) for x in limits} == {
            "maxConcurrentSessions": ("GROUP", "3", "0", "3"),
            "maxGpus": ("GROUP", "2.5", "0", "2.5"),
            "storageQuotaMib": ("GROUP", "500", "0", "500"),
        }
    finally:
        ok(await policy_delete(as_("org_admin"), g1))
