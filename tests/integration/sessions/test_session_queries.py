"""Who sees which sessions through the API: owners their own, admins those of the scopes they
administer, nobody another organisation's; approvals go to the group's admins."""

from __future__ import annotations

from typing import Any

from domain.sessions import services as sessions
from tests.integration.sessions.test_lifecycle import catalog_for, member
from tests.support.api import Gql, World, gid, unique

LIST = "query { sessions(first: 100) { nodes { id name owner { username } } } }"
MINE = "query { mySessions(first: 100) { nodes { id } } }"
APPROVALS = "query { pendingApprovals(first: 100) { nodes { id } } }"


async def test_session_lists_follow_the_scopes_one_administers(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    actor, token = await member(c, world, world.g2, credits=20, approval=True, prefix="q")
    s = await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name=unique("q"), image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id
        ),
    )
    sid = gid("Session", s.id)

    def ids(data: dict[str, Any], key: str) -> set[str]:
        return {n["id"] for n in data[key]["nodes"]}

    assert sid in ids(await Gql(http, token)(MINE), "mySessions")
    assert sid in ids(await Gql(http, token)(LIST), "sessions")  # a non-admin's list is their own
    listed = (await Gql(http, world.tokens["org_admin"])(LIST))["sessions"]["nodes"]
    assert [n["owner"]["username"] for n in listed if n["id"] == sid] == [actor.username]
    assert sid in ids(await Gql(http, world.tokens["super_admin"])(LIST), "sessions")
    assert sid not in ids(await Gql(http, world.tokens["group_admin"])(LIST), "sessions")  # admin of G1, not G2
    assert sid not in ids(await Gql(http, world.tokens["foreign_admin"])(LIST), "sessions")
    assert sid not in ids(await Gql(http, world.tokens["member"])(LIST), "sessions")
    assert sid in ids(await Gql(http, world.tokens["org_admin"])(APPROVALS), "pendingApprovals")
    assert sid not in ids(await Gql(http, world.tokens["foreign_admin"])(APPROVALS), "pendingApprovals")
    assert ids(await Gql(http, world.tokens["member"])(APPROVALS), "pendingApprovals") == set()
    hidden = await Gql(http, world.tokens["foreign_admin"])("query($id: ID!) { node(id: $id) { id } }", id=sid)
    assert hidden == {"node": None}
    await sessions.session_stop(c.sessions, actor, s.id)
