"""Tenancy and sign-in use cases. Each takes the unit of work and the acting user, authorises
per object, validates every field, and changes nothing when it refuses."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from uuid import UUID

from domain.common.clock import Clock, IdGenerator
from domain.common.errors import DuplicateError, NotFoundError, PermissionDeniedError
from domain.common.validation import (
    ErrorCollector,
    clean_email,
    clean_name,
    clean_slug,
    clean_username,
    slugify,
)
from domain.ports import UnitOfWork
from domain.tenancy import access
from domain.tenancy.auth import (
    LOGIN_PREFIX,
    MIN_PASSWORD_LENGTH,
    PAT_PREFIX,
    LoginSession,
    PasswordHasher,
    PersonalAccessToken,
    SecretGenerator,
    TokenScope,
    digest,
)
from domain.tenancy.errors import TenancyError, TenancyErrorCode
from domain.tenancy.model import (
    DEFAULT_GROUP_NAME,
    Actor,
    Group,
    Membership,
    Organization,
    Role,
    User,
)

BOOTSTRAP_ORG_SLUG = "default"
LOGIN_SESSION_TTL = timedelta(hours=12)
MAX_TOKEN_DAYS = 366
MAX_PAGE = 500


@dataclass(frozen=True)
class Page:
    offset: int = 0
    limit: int = 50

    def clamp(self) -> Page:
        return Page(max(0, self.offset), min(max(1, self.limit), MAX_PAGE))


def user_topic(user_id: UUID) -> str:
    """EventBus topic announcing that a user's account, roles, memberships, active group or
    credentials (a token revoked, a login ended) changed."""
    return f"user:{user_id}"


def _announce(uow: UnitOfWork, user_id: UUID) -> None:
    uow.publish_after_commit(user_topic(user_id), {"userId": str(user_id)})


# ---------------------------------------------------------------- actor resolution


async def load_actor(uow: UnitOfWork, user_id: UUID, *, read_only: bool = False) -> Actor | None:
    user = await uow.tenancy.get_user(user_id)
    if user is None or not user.is_active:
        return None
    memberships = await uow.tenancy.memberships_of_user(user_id)
    return Actor(
        user_id=user.id,
        username=user.username,
        is_super_admin=user.is_super_admin,
        org_admin_of=user.org_admin_of,
        group_roles={m.group_id: m.role for m in memberships},
        group_orgs={m.group_id: m.organization_id for m in memberships},
        active_group_id=user.active_group_id,
        read_only=read_only,
    )


# ---------------------------------------------------------------- organisations


async def organization_get(uow: UnitOfWork, actor: Actor, org_id: UUID) -> Organization:
    org = await uow.tenancy.get_organization(org_id)
    if org is None or not access.can_see_organization(actor, org):
        raise NotFoundError("organization")
    return org


async def organizations_list(uow: UnitOfWork, actor: Actor, page: Page) -> tuple[list[Organization], int]:
    page = page.clamp()
    only = None if actor.is_super_admin else actor.organization_ids
    return await uow.tenancy.list_organizations(only, page.offset, page.limit)


async def organization_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    name: str,
    slug: str | None = None,
    description: str = "",
) -> Organization:
    access.require_super_admin(actor)
    errors = ErrorCollector()
    clean = errors.check(clean_name, name, "name")
    slug_clean = errors.check(clean_slug, slug, "slug") if slug else (slugify(clean) if clean else None)
    errors.raise_if_any()
    assert clean is not None and slug_clean is not None
    taken = await uow.tenancy.organization_name_taken(clean, slug_clean)
    if taken:
        raise DuplicateError(taken, f"an organisation with this {taken} already exists")
    org = Organization(ids.new_id(), clean, slug_clean, clock.now(), description.strip())
    await _add_with_default_group(uow, ids, clock, org)
    return org


async def _add_with_default_group(uow: UnitOfWork, ids: IdGenerator, clock: Clock, org: Organization) -> None:
    """Every organisation has a Default group that its new users join."""
    await uow.tenancy.add_organization(org)
    await uow.tenancy.add_group(
        Group(ids.new_id(), org.id, DEFAULT_GROUP_NAME, clock.now(), "Everyone in the organisation", True)
    )


async def organization_update(
    uow: UnitOfWork,
    actor: Actor,
    org_id: UUID,
    *,
    name: str | None = None,
    description: str | None = None,
) -> Organization:
    org = await organization_get(uow, actor, org_id)
    access.require_org_admin(actor, org.id)
    if name is not None:
        clean = clean_name(name, "name")
        if await uow.tenancy.organization_name_taken(clean, org.slug, exclude=org.id) == "name":
            raise DuplicateError("name", "an organisation with this name already exists")
        org = replace(org, name=clean)
    if description is not None:
        org = replace(org, description=description.strip())
    await uow.tenancy.update_organization(org)
    return org


async def organization_delete(uow: UnitOfWork, actor: Actor, org_id: UUID) -> Organization:
    org = await organization_get(uow, actor, org_id)
    access.require_super_admin(actor)
    users = await uow.tenancy.count_organization_users(org.id)
    if users:
        raise TenancyError(
            TenancyErrorCode.ORGANIZATION_NOT_EMPTY,
            f"organisation {org.name} still has {users} user(s); remove them first",
            "id",
        )
    await uow.tenancy.delete_organization(org.id)
    return org


# ---------------------------------------------------------------- groups


async def group_get(uow: UnitOfWork, actor: Actor, group_id: UUID) -> Group:
    group = await uow.tenancy.get_group(group_id)
    if group is None or not access.can_see_group(actor, group):
        raise NotFoundError("group")
    return group


async def groups_list(
    uow: UnitOfWork, actor: Actor, page: Page, organization_id: UUID | None = None
) -> tuple[list[Group], int]:
    page = page.clamp()
    if actor.is_super_admin:
        return await uow.tenancy.list_groups(organization_id, None, page.offset, page.limit)
    if organization_id is not None and actor.is_org_admin(organization_id):
        return await uow.tenancy.list_groups(organization_id, None, page.offset, page.limit)
    # the groups of administered organisations plus the actor's own groups
    visible = set(actor.group_roles)
    for org_id in actor.org_admin_of:
        groups, _ = await uow.tenancy.list_groups(org_id, None, 0, MAX_PAGE * 20)
        visible.update(g.id for g in groups)
    return await uow.tenancy.list_groups(organization_id, frozenset(visible), page.offset, page.limit)


async def group_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    organization_id: UUID,
    name: str,
    description: str = "",
) -> Group:
    org = await organization_get(uow, actor, organization_id)
    access.require_org_admin(actor, org.id)
    clean = clean_name(name, "name")
    if await uow.tenancy.group_name_taken(org.id, clean):
        raise DuplicateError("name", f"organisation {org.name} already has a group named {clean}")
    group = Group(ids.new_id(), org.id, clean, clock.now(), description.strip())
    await uow.tenancy.add_group(group)
    return group


async def group_update(
    uow: UnitOfWork,
    actor: Actor,
    group_id: UUID,
    *,
    name: str | None = None,
    description: str | None = None,
) -> Group:
    group = await group_get(uow, actor, group_id)
    access.require_group_admin(actor, group)
    if name is not None:
        clean = clean_name(name, "name")
        if group.is_default and clean != group.name:
            raise TenancyError(
                TenancyErrorCode.DEFAULT_GROUP_PROTECTED,
                "the Default group cannot be renamed",
                "name",
            )
        if await uow.tenancy.group_name_taken(group.organization_id, clean, exclude=group.id):
            raise DuplicateError("name", f"this organisation already has a group named {clean}")
        group = replace(group, name=clean)
    if description is not None:
        group = replace(group, description=description.strip())
    await uow.tenancy.update_group(group)
    return group


async def group_delete(uow: UnitOfWork, actor: Actor, group_id: UUID) -> Group:
    group = await group_get(uow, actor, group_id)
    access.require_org_admin(actor, group.organization_id)
    if group.is_default:
        raise TenancyError(TenancyErrorCode.DEFAULT_GROUP_PROTECTED, "the Default group cannot be deleted", "id")
    members = await uow.tenancy.count_group_members(group.id)
    if members:
        raise TenancyError(
            TenancyErrorCode.GROUP_NOT_EMPTY,
            f"group {group.name} still has {members} member(s)",
            "id",
        )
    await uow.tenancy.delete_group(group.id)
    return group


# ---------------------------------------------------------------- users


async def _user_scope(uow: UnitOfWork, user: User) -> tuple[dict[UUID, UUID], frozenset[UUID]]:
    memberships = await uow.tenancy.memberships_of_user(user.id)
    return {m.group_id: m.organization_id for m in memberships}, user.org_admin_of


async def user_get(uow: UnitOfWork, actor: Actor, user_id: UUID) -> User:
    user = await uow.tenancy.get_user(user_id)
    if user is None:
        raise NotFoundError("user")
    groups, admin_orgs = await _user_scope(uow, user)
    if not access.can_see_user(actor, user.id, groups, admin_orgs):
        raise NotFoundError("user")
    return user


async def users_list(
    uow: UnitOfWork,
    actor: Actor,
    page: Page,
    *,
    organization_id: UUID | None = None,
    group_id: UUID | None = None,
    search: str | None = None,
) -> tuple[list[User], int]:
    page = page.clamp()
    if group_id is not None:
        group = await group_get(uow, actor, group_id)
        return await uow.tenancy.list_users(
            org_ids=None,
            group_ids=frozenset({group.id}),
            search=search,
            offset=page.offset,
            limit=page.limit,
        )
    if actor.is_super_admin:
        orgs = None if organization_id is None else frozenset({organization_id})
        return await uow.tenancy.list_users(
            org_ids=orgs, group_ids=None, search=search, offset=page.offset, limit=page.limit
        )
    admin_orgs = actor.org_admin_of if organization_id is None else actor.org_admin_of & {organization_id}
    # users of administered organisations, plus co-members of the actor's own groups
    groups = frozenset(actor.group_roles)
    if organization_id is not None:
        groups = frozenset(g for g in groups if actor.group_orgs.get(g) == organization_id)
    return await uow.tenancy.list_users(
        org_ids=frozenset(admin_orgs),
        group_ids=groups,
        search=search,
        offset=page.offset,
        limit=page.limit,
    )


def _check_password(password: str, field: str = "password") -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise TenancyError(
            TenancyErrorCode.WEAK_PASSWORD,
            f"{field} must be at least {MIN_PASSWORD_LENGTH} characters",
            field,
        )


async def user_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    hasher: PasswordHasher,
    *,
    organization_id: UUID,
    username: str,
    email: str,
    display_name: str | None = None,
    password: str | None = None,
    role: Role = Role.MEMBER,
    group_ids: list[UUID] | None = None,
) -> User:
    """A new user joins the organisation's Default group (with `role`) and any `group_ids`; the
    first group named is the active one (the Default group when none is)."""
    org = await organization_get(uow, actor, organization_id)
    access.require_org_admin(actor, org.id)
    errors = ErrorCollector()
    uname = errors.check(clean_username, username)
    mail = errors.check(clean_email, email)
    shown = errors.check(clean_name, display_name or username, "displayName")
    if password is not None:
        errors.check(_check_password, password)
    if role not in (Role.MEMBER, Role.GUEST, Role.GROUP_ADMIN):
        errors.add(TenancyError(TenancyErrorCode.NOT_A_MEMBER, "role must be a group role", "role"))
    errors.raise_if_any()
    assert uname and mail and shown
    taken = await uow.tenancy.username_or_email_taken(uname, mail)
    if taken:
        raise DuplicateError(taken, f"a user with this {taken} already exists")
    default = await uow.tenancy.get_default_group(org.id)
    if default is None:  # an organisation always has one; repair rather than refuse
        default = Group(ids.new_id(), org.id, DEFAULT_GROUP_NAME, clock.now(), "", True)
        await uow.tenancy.add_group(default)
    extra: list[Group] = []
    for gid in group_ids or []:
        g = await uow.tenancy.get_group(gid)
        if g is None or g.organization_id != org.id:
            raise NotFoundError("group", "groupIds")
        extra.append(g)
    active = extra[0].id if extra else default.id
    user = User(ids.new_id(), uname, mail, shown, clock.now(), active_group_id=active)
    await uow.tenancy.add_user(user, await hasher.hash(password) if password else None)
    await uow.tenancy.put_membership(
        Membership(user.id, default.id, org.id, role if role != Role.GROUP_ADMIN else Role.MEMBER)
    )
    for g in extra:
        await uow.tenancy.put_membership(Membership(user.id, g.id, org.id, role))
    return user


async def user_update(
    uow: UnitOfWork,
    actor: Actor,
    user_id: UUID,
    *,
    display_name: str | None = None,
    email: str | None = None,
    is_active: bool | None = None,
) -> User:
    user = await user_get(uow, actor, user_id)
    access.require_writable(actor)
    groups, admin_orgs = await _user_scope(uow, user)
    is_admin = actor.is_super_admin or any(actor.is_org_admin(o) for o in set(groups.values()) | admin_orgs)
    if not is_admin and actor.user_id != user.id:
        raise PermissionDeniedError("only the user or an admin of their organisation may change them")
    errors = ErrorCollector()
    if display_name is not None:
        shown = errors.check(clean_name, display_name, "displayName")
        if shown:
            user = replace(user, display_name=shown)
    if email is not None:
        mail = errors.check(clean_email, email)
        if mail:
            user = replace(user, email=mail)
    if is_active is not None:
        if not is_admin:
            errors.add(PermissionDeniedError("only an admin may enable or disable an account", "isActive"))
        elif actor.user_id == user.id and not is_active:
            errors.add(PermissionDeniedError("you cannot disable your own account", "isActive"))
        else:
            user = replace(user, is_active=is_active)
    errors.raise_if_any()
    if email is not None and await uow.tenancy.username_or_email_taken("\x00", user.email, exclude=user.id):
        raise DuplicateError("email", "a user with this email already exists")
    await uow.tenancy.update_user(user)
    _announce(uow, user.id)
    return user


async def user_set_password(
    uow: UnitOfWork,
    actor: Actor,
    hasher: PasswordHasher,
    user_id: UUID,
    *,
    new_password: str,
    current_password: str | None = None,
) -> User:
    """Users change their own password with the current one; admins of the user's
    organisation (and super_admins) reset it without."""
    user = await user_get(uow, actor, user_id)
    access.require_writable(actor)
    _check_password(new_password, "newPassword")
    if actor.user_id == user.id:
        stored = await uow.tenancy.get_password_hash(user.id)
        if stored is not None and (current_password is None or not await hasher.verify(current_password, stored)):
            raise TenancyError(TenancyErrorCode.INVALID_CREDENTIALS, "current password is wrong", "currentPassword")
    else:
        groups, admin_orgs = await _user_scope(uow, user)
        if not (actor.is_super_admin or any(actor.is_org_admin(o) for o in set(groups.values()) | admin_orgs)):
            raise PermissionDeniedError("only an admin of the user's organisation may reset the password")
        if user.is_super_admin and not actor.is_super_admin:
            raise PermissionDeniedError("only a super_admin may reset a super_admin's password")
    await uow.tenancy.set_password_hash(user.id, await hasher.hash(new_password))
    return user


async def super_admin_set(uow: UnitOfWork, actor: Actor, user_id: UUID, on: bool) -> User:
    access.require_super_admin(actor)
    user = await user_get(uow, actor, user_id)
    if not on and user.is_super_admin and await uow.tenancy.count_super_admins() <= 1:
        raise TenancyError(TenancyErrorCode.LAST_SUPER_ADMIN, "the last super_admin cannot be demoted", "userId")
    user = replace(user, is_super_admin=on)
    await uow.tenancy.update_user(user)
    _announce(uow, user.id)
    return user


async def org_admin_set(uow: UnitOfWork, actor: Actor, user_id: UUID, organization_id: UUID, on: bool) -> User:
    org = await organization_get(uow, actor, organization_id)
    access.require_org_admin(actor, org.id)
    user = await user_get(uow, actor, user_id)
    groups, _ = await _user_scope(uow, user)
    if on and org.id not in groups.values():
        raise TenancyError(
            TenancyErrorCode.NOT_A_MEMBER,
            f"{user.username} is not in organisation {org.name}",
            "userId",
        )
    await uow.tenancy.set_org_admin(user.id, org.id, on)
    _announce(uow, user.id)
    admin_of = user.org_admin_of | {org.id} if on else user.org_admin_of - {org.id}
    return replace(user, org_admin_of=frozenset(admin_of))


# ---------------------------------------------------------------- memberships


async def membership_set(uow: UnitOfWork, actor: Actor, *, user_id: UUID, group_id: UUID, role: Role) -> Membership:
    group = await group_get(uow, actor, group_id)
    access.require_writable(actor)
    if role == Role.SUPER_ADMIN or role == Role.ORG_ADMIN:
        raise TenancyError(TenancyErrorCode.NOT_A_MEMBER, "role must be group_admin, member or guest", "role")
    if not access.may_grant_group_role(actor, group, role):
        raise PermissionDeniedError(
            "only an org admin may appoint group admins"
            if role == Role.GROUP_ADMIN
            else "only an admin of this group may add members",
            "role" if role == Role.GROUP_ADMIN else None,
        )
    user = await user_get(uow, actor, user_id)
    groups, _ = await _user_scope(uow, user)
    if group.organization_id not in groups.values():
        raise TenancyError(
            TenancyErrorCode.NOT_A_MEMBER,
            f"{user.username} is not in this group's organisation",
            "userId",
        )
    existing = groups.get(group.id) and await uow.tenancy.get_membership(user.id, group.id)
    if existing and existing.role == Role.GROUP_ADMIN and not actor.is_org_admin(group.organization_id):
        raise PermissionDeniedError("only an org admin may change a group admin's role", "role")
    membership = Membership(user.id, group.id, group.organization_id, role)
    await uow.tenancy.put_membership(membership)
    _announce(uow, user.id)
    return membership


async def membership_remove(uow: UnitOfWork, actor: Actor, *, user_id: UUID, group_id: UUID) -> Membership:
    group = await group_get(uow, actor, group_id)
    access.require_group_admin(actor, group)
    existing = await uow.tenancy.get_membership(user_id, group.id)
    if existing is None:
        raise NotFoundError("membership", "userId")
    if group.is_default:
        raise TenancyError(
            TenancyErrorCode.DEFAULT_GROUP_PROTECTED,
            "everyone in an organisation stays in its Default group",
            "groupId",
        )
    if existing.role == Role.GROUP_ADMIN and not actor.is_org_admin(group.organization_id):
        raise PermissionDeniedError("only an org admin may remove a group admin")
    await uow.tenancy.delete_membership(user_id, group.id)
    user = await uow.tenancy.get_user(user_id)
    if user is not None and user.active_group_id == group.id:
        default = await uow.tenancy.get_default_group(group.organization_id)
        await uow.tenancy.update_user(replace(user, active_group_id=default.id if default else None))
    return existing


async def memberships_of_group(
    uow: UnitOfWork, actor: Actor, group_id: UUID, page: Page
) -> tuple[list[Membership], int]:
    group = await group_get(uow, actor, group_id)
    page = page.clamp()
    return await uow.tenancy.memberships_of_group(group.id, page.offset, page.limit)


async def active_group_set(uow: UnitOfWork, actor: Actor, group_id: UUID) -> User:
    access.require_writable(actor)
    if group_id not in actor.group_roles:
        raise NotFoundError("group", "groupId")
    user = await uow.tenancy.get_user(actor.user_id)
    if user is None:
        raise NotFoundError("user")
    user = replace(user, active_group_id=group_id)
    await uow.tenancy.update_user(user)
    _announce(uow, user.id)
    return user


# ---------------------------------------------------------------- sign-in


async def authenticate_password(uow: UnitOfWork, hasher: PasswordHasher, username: str, password: str) -> User:
    """One answer for unknown users and wrong passwords, so neither can be probed."""
    user = await uow.tenancy.get_user_by_username(username.strip().lower())
    stored = await uow.tenancy.get_password_hash(user.id) if user else None
    if user is None or stored is None:
        await hasher.hash(password)  # spend the same time as a real check
        raise TenancyError(TenancyErrorCode.INVALID_CREDENTIALS, "wrong username or password", "password")
    if not await hasher.verify(password, stored):
        raise TenancyError(TenancyErrorCode.INVALID_CREDENTIALS, "wrong username or password", "password")
    if not user.is_active:
        raise TenancyError(TenancyErrorCode.ACCOUNT_DISABLED, "this account is disabled", "username")
    return user


async def login_session_start(
    uow: UnitOfWork,
    ids: IdGenerator,
    clock: Clock,
    secrets: SecretGenerator,
    user: User,
    ttl: timedelta = LOGIN_SESSION_TTL,
) -> tuple[LoginSession, str]:
    secret = LOGIN_PREFIX + secrets.token(32)
    now = clock.now()
    session = LoginSession(ids.new_id(), user.id, now, now + ttl)
    await uow.credentials.add_login_session(session, digest(secret))
    return session, secret


async def login_session_end(uow: UnitOfWork, secret: str) -> None:
    session = await uow.credentials.get_login_session(digest(secret))
    await uow.credentials.delete_login_session(digest(secret))
    if session is not None:
        _announce(uow, session.user_id)  # the cookie no longer names anyone


async def actor_from_login_session(uow: UnitOfWork, clock: Clock, secret: str) -> Actor | None:
    if not secret.startswith(LOGIN_PREFIX):
        return None
    session = await uow.credentials.get_login_session(digest(secret))
    if session is None or session.expires_at <= clock.now():
        return None
    return await load_actor(uow, session.user_id)


async def actor_from_token(uow: UnitOfWork, clock: Clock, secret: str) -> Actor | None:
    """Resolve a personal access token (`Authorization: Bearer gsp_…`) and record its use."""
    if not secret.startswith(PAT_PREFIX):
        return None
    token = await uow.credentials.get_token_by_digest(digest(secret))
    now = clock.now()
    if token is None or not token.is_usable(now):
        return None
    if token.last_used_at is None or now - token.last_used_at > timedelta(minutes=1):
        await uow.credentials.touch_token(token.id, now)
    return await load_actor(uow, token.user_id, read_only=token.scope == TokenScope.READ_ONLY)


async def token_create(
    uow: UnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    secrets: SecretGenerator,
    *,
    name: str,
    scope: TokenScope,
    expires_in_days: int | None,
) -> tuple[PersonalAccessToken, str]:
    """Returns the token and its secret; the secret is never shown again."""
    access.require_writable(actor)
    errors = ErrorCollector()
    clean = errors.check(clean_name, name, "name")
    if expires_in_days is not None and not 1 <= expires_in_days <= MAX_TOKEN_DAYS:
        from domain.common.errors import InvalidValueError

        errors.add(InvalidValueError("expiresInDays", f"expiresInDays must be between 1 and {MAX_TOKEN_DAYS}"))
    errors.raise_if_any()
    assert clean
    existing = await uow.credentials.list_tokens(actor.user_id)
    if any(t.name == clean and t.revoked_at is None for t in existing):
        raise DuplicateError("name", f"you already have a token named {clean}")
    secret = PAT_PREFIX + secrets.token(32)
    now = clock.now()
    expires: datetime | None = now + timedelta(days=expires_in_days) if expires_in_days else None
    token = PersonalAccessToken(ids.new_id(), actor.user_id, clean, scope, secret[:10], now, expires)
    await uow.credentials.add_token(token, digest(secret))
    return token, secret


async def tokens_list(uow: UnitOfWork, actor: Actor) -> list[PersonalAccessToken]:
    return await uow.credentials.list_tokens(actor.user_id)


async def tokens_page(uow: UnitOfWork, actor: Actor, page: Page) -> tuple[list[PersonalAccessToken], int]:
    """The actor's own tokens, newest first, one page at a time."""
    page = page.clamp()
    return await uow.credentials.page_tokens(actor.user_id, page.offset, page.limit)


