"""A cached credential never outlives a change made through this process: the next request
after a revoke, a logout, a role change or an active-group switch sees the new state."""

from __future__ import annotations

from typing import Any

from tests.support.api import Gql, World, gid, make_user, unique

ME = "query { me { username activeGroup { id } memberships { role group { id } } } }"


async def test_changes_reach_the_next_request_at_once(http: Any, container: Any, world: World) -> None:
    uid, token = await make_user(container, world.org_a, unique("cache"), groups=[world.g1, world.g2])
    me = Gql(http, token)
    admin = Gql(http, world.tokens["org_admin"])
    first = ((await me(ME))["me"]["activeGroup"] or {}).get("id")
    hits = container.actors.hits
    await me(ME)
    assert container.actors.hits > hits  # the second request was served from the cache

    switch_to = gid("Group", world.g1 if first == gid("Group", world.g2) else world.g2)
    await me("mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=switch_to)
    assert (await me(ME))["me"]["activeGroup"]["id"] == switch_to

    await admin(
        "mutation($i: MembershipSetInput!) { membershipSet(input: $i) { errors { code } } }",
        i={"userId": gid("User", uid), "groupId": gid("Group", world.g1), "role": "GROUP_ADMIN"},
    )
    roles = {m["group"]["id"]: m["role"] for m in (await me(ME))["me"]["memberships"]}
    assert roles[gid("Group", world.g1)] == "GROUP_ADMIN"

    second = (
        await me(
            'mutation { personalAccessTokenCreate(input: {name: "two", scope: READ_WRITE}) { secret token { id } } }'
        )
    )["personalAccessTokenCreate"]
    other = Gql(http, second["secret"])
    assert (await other(ME))["me"]["username"]
    await me(
        "mutation($i: IdInput!) { personalAccessTokenRevoke(input: $i) { errors { code } } }",
        i={"id": second["token"]["id"]},
    )
    refused = await other.raw(ME)
    assert refused.get("errors") or not (refused.get("data") or {}).get("me")


async def test_logout_ends_a_cached_cookie_at_once(http: Any, container: Any, world: World) -> None:
    name = unique("cookie")
    await make_user(container, world.org_a, name, groups=[world.g1], password="a-long-password-1")
    login = await http.post(
        "/graphql",
        json={
            "query": 'mutation($u: String!) { login(input: {username: $u, password: "a-long-password-1"}) { errors { code } } }',
            "variables": {"u": name},
        },
    )
    assert login.json()["data"]["login"]["errors"] == []
    cookies = {"cookie": "; ".join(f"{k}={v}" for k, v in login.cookies.items())}
    for _ in range(2):
        r = await http.post("/graphql", json={"query": "query { me { username } }"}, headers=cookies)
        assert r.json()["data"]["me"]["username"] == name
    out = await http.post("/graphql", json={"query": "mutation { logout { errors { code } } }"}, headers=cookies)
    assert out.json()["data"]["logout"]["errors"] == []
    after = (await http.post("/graphql", json={"query": "query { me { username } }"}, headers=cookies)).json()
    assert after.get("errors") or not (after.get("data") or {}).get("me")
