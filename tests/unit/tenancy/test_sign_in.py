"""Sign-in use cases on in-memory repositories: passwords, browser sessions, personal access
tokens, the first start's bootstrap and OIDC provisioning."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from domain.tenancy import services as t
from domain.tenancy.auth import LoginSession, PersonalAccessToken, TokenScope, digest
from domain.tenancy.model import Role
from domain.tenancy.services import Page
from tests.support.memory import InMemoryUnitOfWork
from tests.unit.tenancy.world import NOW, Hasher, Ids, World, refusal


@pytest.fixture
async def w() -> World:
    return await World.build()


async def test_a_password_sign_in_answers_alike_for_unknown_users_and_wrong_passwords(w: World) -> None:
    user = await t.authenticate_password(w.uow, w.hasher, "  MEMBER ", "member-password")
    assert user.id == w.users["member"].id
    wrong = ("INVALID_CREDENTIALS", "password", "wrong username or password")
    assert await refusal(t.authenticate_password(w.uow, w.hasher, "member", "nope")) == wrong
    assert await refusal(t.authenticate_password(w.uow, w.hasher, "nobody", "probe-1")) == wrong
    assert w.hasher.hashed == ["probe-1"]  # the unknown user costs a hash like a real check
    w.state.passwords[w.users["guest"].id] = None
    assert await refusal(t.authenticate_password(w.uow, w.hasher, "guest", "probe-2")) == wrong
    assert w.hasher.hashed == ["probe-1", "probe-2"]
    await t.user_update(w.uow, w.org_admin, w.users["member"].id, is_active=False)
    assert await refusal(t.authenticate_password(w.uow, w.hasher, "member", "member-password")) == (
        "ACCOUNT_DISABLED", "username", "this account is disabled",
    )  # fmt: skip
    # a disabled account with a wrong password learns nothing more than a wrong password
    assert await refusal(t.authenticate_password(w.uow, w.hasher, "member", "nope")) == wrong


async def test_a_login_session_lasts_twelve_hours_and_ends_on_sign_out(w: World) -> None:
    member = w.users["member"]
    session, secret = await t.login_session_start(w.uow, w.ids, w.clock, w.secrets, member)
    assert secret == "gss_s001" + "x" * 40 and w.secrets.asked == [32]
    assert session == LoginSession(session.id, member.id, NOW, NOW + timedelta(hours=12))
    assert w.state.logins == {digest(secret): session}
    actor = await t.actor_from_login_session(w.uow, w.clock, secret)
    assert actor is not None and actor.user_id == member.id and actor.read_only is False
    assert await t.actor_from_login_session(w.uow, w.clock, "gsp_" + secret[4:]) is None  # not a login secret
    assert await t.actor_from_login_session(w.uow, w.clock, "gss_unknown") is None
    w.clock.advance(timedelta(hours=12) - timedelta(seconds=1))
    assert await t.actor_from_login_session(w.uow, w.clock, secret) is not None
    w.clock.advance(1)
    assert await t.actor_from_login_session(w.uow, w.clock, secret) is None  # expired at exactly 12 h
    short, s2 = await t.login_session_start(w.uow, w.ids, w.clock, w.secrets, member, ttl=timedelta(minutes=5))
    assert short.expires_at == w.clock.now() + timedelta(minutes=5)
    await t.login_session_end(w.uow, s2)
    assert digest(s2) not in w.state.logins and w.uow._pending == [(f"user:{member.id}", {"userId": str(member.id)})]
    await t.login_session_end(w.uow, "gss_never-issued")
    assert len(w.uow._pending) == 1  # an unknown cookie announces nothing


async def test_personal_access_tokens(w: World) -> None:
    member = w.member
    token, secret = await t.token_create(
        w.uow, member, w.ids, w.clock, w.secrets, name=" ci ", scope=TokenScope.READ_ONLY, expires_in_days=30
    )
    assert secret == "gsp_s001" + "x" * 40
    assert token == PersonalAccessToken(
        token.id, member.user_id, "ci", TokenScope.READ_ONLY, "gsp_s001xx", NOW, NOW + timedelta(days=30)
    )
    assert w.state.tokens[token.id] == (token, digest(secret))
    assert await refusal(
        t.token_create(
            w.uow, member, w.ids, w.clock, w.secrets, name="ci", scope=TokenScope.READ_WRITE, expires_in_days=None
        )
    ) == ("DUPLICATE", "name", "you already have a token named ci")
    for days in (0, 367):
        assert await refusal(
            t.token_create(
                w.uow, member, w.ids, w.clock, w.secrets, name="x", scope=TokenScope.READ_WRITE, expires_in_days=days
            )
        ) == ("INVALID_VALUE", "expiresInDays", "expiresInDays must be between 1 and 366")
    assert await refusal(
        t.token_create(
            w.uow,
            w.read_only(member),
            w.ids,
            w.clock,
            w.secrets,
            name="y",
            scope=TokenScope.READ_WRITE,
            expires_in_days=1,
        )
    ) == ("PERMISSION_DENIED", None, "this token is read-only")
    several = await refusal(
        t.token_create(
            w.uow, member, w.ids, w.clock, w.secrets, name="", scope=TokenScope.READ_WRITE, expires_in_days=0
        ),
        errors=True,
    )
    assert several == [("INVALID_VALUE", "name"), ("INVALID_VALUE", "expiresInDays")]
    w.clock.advance(60)
    forever, forever_secret = await t.token_create(
        w.uow, member, w.ids, w.clock, w.secrets, name="forever", scope=TokenScope.READ_WRITE, expires_in_days=None
    )
    assert forever.expires_at is None and forever.scope is TokenScope.READ_WRITE
    w.clock.advance(1)
    year, _ = await t.token_create(
        w.uow, member, w.ids, w.clock, w.secrets, name="year", scope=TokenScope.READ_WRITE, expires_in_days=366
    )
    assert year.expires_at == w.clock.now() + timedelta(days=366)
    assert [x.name for x in await t.tokens_list(w.uow, member)] == ["year", "forever", "ci"]  # newest first
    page, total = await t.tokens_page(w.uow, member, Page(offset=2, limit=5))
    assert ([x.name for x in page], total) == (["ci"], 3)

    # the token acts as its user; read-only tokens give read-only actors
    ro = await t.actor_from_token(w.uow, w.clock, secret)
    assert ro is not None and ro.user_id == member.user_id and ro.read_only is True
    assert w.state.tokens[token.id][0].last_used_at == w.clock.now()
    rw = await t.actor_from_token(w.uow, w.clock, forever_secret)
    assert rw is not None and rw.read_only is False
    # its use is recorded at most once a minute
    used = w.clock.now()
    w.clock.advance(60)
    await t.actor_from_token(w.uow, w.clock, secret)
    assert w.state.tokens[token.id][0].last_used_at == used
    w.clock.advance(1)
    await t.actor_from_token(w.uow, w.clock, secret)
    assert w.state.tokens[token.id][0].last_used_at == w.clock.now()
    assert await t.actor_from_token(w.uow, w.clock, "gss_" + secret[4:]) is None
    assert await t.actor_from_token(w.uow, w.clock, "gsp_unknown") is None
    w.clock.set(NOW + timedelta(days=30))
    assert await t.actor_from_token(w.uow, w.clock, secret) is None  # expired at exactly 30 days

    # revoked by its owner only, once
    assert await refusal(t.token_revoke(w.uow, w.guest, w.clock, token.id)) == ("NOT_FOUND", "id", "token not found")
    assert await refusal(t.token_revoke(w.uow, member, w.clock, UUID(int=5))) == ("NOT_FOUND", "id", "token not found")
    assert await refusal(t.token_revoke(w.uow, w.read_only(member), w.clock, token.id)) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    revoked = await t.token_revoke(w.uow, member, w.clock, forever.id)
    assert revoked.revoked_at == w.clock.now() and w.state.tokens[forever.id][0].revoked_at == w.clock.now()
    assert w.uow._pending == [(f"user:{member.user_id}", {"userId": str(member.user_id)})]
    assert await t.actor_from_token(w.uow, w.clock, forever_secret) is None
    w.clock.advance(5)
    again = await t.token_revoke(w.uow, member, w.clock, forever.id)
    assert again.revoked_at == revoked.revoked_at and len(w.uow._pending) == 1
    # a revoked token's name may be used again
    reused, _ = await t.token_create(
        w.uow, member, w.ids, w.clock, w.secrets, name="forever", scope=TokenScope.READ_ONLY, expires_in_days=None
    )
    assert reused.name == "forever"


async def test_the_first_start_creates_the_default_organisation_and_its_admin() -> None:
    uow, ids, hasher = InMemoryUnitOfWork(), Ids(), Hasher()
    from domain.common.clock import FrozenClock

    clock = FrozenClock(NOW)
    assert await refusal(t.ensure_bootstrap(uow, ids, clock, hasher, admin_password="short")) == (
        "WEAK_PASSWORD", "GSHARE_BOOTSTRAP_ADMIN_PASSWORD",
        "GSHARE_BOOTSTRAP_ADMIN_PASSWORD must be at least 10 characters",
    )  # fmt: skip
    admin = await t.ensure_bootstrap(uow, ids, clock, hasher, admin_password="0123456789")
    assert admin is not None
    (org,) = uow.state.orgs.values()
    assert (org.slug, org.name) == ("default", "Default organisation")
    default = await uow.tenancy.get_default_group(org.id)
    assert default is not None
    assert (admin.username, admin.email, admin.display_name, admin.is_super_admin, admin.active_group_id) == (
        "admin", "admin@localhost.localdomain", "Administrator", True, default.id,
    )  # fmt: skip
    assert uow.state.passwords[admin.id] == "hashed:0123456789"
    assert [(m.group_id, m.role) for m in await uow.tenancy.memberships_of_user(admin.id)] == [
        (default.id, Role.MEMBER)
    ]
    assert await t.ensure_bootstrap(uow, ids, clock, hasher, admin_password="another-one") is None
    assert len(uow.state.users) == 1 and len(uow.state.orgs) == 1
    assert await t.ensure_organization(uow, ids, clock, slug="default", name="ignored") == org


async def test_oidc_subjects_are_provisioned_once_with_free_usernames(w: World) -> None:
    first = await t.oidc_provision(
        w.uow, w.ids, w.clock, subject="sub-1", preferred_username="Member", email="m2@idp.example",
        name="Member Two", organization_slug="acme",
    )  # fmt: skip
    default = await w.uow.tenancy.get_default_group(w.org_a.id)
    assert default is not None
    assert (first.username, first.email, first.display_name, first.oidc_subject, first.active_group_id) == (
        "member-2", "m2@idp.example", "Member Two", "sub-1", default.id,
    )  # fmt: skip
    assert w.state.passwords[first.id] is None
    assert [(m.group_id, m.role) for m in await w.uow.tenancy.memberships_of_user(first.id)] == [
        (default.id, Role.MEMBER)
    ]
    same = await t.oidc_provision(
        w.uow, w.ids, w.clock, subject="sub-1", preferred_username="x", email=None, name=None, organization_slug="acme"
    )
    assert same == first
    # the email is taken too: the user gets one of their own under the free username
    second = await t.oidc_provision(
        w.uow, w.ids, w.clock, subject="sub-2", preferred_username="member", email="MEMBER@example.org",
        name=None, organization_slug="acme",
    )  # fmt: skip
    # (the address is made when the email clashes, from the username tried then)
    assert (second.username, second.email, second.display_name) == ("member-3", "member-2@oidc.invalid", "member-3")
    # no username: from the email; no email either: "user"; a new organisation by its slug
    third = await t.oidc_provision(
        w.uow, w.ids, w.clock, subject="sub-3", preferred_username=None, email="Zed.Q@idp.example", name=None,
        organization_slug="newco",
    )  # fmt: skip
    assert (third.username, third.email) == ("zed-q", "Zed.Q@idp.example")
    newco = next(o for o in w.state.orgs.values() if o.slug == "newco")
    assert newco.name == "newco"
    anon = await t.oidc_provision(
        w.uow, w.ids, w.clock, subject="sub-4", preferred_username=None, email="not-an-email", name=None,
        organization_slug="newco",
    )  # fmt: skip
    assert (anon.username, anon.email) == ("not-an-email", "not-an-email@oidc.invalid")
    nobody = await t.oidc_provision(
        w.uow,
        w.ids,
        w.clock,
        subject="sub-5",
        preferred_username=None,
        email=None,
        name=None,
        organization_slug="newco",
    )
    assert (nobody.username, nobody.email) == ("user", "user@oidc.invalid")
    long = await t.oidc_provision(
        w.uow, w.ids, w.clock, subject="sub-6", preferred_username="a" * 60, email=None, name=None,
        organization_slug="newco",
    )  # fmt: skip
    assert long.username == "a" * 48
    await t.user_update(w.uow, w.root, first.id, is_active=False)
    assert await refusal(
        t.oidc_provision(
            w.uow,
            w.ids,
            w.clock,
            subject="sub-1",
            preferred_username=None,
            email=None,
            name=None,
            organization_slug="acme",
        )
    ) == ("ACCOUNT_DISABLED", None, "this account is disabled")