async def token_revoke(uow: UnitOfWork, actor: Actor, clock: Clock, token_id: UUID) -> PersonalAccessToken:
    access.require_writable(actor)
    token = await uow.credentials.get_token(token_id)
    if token is None or token.user_id != actor.user_id:
        raise NotFoundError("token")
    if token.revoked_at is None:
        now = clock.now()
        await uow.credentials.revoke_token(token.id, now)
        token = replace(token, revoked_at=now)
        _announce(uow, token.user_id)  # the token no longer names anyone
    return token


# ---------------------------------------------------------------- provisioning


async def ensure_bootstrap(
    uow: UnitOfWork, ids: IdGenerator, clock: Clock, hasher: PasswordHasher, *, admin_password: str
) -> User | None:
    """First start: create the `default` organisation and the `admin` super_admin.
    Returns the new admin, or None when a super_admin already exists (nothing changes)."""
    if await uow.tenancy.count_super_admins() > 0:
        return None
    _check_password(admin_password, "GSHARE_BOOTSTRAP_ADMIN_PASSWORD")
    org = await ensure_organization(uow, ids, clock, slug=BOOTSTRAP_ORG_SLUG, name="Default organisation")
    default = await uow.tenancy.get_default_group(org.id)
    assert default is not None
    admin = User(
        ids.new_id(),
        "admin",
        "admin@localhost.localdomain",
        "Administrator",
        clock.now(),
        is_super_admin=True,
        active_group_id=default.id,
    )
    await uow.tenancy.add_user(admin, await hasher.hash(admin_password))
    await uow.tenancy.put_membership(Membership(admin.id, default.id, org.id, Role.MEMBER))
    return admin


