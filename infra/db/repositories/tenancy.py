"""PostgreSQL repositories for tenancy and credentials (SQLAlchemy 2, async)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from sqlalchemy import delete, exists, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domain.tenancy.auth import LoginSession, PersonalAccessToken, TokenScope
from domain.tenancy.model import Group, Membership, Organization, Role, User
from infra.db.base import by_id, get_row
from infra.db.models.policies import ResourcePolicyRow
from infra.db.models.sessions import NotificationRow
from infra.db.models.tenancy import (
    GroupRow,
    LoginSessionRow,
    MembershipRow,
    OrgAdminRow,
    OrganizationRow,
    PersonalAccessTokenRow,
    UserRow,
)


def _org(r: OrganizationRow) -> Organization:
    return Organization(r.id, r.name, r.slug, r.created_at, r.description)


def _group(r: GroupRow) -> Group:
    return Group(r.id, r.organization_id, r.name, r.created_at, r.description, r.is_default)


def _user(r: UserRow, admin_of: frozenset[UUID]) -> User:
    return User(
        r.id,
        r.username,
        r.email,
        r.display_name,
        r.created_at,
        r.is_super_admin,
        r.is_active,
        r.active_group_id,
        admin_of,
        r.oidc_subject,
    )


def _membership(r: MembershipRow) -> Membership:
    return Membership(r.user_id, r.group_id, r.organization_id, Role(r.role))


_ORGANIZATION_BY_ID = by_id(OrganizationRow)
_GROUP_BY_ID = by_id(GroupRow)


class SqlTenancyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    # organisations
    async def get_organization(self, org_id: UUID) -> Organization | None:
        r = await get_row(self.s, _ORGANIZATION_BY_ID, org_id)
        return _org(r) if r else None

    async def get_organizations(self, org_ids: list[UUID]) -> list[Organization]:
        rows = await self.s.scalars(select(OrganizationRow).where(OrganizationRow.id.in_(org_ids)))
        return [_org(r) for r in rows]

    async def organization_name_taken(self, name: str, slug: str, exclude: UUID | None = None) -> str | None:
        q = select(OrganizationRow.name, OrganizationRow.slug).where(
            or_(func.lower(OrganizationRow.name) == name.lower(), OrganizationRow.slug == slug)
        )
        if exclude:
            q = q.where(OrganizationRow.id != exclude)
        row = (await self.s.execute(q.limit(1))).first()
        if row is None:
            return None
        return "name" if row.name.lower() == name.lower() else "slug"

    async def list_organizations(
        self, only: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Organization], int]:
        q = select(OrganizationRow)
        if only is not None:
            q = q.where(OrganizationRow.id.in_(only))
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.scalars(q.order_by(OrganizationRow.name, OrganizationRow.id).offset(offset).limit(limit))
        return [_org(r) for r in rows], total

    async def add_organization(self, org: Organization) -> None:
        self.s.add(
            OrganizationRow(
                id=org.id, name=org.name, slug=org.slug, description=org.description, created_at=org.created_at
            )
        )
        await self.s.flush()

    async def update_organization(self, org: Organization) -> None:
        await self.s.execute(
            update(OrganizationRow)
            .where(OrganizationRow.id == org.id)
            .values(name=org.name, description=org.description)
        )

    async def delete_organization(self, org_id: UUID) -> None:
        await self.s.execute(delete(OrganizationRow).where(OrganizationRow.id == org_id))

    async def count_organization_users(self, org_id: UUID) -> int:
        q = select(func.count(func.distinct(MembershipRow.user_id))).where(MembershipRow.organization_id == org_id)
        return await self.s.scalar(q) or 0

    # groups
    async def get_group(self, group_id: UUID) -> Group | None:
        r = await get_row(self.s, _GROUP_BY_ID, group_id)
        return _group(r) if r else None

    async def get_groups(self, group_ids: list[UUID]) -> list[Group]:
        rows = await self.s.scalars(select(GroupRow).where(GroupRow.id.in_(group_ids)))
        return [_group(r) for r in rows]

    async def get_default_group(self, org_id: UUID) -> Group | None:
        r = await self.s.scalar(select(GroupRow).where(GroupRow.organization_id == org_id, GroupRow.is_default))
        return _group(r) if r else None

    async def group_name_taken(self, org_id: UUID, name: str, exclude: UUID | None = None) -> bool:
        q = select(GroupRow.id).where(GroupRow.organization_id == org_id, func.lower(GroupRow.name) == name.lower())
        if exclude:
            q = q.where(GroupRow.id != exclude)
        return (await self.s.scalar(q.limit(1))) is not None

    async def list_groups(
        self, org_id: UUID | None, only: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Group], int]:
        q = select(GroupRow)
        if org_id is not None:
            q = q.where(GroupRow.organization_id == org_id)
        if only is not None:
            q = q.where(GroupRow.id.in_(only))
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.scalars(
            q.order_by(GroupRow.organization_id, GroupRow.is_default.desc(), GroupRow.name).offset(offset).limit(limit)
        )
        return [_group(r) for r in rows], total

    async def add_group(self, group: Group) -> None:
        self.s.add(
            GroupRow(
                id=group.id,
                organization_id=group.organization_id,
                name=group.name,
                description=group.description,
                is_default=group.is_default,
                created_at=group.created_at,
            )
        )
        await self.s.flush()

    async def update_group(self, group: Group) -> None:
        await self.s.execute(
            update(GroupRow).where(GroupRow.id == group.id).values(name=group.name, description=group.description)
        )

    async def delete_group(self, group_id: UUID) -> None:
        await self.s.execute(delete(GroupRow).where(GroupRow.id == group_id))

    async def count_group_members(self, group_id: UUID) -> int:
        return await self.s.scalar(select(func.count()).where(MembershipRow.group_id == group_id)) or 0

    # users
    async def _admin_of(self, user_ids: list[UUID]) -> dict[UUID, frozenset[UUID]]:
        rows = await self.s.execute(
            select(OrgAdminRow.user_id, OrgAdminRow.organization_id).where(OrgAdminRow.user_id.in_(user_ids))
        )
        out: dict[UUID, set[UUID]] = {}
        for uid, oid in rows:
            out.setdefault(uid, set()).add(oid)
        return {k: frozenset(v) for k, v in out.items()}

    async def _users(self, rows: list[UserRow]) -> list[User]:
        admin = await self._admin_of([r.id for r in rows]) if rows else {}
        return [_user(r, admin.get(r.id, frozenset())) for r in rows]

    async def get_user(self, user_id: UUID) -> User | None:
        r = await self.s.get(UserRow, user_id)
        return (await self._users([r]))[0] if r else None

    async def get_users(self, user_ids: list[UUID]) -> list[User]:
        return await self._users(list(await self.s.scalars(select(UserRow).where(UserRow.id.in_(user_ids)))))

    async def get_user_by_username(self, username: str) -> User | None:
        r = await self.s.scalar(select(UserRow).where(UserRow.username == username))
        return (await self._users([r]))[0] if r else None

    async def get_user_by_oidc_subject(self, subject: str) -> User | None:
        r = await self.s.scalar(select(UserRow).where(UserRow.oidc_subject == subject))
        return (await self._users([r]))[0] if r else None

    async def username_or_email_taken(self, username: str, email: str, exclude: UUID | None = None) -> str | None:
        q = select(UserRow.username, UserRow.email).where(
            or_(UserRow.username == username, func.lower(UserRow.email) == email.lower())
        )
        if exclude:
            q = q.where(UserRow.id != exclude)
        row = (await self.s.execute(q.limit(1))).first()
        if row is None:
            return None
        return "username" if row.username == username else "email"

    async def list_users(
        self,
        *,
        org_ids: frozenset[UUID] | None,
        group_ids: frozenset[UUID] | None,
        search: str | None,
        offset: int,
        limit: int,
    ) -> tuple[list[User], int]:
        q = select(UserRow)
        if org_ids is not None or group_ids is not None:
            conds = []
            if org_ids:
                conds.append(
                    exists().where(MembershipRow.user_id == UserRow.id, MembershipRow.organization_id.in_(org_ids))
                )
                conds.append(
                    exists().where(OrgAdminRow.user_id == UserRow.id, OrgAdminRow.organization_id.in_(org_ids))
                )
            if group_ids:
                conds.append(exists().where(MembershipRow.user_id == UserRow.id, MembershipRow.group_id.in_(group_ids)))
            if not conds:
                return [], 0
            q = q.where(or_(*conds))
        if search:
            pattern = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            q = q.where(
                or_(UserRow.username.ilike(pattern), UserRow.display_name.ilike(pattern), UserRow.email.ilike(pattern))
            )
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = list(await self.s.scalars(q.order_by(UserRow.username).offset(offset).limit(limit)))
        return await self._users(rows), total

    async def add_user(self, user: User, password_hash: str | None) -> None:
        self.s.add(
            UserRow(
                id=user.id,
                username=user.username,
                email=user.email,
                display_name=user.display_name,
                password_hash=password_hash,
                is_super_admin=user.is_super_admin,
                is_active=user.is_active,
                active_group_id=user.active_group_id,
                oidc_subject=user.oidc_subject,
                created_at=user.created_at,
            )
        )
        await self.s.flush()

    async def update_user(self, user: User) -> None:
        await self.s.execute(
            update(UserRow)
            .where(UserRow.id == user.id)
            .values(
                email=user.email,
                display_name=user.display_name,
                is_super_admin=user.is_super_admin,
                is_active=user.is_active,
                active_group_id=user.active_group_id,
            )
        )

    async def get_password_hash(self, user_id: UUID) -> str | None:
        return await self.s.scalar(select(UserRow.password_hash).where(UserRow.id == user_id))

    async def set_password_hash(self, user_id: UUID, password_hash: str) -> None:
        await self.s.execute(update(UserRow).where(UserRow.id == user_id).values(password_hash=password_hash))

    async def erase_user(self, user_id: UUID, *, username: str, email: str, display_name: str, at: datetime) -> None:
        await self.s.execute(
            update(UserRow)
            .where(UserRow.id == user_id)
            .values(
                username=username,
                email=email,
                display_name=display_name,
                password_hash=None,
                oidc_subject=None,
                is_super_admin=False,
                is_active=False,
                active_group_id=None,
            )
        )
        await self.s.execute(delete(MembershipRow).where(MembershipRow.user_id == user_id))
        await self.s.execute(delete(OrgAdminRow).where(OrgAdminRow.user_id == user_id))
        await self.s.execute(delete(LoginSessionRow).where(LoginSessionRow.user_id == user_id))
        # notifications say the user's session names and what befell them; a user-scope policy
        # names a user who no longer exists (the audit log and the ledger stay as they are)
        await self.s.execute(delete(NotificationRow).where(NotificationRow.user_id == user_id))
        await self.s.execute(
            delete(ResourcePolicyRow).where(
                ResourcePolicyRow.scope_kind == "user", ResourcePolicyRow.user_id == user_id
            )
        )
        await self.s.execute(
            update(PersonalAccessTokenRow)
            .where(PersonalAccessTokenRow.user_id == user_id, PersonalAccessTokenRow.revoked_at.is_(None))
            .values(revoked_at=at)
        )

    async def count_super_admins(self) -> int:
        return await self.s.scalar(select(func.count()).where(UserRow.is_super_admin, UserRow.is_active)) or 0

    # memberships
    async def memberships_of_user(self, user_id: UUID) -> list[Membership]:
        rows = await self.s.scalars(select(MembershipRow).where(MembershipRow.user_id == user_id))
        return [_membership(r) for r in rows]

    async def memberships_of_users(self, user_ids: list[UUID]) -> dict[UUID, list[Membership]]:
        rows = await self.s.scalars(select(MembershipRow).where(MembershipRow.user_id.in_(user_ids)))
        out: dict[UUID, list[Membership]] = {u: [] for u in user_ids}
        for r in rows:
            out[r.user_id].append(_membership(r))
        return out

    async def memberships_of_group(self, group_id: UUID, offset: int, limit: int) -> tuple[list[Membership], int]:
        q = select(MembershipRow).where(MembershipRow.group_id == group_id)
        total = await self.s.scalar(select(func.count()).select_from(q.subquery())) or 0
        rows = await self.s.scalars(
            q.join(UserRow, UserRow.id == MembershipRow.user_id).order_by(UserRow.username).offset(offset).limit(limit)
        )
        return [_membership(r) for r in rows], total

    async def get_membership(self, user_id: UUID, group_id: UUID) -> Membership | None:
        r = await self.s.get(MembershipRow, (user_id, group_id))
        return _membership(r) if r else None

    async def put_membership(self, membership: Membership) -> None:
        stmt = insert(MembershipRow).values(
            user_id=membership.user_id,
            group_id=membership.group_id,
            organization_id=membership.organization_id,
            role=membership.role.value,
        )
        await self.s.execute(
            stmt.on_conflict_do_update(index_elements=["user_id", "group_id"], set_={"role": stmt.excluded.role})
        )

    async def delete_membership(self, user_id: UUID, group_id: UUID) -> None:
        await self.s.execute(
            delete(MembershipRow).where(MembershipRow.user_id == user_id, MembershipRow.group_id == group_id)
        )

    async def set_org_admin(self, user_id: UUID, org_id: UUID, on: bool) -> None:
        if on:
            await self.s.execute(
                insert(OrgAdminRow).values(user_id=user_id, organization_id=org_id).on_conflict_do_nothing()
            )
        else:
            await self.s.execute(
                delete(OrgAdminRow).where(OrgAdminRow.user_id == user_id, OrgAdminRow.organization_id == org_id)
            )

    async def org_admins(self, org_id: UUID) -> list[UUID]:
        return list(await self.s.scalars(select(OrgAdminRow.user_id).where(OrgAdminRow.organization_id == org_id)))


def _token(r: PersonalAccessTokenRow) -> PersonalAccessToken:
    return PersonalAccessToken(
        r.id,
        r.user_id,
        r.name,
        TokenScope(r.scope),
        r.token_prefix,
        r.created_at,
        r.expires_at,
        r.revoked_at,
        r.last_used_at,
    )


class SqlCredentialRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.s = session

    async def add_token(self, token: PersonalAccessToken, secret_digest: str) -> None:
        self.s.add(
            PersonalAccessTokenRow(
                id=token.id,
                user_id=token.user_id,
                name=token.name,
                scope=token.scope.value,
                token_prefix=token.token_prefix,
                secret_digest=secret_digest,
                created_at=token.created_at,
                expires_at=token.expires_at,
            )
        )
        await self.s.flush()

    async def get_token_by_digest(self, secret_digest: str) -> PersonalAccessToken | None:
        r = await self.s.scalar(
            select(PersonalAccessTokenRow).where(PersonalAccessTokenRow.secret_digest == secret_digest)
        )
        return _token(r) if r else None

    async def get_token(self, token_id: UUID) -> PersonalAccessToken | None:
        r = await self.s.get(PersonalAccessTokenRow, token_id)
        return _token(r) if r else None

    async def list_tokens(self, user_id: UUID) -> list[PersonalAccessToken]:
        rows = await self.s.scalars(
            select(PersonalAccessTokenRow)
            .where(PersonalAccessTokenRow.user_id == user_id)
            .order_by(PersonalAccessTokenRow.created_at.desc())
        )
        return [_token(r) for r in rows]

    async def page_tokens(self, user_id: UUID, offset: int, limit: int) -> tuple[list[PersonalAccessToken], int]:
        mine = PersonalAccessTokenRow.user_id == user_id
        total = await self.s.scalar(select(func.count()).select_from(PersonalAccessTokenRow).where(mine)) or 0
        rows = await self.s.scalars(
            select(PersonalAccessTokenRow)
            .where(mine)
            .order_by(PersonalAccessTokenRow.created_at.desc(), PersonalAccessTokenRow.id)
            .offset(offset)
            .limit(limit)
        )
        return [_token(r) for r in rows], total

    async def revoke_token(self, token_id: UUID, at: datetime) -> None:
        await self.s.execute(
            update(PersonalAccessTokenRow).where(PersonalAccessTokenRow.id == token_id).values(revoked_at=at)
        )

    async def touch_token(self, token_id: UUID, at: datetime) -> None:
        await self.s.execute(
            update(PersonalAccessTokenRow).where(PersonalAccessTokenRow.id == token_id).values(last_used_at=at)
        )

    async def add_login_session(self, session: LoginSession, secret_digest: str) -> None:
        self.s.add(
            LoginSessionRow(
                id=session.id,
                user_id=session.user_id,
                secret_digest=secret_digest,
                created_at=session.created_at,
                expires_at=session.expires_at,
            )
        )
        await self.s.flush()

    async def get_login_session(self, secret_digest: str) -> LoginSession | None:
        r = await self.s.scalar(select(LoginSessionRow).where(LoginSessionRow.secret_digest == secret_digest))
        return LoginSession(r.id, r.user_id, r.created_at, r.expires_at) if r else None

    async def delete_login_session(self, secret_digest: str) -> None:
        await self.s.execute(delete(LoginSessionRow).where(LoginSessionRow.secret_digest == secret_digest))

    async def purge_expired_login_sessions(self, now: datetime) -> int:
        result = await self.s.execute(delete(LoginSessionRow).where(LoginSessionRow.expires_at <= now))
        return int(getattr(result, "rowcount", 0) or 0)
