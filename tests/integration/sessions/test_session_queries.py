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


async def test_a_filter_naming_a_scope_out_of_reach_answers_like_a_missing_one(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    """Issue 13, finding 4: `sessions(groupId:)` with another organisation's group returned
    that organisation's sessions (owners' e-mails, endpoints) to an org admin."""
    import uuid

    from domain.tenancy.services import load_actor
    from tests.support.api import fund_user, make_user, without_request_ids

    c = container
    cat = await catalog_for(c)
    uid, _ = await make_user(c, world.org_b, unique("far"), groups=[world.h])
    await fund_user(c, world.org_b, world.h, uid, 20)
    async with c.uow() as uow:
        far = await load_actor(uow, uid)
    assert far is not None
    from dataclasses import replace

    s = await sessions.session_create(
        c.sessions,
        replace(far, active_group_id=world.h),
        sessions.SessionRequest(name=unique("far"), image_id=cat["image"].id, preset_id=cat["cpu"].id),
    )
    q = "query($g: ID, $o: ID) { sessions(groupId: $g, organizationId: $o, first: 100) { nodes { id owner { email } } } }"
    try:
        for role in ("org_admin", "group_admin", "member", "guest"):
            gql = Gql(http, world.tokens[role])
            for arg, type_name, real in (("g", "Group", world.h), ("o", "Organization", world.org_b)):
                foreign = await gql.raw(q, **{arg: gid(type_name, real)})
                missing = await gql.raw(q, **{arg: gid(type_name, uuid.uuid4())})
                assert without_request_ids(foreign) == without_request_ids(missing), (role, arg, foreign)
                assert foreign["data"] is None and foreign["errors"][0]["extensions"]["code"] == "NOT_FOUND"
        # the scope's own admins and super admins still filter by it
        own = await Gql(http, world.tokens["foreign_admin"])(q, g=gid("Group", world.h))
        assert gid("Session", s.id) in {n["id"] for n in own["sessions"]["nodes"]}
        everything = await Gql(http, world.tokens["super_admin"])(q, o=gid("Organization", world.org_b))
        assert gid("Session", s.id) in {n["id"] for n in everything["sessions"]["nodes"]}
    finally:
        await sessions.session_stop(c.sessions, replace(far, active_group_id=world.h), s.id)


async def test_many_sessions_are_read_a_page_at_a_time_and_all_of_them(
    container: Any, world: World, runtime: Any, monkeypatch: Any
) -> None:
    """Issue 19: a periodic job's read of every running session came back in one result that
    the driver decoded in one stretch (215-285 ms for ~2,000 sessions, the loop blocked); now
    `active_in` and `get_many` read pages. Whatever the page size, the same sessions come back,
    in id order, and `get_many` locks each of them."""
    from sqlalchemy import select

    from domain.sessions.model import SessionState
    from infra.db.models.sessions import SessionRow
    from infra.db.repositories import sessions as repo

    c = container
    cat = await catalog_for(c)
    actor, _ = await member(c, world, world.g2, credits=20, approval=True, prefix="pg")
    made = [
        (
            await sessions.session_create(
                c.sessions,
                actor,
                sessions.SessionRequest(
                    name=unique("pg"),
                    image_id=cat["image"].id,
                    preset_id=cat["preset"].id,
                    offering_id=cat["offering"].id,
                ),
            )
        ).id
        for _ in range(5)
    ]
    states = frozenset({SessionState.PENDING_APPROVAL})
    async with c.uow() as uow:
        whole = await uow.sessions.active_in(states)
    monkeypatch.setattr(repo, "FETCH_PAGE", 2)
    async with c.uow() as uow:
        expected = sorted(
            (await uow.session.scalars(select(SessionRow.id).where(SessionRow.state == "PENDING_APPROVAL"))).all()
        )
        paged = await uow.sessions.active_in(states)
        assert [s.id for s in paged] == expected == [s.id for s in whole]
        assert set(made) <= set(expected)
        locked = await uow.sessions.get_many([*reversed(made), made[0]], for_update=True)
        assert [s.id for s in locked] == sorted(made)  # once each, in id order
        assert uow.sessions._locked >= set(made)
    for sid in made:
        await sessions.session_stop(c.sessions, actor, sid)