async def ensure_organization(uow: UnitOfWork, ids: IdGenerator, clock: Clock, *, slug: str, name: str) -> Organization:
    orgs, _ = await uow.tenancy.list_organizations(None, 0, MAX_PAGE)
    for org in orgs:
        if org.slug == slug:
            return org
    org = Organization(ids.new_id(), name, slug, clock.now())
    await _add_with_default_group(uow, ids, clock, org)
    return org


async def oidc_provision(
    uow: UnitOfWork,
    ids: IdGenerator,
    clock: Clock,
    *,
    subject: str,
    preferred_username: str | None,
    email: str | None,
    name: str | None,
    organization_slug: str,
) -> User:
    """Find the user an IdP subject maps to, or create them in the organisation's Default group."""
    user = await uow.tenancy.get_user_by_oidc_subject(subject)
    if user is not None:
        if not user.is_active:
            raise TenancyError(TenancyErrorCode.ACCOUNT_DISABLED, "this account is disabled", None)
        return user
    org = await ensure_organization(uow, ids, clock, slug=organization_slug, name=organization_slug)
    default = await uow.tenancy.get_default_group(org.id)
    assert default is not None
    base = slugify(preferred_username or (email or "").split("@")[0] or "user")[:48]
    username, n = base, 1
    mail = email if email and "@" in email else f"{base}@oidc.invalid"
    while await uow.tenancy.username_or_email_taken(username, mail):
        n += 1
        username = f"{base}-{n}"
        if await uow.tenancy.username_or_email_taken("\x00", mail):
            mail = f"{username}@oidc.invalid"
    user = User(
        ids.new_id(),
        username,
        mail,
        name or username,
        clock.now(),
        active_group_id=default.id,
        oidc_subject=subject,
    )
    await uow.tenancy.add_user(user, None)
    await uow.tenancy.put_membership(Membership(user.id, default.id, org.id, Role.MEMBER))
    return user
