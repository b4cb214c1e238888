"""Deleting a user (issue 18, admin screens): their personal data is removed (name, e-mail,
display name, password, tokens, memberships, roles), the ledger and the audit log keep
pointing at them; refusals are typed (yourself, the last super admin, a user with sessions or
personal volumes, someone out of reach) and audited."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.integration.api.test_credits_api import build_app
from tests.support.api import Gql, World, build_world, fund_user, gid, make_user, unique

DELETE = """mutation($id: ID!) { userDelete(input: {id: $id}) {
  user { id username email displayName isActive isSuperAdmin activeGroup { id } memberships { role } }
  errors { code field message params { name value } } } }"""


@pytest.fixture(scope="module")
async def client(container: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=build_app(container))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(scope="module")
async def w(container: Any) -> World:
    return await build_world(container)


def payload(body: dict[str, Any]) -> dict[str, Any]:
    return body["userDelete"]  # type: ignore[no-any-return]


async def test_a_deleted_user_loses_their_personal_data_and_keeps_their_ledger_and_audit(
    client: httpx.AsyncClient, w: World, container: Any
) -> None:
    name = unique("leaver")
    uid, token = await make_user(container, w.org_a, name, groups=[w.g1], password="a-long-password-1")
    await fund_user(container, w.org_a, w.g1, uid, 3)
    oa = Gql(client, w.tokens["org_admin"])
    leaver = Gql(client, token)
    assert (await leaver("{ me { username } }"))["me"]["username"] == name

    done = payload(await oa(DELETE, id=gid("User", uid)))
    assert done["errors"] == []
    short = uid.hex[:12]
    assert done["user"] == {
        "id": gid("User", uid),
        "username": f"deleted-{short}",
        "email": f"deleted-{uid.hex}@deleted.invalid",
        "displayName": "Deleted user",
        "isActive": False,
        "isSuperAdmin": False,
        "activeGroup": None,
        "memberships": [],
    }
    # their token no longer works, nor their password
    body = await leaver.raw("{ me { username } }")
    assert body.get("errors") or body["data"]["me"] is None, body
    login = "mutation($u: String!, $p: String!) { login(input: {username: $u, password: $p}) { errors { code } } }"
    refused = (await Gql(client)(login, u=name, p="a-long-password-1"))["login"]["errors"]
    assert refused and refused[0]["code"] == "INVALID_CREDENTIALS"

    sa = Gql(client, w.tokens["super_admin"])
    # the ledger keeps their wallet and its movements, now under the placeholder name
    wallet = (
        await sa(
            "query($id: ID!) { wallet(account: {kind: USER, id: $id}) { name balance { credits } } }",
            id=gid("User", uid),
        )
    )["wallet"]
    assert wallet == {"name": f"deleted-{short}", "balance": {"credits": "3"}}
    # the audit log keeps the entries about them, and records the deletion by its admin
    entries = (
        await sa(
            "query($t: String) { auditLog(filter: {targetId: $t}, first: 50) { nodes { operation success actorUserId } } }",
            t=str(uid),
        )
    )["auditLog"]["nodes"]
    assert {"operation": "userDelete", "success": True, "actorUserId": gid("User", w.users["org_admin"])} in entries


async def test_deleting_a_user_is_refused_with_a_typed_reason_and_audited(
    client: httpx.AsyncClient, w: World, container: Any
) -> None:
    oa = Gql(client, w.tokens["org_admin"])
    # yourself
    me = payload(await oa(DELETE, id=gid("User", w.users["org_admin"])))
    assert [(e["code"], e["field"]) for e in me["errors"]] == [("PERMISSION_DENIED", "id")]
    # a member may not delete a co-member; another organisation's admin does not see them
    victim, _ = await make_user(container, w.org_a, unique("kept"), groups=[w.g1])
    for role, code in (("member", "PERMISSION_DENIED"), ("foreign_admin", "NOT_FOUND")):
        got = payload(await Gql(client, w.tokens[role])(DELETE, id=gid("User", victim)))
        assert [(e["code"], e["field"]) for e in got["errors"]] == [(code, "id")], (role, got)
    # an org admin may not delete a super admin
    sa_target = payload(await oa(DELETE, id=gid("User", w.users["super_admin"])))
    assert [(e["code"], e["field"]) for e in sa_target["errors"]] == [("PERMISSION_DENIED", "id")]
    # nothing was written: the user is as they were
    still = (
        await oa(
            "query($id: ID!) { node(id: $id) { ... on User { isActive memberships { role } } } }",
            id=gid("User", victim),
        )
    )["node"]
    assert still["isActive"] is True and still["memberships"]
    failures = (
        await Gql(client, w.tokens["super_admin"])(
            '{ auditLog(filter: {operation: "userDelete", success: false}, first: 50) '
            "{ nodes { resultCode targetId } } }"
        )
    )["auditLog"]["nodes"]
    assert {"resultCode": "PERMISSION_DENIED", "targetId": str(w.users["org_admin"])} in failures


async def test_a_user_with_personal_volumes_is_not_deleted_until_they_are_gone(
    client: httpx.AsyncClient, w: World, container: Any
) -> None:
    from datetime import UTC, datetime

    from domain.volumes.model import StorageClass, Volume, VolumeScope

    uid, _ = await make_user(container, w.org_a, unique("keeper"), groups=[w.g1])
    volume = Volume(
        container.ids.new_id(),
        unique("data"),
        VolumeScope.PERSONAL,
        w.org_a,
        unique("erasure-test"),
        2048,
        uid,
        datetime.now(UTC),
        owner_id=uid,
    )
    async with container.uow() as uow:
        await uow.volumes.put_storage_class(StorageClass(volume.storage_class))
        await uow.volumes.add(volume)
        await uow.commit()
    got = payload(await Gql(client, w.tokens["org_admin"])(DELETE, id=gid("User", uid)))
    assert [(e["code"], e["field"]) for e in got["errors"]] == [("USER_HAS_ACTIVE_WORK", "id")]
    params = {p["name"]: p["value"] for p in got["errors"][0]["params"]}
    assert params["sessions"] == "0" and params["volumeMib"] == "2048"
    async with container.uow() as uow:
        await uow.volumes.delete(volume.id)
        await uow.commit()
    assert payload(await Gql(client, w.tokens["org_admin"])(DELETE, id=gid("User", uid)))["errors"] == []


async def test_a_deleted_users_notifications_and_user_policy_go_and_others_stay(
    client: httpx.AsyncClient, w: World, container: Any
) -> None:
    """Notifications name the user's sessions and what befell them: they go with the user, as
    does the user-scope policy (it names a user who no longer exists); another user's stay,
    and the audit log keeps the deletion."""
    from uuid import uuid4

    from domain.policies.model import PolicyScope, PolicyScopeKind, ResourcePolicy
    from domain.sessions.ports import Notification

    c = container
    leaver, _ = await make_user(c, w.org_a, unique("noted"), groups=[w.g1])
    stayer, _ = await make_user(c, w.org_a, unique("stays"), groups=[w.g1])
    async with c.uow() as uow:
        for uid in (leaver, stayer):
            await uow.notifications.add(
                Notification(uuid4(), uid, "session_stopped", "session thesis-run-7 stopped", c.clock.now(), uuid4())
            )
        await uow.commit()
    for uid in (leaver, stayer):
        await c.credits.policies.put(ResourcePolicy(PolicyScope(PolicyScopeKind.USER, uid), max_concurrent_sessions=2))

    done = payload(await Gql(client, w.tokens["org_admin"])(DELETE, id=gid("User", leaver)))
    assert done["errors"] == []

    async with c.uow() as uow:
        assert (await uow.notifications.of_user(leaver, 0, 10))[1] == 0
        kept, count = await uow.notifications.of_user(stayer, 0, 10)
    assert count == 1 and kept[0].message == "session thesis-run-7 stopped"
    assert await c.credits.policies.get(PolicyScope(PolicyScopeKind.USER, leaver)) is None
    still = await c.credits.policies.get(PolicyScope(PolicyScopeKind.USER, stayer))
    assert still is not None and still.max_concurrent_sessions == 2
    entries = (
        await Gql(client, w.tokens["super_admin"])(
            "query($t: String) { auditLog(filter: {targetId: $t}, first: 50) { nodes { operation success } } }",
            t=str(leaver),
        )
    )["auditLog"]["nodes"]
    assert {"operation": "userDelete", "success": True} in entries
