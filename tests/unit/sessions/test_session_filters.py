"""Which sessions an actor sees and which lists show them: the pure rules of the sessions
context (event payloads and topics too)."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from domain.sessions import services as s
from domain.sessions.model import SessionState
from domain.sessions.ports import SessionFilter
from domain.tenancy.model import Actor, Group, Role
from tests.unit.sessions.test_remaining_time import T0, session

ORG, OTHER = UUID(int=1), UUID(int=2)
G, G2, H = UUID(int=11), UUID(int=12), UUID(int=21)  # G, G2 in ORG; H in OTHER
SUPER = Actor(UUID(int=100), "root", is_super_admin=True)
ORG_ADMIN = Actor(UUID(int=101), "oa", org_admin_of=frozenset({ORG}))
GROUP_ADMIN = Actor(
    UUID(int=102), "ga", group_roles={G: Role.GROUP_ADMIN, H: Role.MEMBER}, group_orgs={G: ORG, H: OTHER}
)
MEMBER = Actor(UUID(int=103), "m", group_roles={G: Role.MEMBER}, group_orgs={G: ORG})
RUNNING = frozenset({SessionState.RUNNING})


def group(gid: UUID, org: UUID) -> Group:
    return Group(gid, org, "g", T0)


def test_who_sees_a_session() -> None:
    mine = replace(session(SessionState.RUNNING), owner_id=MEMBER.user_id, group_id=G, organization_id=ORG)
    theirs = replace(mine, owner_id=UUID(int=999))
    elsewhere = replace(theirs, group_id=G2)
    assert [s.can_see_session(a, mine) for a in (SUPER, ORG_ADMIN, GROUP_ADMIN, MEMBER)] == [True] * 4
    assert [s.can_see_session(a, theirs) for a in (SUPER, ORG_ADMIN, GROUP_ADMIN, MEMBER)] == [True, True, True, False]
    assert [s.can_see_session(a, elsewhere) for a in (SUPER, ORG_ADMIN, GROUP_ADMIN, MEMBER)] == [
        True,
        True,
        False,
        False,
    ]
    assert s.session_event(mine) == {
        "sessionId": str(mine.id),
        "state": "RUNNING",
        "ownerId": str(MEMBER.user_id),
        "groupId": str(G),
        "organizationId": str(ORG),
    }
    u = UUID(int=7)
    assert (s.session_topic(u), s.owner_topic(u), s.wallet_topic(u), s.notifications_topic(u)) == (
        f"session:{u}", f"sessions-of:{u}", f"wallet:{u}", f"notifications:{u}",
    )  # fmt: skip
    assert (s.CAPACITY_TOPIC, s.QUEUE_TOPIC, s.APPROVALS_TOPIC) == ("capacity", "queue", "approvals")


def test_the_admin_list_reaches_what_the_actor_administers_narrowed_by_what_is_asked() -> None:
    f = s.admin_session_filter
    assert f(SUPER) == SessionFilter()
    assert f(SUPER, organization_id=ORG, states=RUNNING) == SessionFilter(
        organization_ids=frozenset({ORG}), states=RUNNING
    )
    assert f(SUPER, group=group(G, ORG)) == SessionFilter(group_ids=frozenset({G}))
    assert f(SUPER, organization_id=OTHER, group=group(G, ORG)) == SessionFilter(group_ids=frozenset())
    assert f(ORG_ADMIN) == SessionFilter(organization_ids=frozenset({ORG}), group_ids=frozenset())
    assert f(ORG_ADMIN, organization_id=ORG) == SessionFilter(organization_ids=frozenset({ORG}))
    assert f(ORG_ADMIN, group=group(G2, ORG), states=RUNNING) == SessionFilter(
        group_ids=frozenset({G2}), states=RUNNING
    )
    assert f(GROUP_ADMIN) == SessionFilter(organization_ids=frozenset(), group_ids=frozenset({G}))
    assert f(GROUP_ADMIN, organization_id=ORG) == SessionFilter(organization_ids=frozenset(), group_ids=frozenset({G}))
    # a group admin asking about another organisation sees only their own sessions there
    assert f(GROUP_ADMIN, organization_id=OTHER) == SessionFilter(
        owner_id=GROUP_ADMIN.user_id, organization_ids=frozenset({OTHER})
    )
    assert f(GROUP_ADMIN, group=group(H, OTHER)) == SessionFilter(
        owner_id=GROUP_ADMIN.user_id, group_ids=frozenset({H})
    )
    assert f(MEMBER) == SessionFilter(owner_id=MEMBER.user_id)
    assert f(MEMBER, organization_id=ORG, states=RUNNING) == SessionFilter(
        owner_id=MEMBER.user_id, organization_ids=frozenset({ORG}), states=RUNNING
    )


def test_the_approvals_list() -> None:
    pending = frozenset({SessionState.PENDING_APPROVAL})
    assert s.approvals_filter(SUPER) == SessionFilter(states=pending)
    assert s.approvals_filter(ORG_ADMIN) == SessionFilter(
        organization_ids=frozenset({ORG}), group_ids=frozenset(), states=pending
    )
    assert s.approvals_filter(GROUP_ADMIN) == SessionFilter(
        organization_ids=frozenset(), group_ids=frozenset({G}), states=pending
    )
    assert s.approvals_filter(MEMBER) is None


def test_every_admin_list_keeps_the_asked_states() -> None:
    f = s.admin_session_filter
    for actor, kw in [
        (SUPER, {"organization_id": OTHER, "group": group(G, ORG)}),  # a group outside the asked organisation
        (SUPER, {"group": group(G, ORG)}),
        (GROUP_ADMIN, {"group": group(H, OTHER)}),
        (ORG_ADMIN, {"organization_id": ORG}),
        (ORG_ADMIN, {}),
        (GROUP_ADMIN, {}),
        (MEMBER, {}),
    ]:
        assert f(actor, states=RUNNING, **kw).states == RUNNING, (actor.username, kw)  # type: ignore[arg-type]
