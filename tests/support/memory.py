"""In-memory repositories and unit of work for unit tests of the use cases (cosmicpython's
fake repositories). They keep the semantics of the PostgreSQL adapters in
infra/db/repositories/ that the use cases rely on: the same case-insensitive name checks,
orders, pagination and cascades (a group's memberships go with it, an organisation's groups,
memberships and admins with it). A unit of work left without `commit()` rolls back."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import TracebackType
from typing import Any
from uuid import UUID

from domain.catalog.model import Image, Offering, Preset, Registry
from domain.sessions.model import TERMINAL, Session
from domain.tenancy.auth import LoginSession, PersonalAccessToken
from domain.tenancy.model import Group, Membership, Organization, User
from domain.volumes.model import StorageClass, Template, Volume


@dataclass
class TenancyState:
    orgs: dict[UUID, Organization] = field(default_factory=dict)
    groups: dict[UUID, Group] = field(default_factory=dict)
    users: dict[UUID, User] = field(default_factory=dict)  # org_admin_of kept in `admins`
    passwords: dict[UUID, str | None] = field(default_factory=dict)
    memberships: dict[tuple[UUID, UUID], Membership] = field(default_factory=dict)
    admins: set[tuple[UUID, UUID]] = field(default_factory=set)  # (user, organisation)
    tokens: dict[UUID, tuple[PersonalAccessToken, str]] = field(default_factory=dict)
    logins: dict[str, LoginSession] = field(default_factory=dict)
    offerings: dict[UUID, Offering] = field(default_factory=dict)
    presets: dict[UUID, Preset] = field(default_factory=dict)
    registries: dict[UUID, Registry] = field(default_factory=dict)
    images: dict[UUID, Image] = field(default_factory=dict)
    volumes: dict[UUID, Volume] = field(default_factory=dict)
    storage_classes: dict[str, StorageClass] = field(default_factory=dict)
    templates: dict[UUID, Template] = field(default_factory=dict)
    sessions: dict[UUID, Session] = field(default_factory=dict)
    audit: list[Any] = field(default_factory=list)  # AuditEntry, in the order written


class InMemoryTenancy:
    def __init__(self, state: TenancyState) -> None:
        self.st = state

    # organisations
    async def get_organization(self, org_id: UUID) -> Organization | None:
        return self.st.orgs.get(org_id)

    async def get_organizations(self, org_ids: list[UUID]) -> list[Organization]:
        return [o for o in self.st.orgs.values() if o.id in org_ids]

    async def organization_name_taken(self, name: str, slug: str, exclude: UUID | None = None) -> str | None:
        for o in self.st.orgs.values():
            if o.id != exclude and (o.name.lower() == name.lower() or o.slug == slug):
                return "name" if o.name.lower() == name.lower() else "slug"
        return None

    async def list_organizations(
        self, only: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Organization], int]:
        rows = sorted((o for o in self.st.orgs.values() if only is None or o.id in only), key=lambda o: (o.name, o.id))
        return rows[offset : offset + limit], len(rows)

    async def add_organization(self, org: Organization) -> None:
        assert org.id not in self.st.orgs
        self.st.orgs[org.id] = org

    async def update_organization(self, org: Organization) -> None:
        if org.id in self.st.orgs:
            self.st.orgs[org.id] = replace(self.st.orgs[org.id], name=org.name, description=org.description)

    async def delete_organization(self, org_id: UUID) -> None:
        self.st.orgs.pop(org_id, None)
        for g in [g for g in self.st.groups.values() if g.organization_id == org_id]:
            await self.delete_group(g.id)
        self.st.admins = {a for a in self.st.admins if a[1] != org_id}

    async def count_organization_users(self, org_id: UUID) -> int:
        return len({m.user_id for m in self.st.memberships.values() if m.organization_id == org_id})

    # groups
    async def get_group(self, group_id: UUID) -> Group | None:
        return self.st.groups.get(group_id)

    async def get_groups(self, group_ids: list[UUID]) -> list[Group]:
        return [g for g in self.st.groups.values() if g.id in group_ids]

    async def get_default_group(self, org_id: UUID) -> Group | None:
        return next((g for g in self.st.groups.values() if g.organization_id == org_id and g.is_default), None)

    async def group_name_taken(self, org_id: UUID, name: str, exclude: UUID | None = None) -> bool:
        return any(
            g.organization_id == org_id and g.name.lower() == name.lower() and g.id != exclude
            for g in self.st.groups.values()
        )

    async def list_groups(
        self, org_id: UUID | None, only: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Group], int]:
        rows = sorted(
            (
                g
                for g in self.st.groups.values()
                if (org_id is None or g.organization_id == org_id) and (only is None or g.id in only)
            ),
            key=lambda g: (g.organization_id, not g.is_default, g.name),
        )
        return rows[offset : offset + limit], len(rows)

    async def add_group(self, group: Group) -> None:
        assert group.id not in self.st.groups
        self.st.groups[group.id] = group

    async def update_group(self, group: Group) -> None:
        if group.id in self.st.groups:
            self.st.groups[group.id] = replace(self.st.groups[group.id], name=group.name, description=group.description)

    async def delete_group(self, group_id: UUID) -> None:
        self.st.groups.pop(group_id, None)
        self.st.memberships = {k: m for k, m in self.st.memberships.items() if m.group_id != group_id}
        for u in self.st.users.values():
            if u.active_group_id == group_id:  # ON DELETE SET NULL
                self.st.users[u.id] = replace(u, active_group_id=None)

    async def count_group_members(self, group_id: UUID) -> int:
        return sum(1 for m in self.st.memberships.values() if m.group_id == group_id)

    # users
    def _user(self, u: User) -> User:
        return replace(u, org_admin_of=frozenset(o for uid, o in self.st.admins if uid == u.id))

    async def get_user(self, user_id: UUID) -> User | None:
        u = self.st.users.get(user_id)
        return self._user(u) if u else None

    async def get_users(self, user_ids: list[UUID]) -> list[User]:
        return [self._user(u) for u in self.st.users.values() if u.id in user_ids]

    async def get_user_by_username(self, username: str) -> User | None:
        u = next((u for u in self.st.users.values() if u.username == username), None)
        return self._user(u) if u else None

    async def get_user_by_oidc_subject(self, subject: str) -> User | None:
        u = next((u for u in self.st.users.values() if u.oidc_subject == subject), None)
        return self._user(u) if u else None

    async def username_or_email_taken(self, username: str, email: str, exclude: UUID | None = None) -> str | None:
        for u in self.st.users.values():
            if u.id != exclude and (u.username == username or u.email.lower() == email.lower()):
                return "username" if u.username == username else "email"
        return None

    async def list_users(
        self,
        *,
        org_ids: frozenset[UUID] | None,
        group_ids: frozenset[UUID] | None,
        search: str | None,
        offset: int,
        limit: int,
    ) -> tuple[list[User], int]:
        def scoped(u: User) -> bool:
            if org_ids is None and group_ids is None:
                return True
            ms = [m for m in self.st.memberships.values() if m.user_id == u.id]
            return bool(
                (org_ids and any(m.organization_id in org_ids for m in ms))
                or (org_ids and any(uid == u.id and o in org_ids for uid, o in self.st.admins))
                or (group_ids and any(m.group_id in group_ids for m in ms))
            )

        def found(u: User) -> bool:
            s = (search or "").lower()
            return not s or any(s in x.lower() for x in (u.username, u.display_name, u.email))

        rows = sorted((u for u in self.st.users.values() if scoped(u) and found(u)), key=lambda u: u.username)
        return [self._user(u) for u in rows[offset : offset + limit]], len(rows)

    async def add_user(self, user: User, password_hash: str | None) -> None:
        assert user.id not in self.st.users
        self.st.users[user.id] = replace(user, org_admin_of=frozenset())
        self.st.passwords[user.id] = password_hash

    async def update_user(self, user: User) -> None:
        u = self.st.users.get(user.id)
        if u is not None:
            self.st.users[user.id] = replace(
                u,
                email=user.email,
                display_name=user.display_name,
                is_super_admin=user.is_super_admin,
                is_active=user.is_active,
                active_group_id=user.active_group_id,
            )

    async def get_password_hash(self, user_id: UUID) -> str | None:
        return self.st.passwords.get(user_id)

    async def set_password_hash(self, user_id: UUID, password_hash: str) -> None:
        if user_id in self.st.users:
            self.st.passwords[user_id] = password_hash

    async def erase_user(self, user_id: UUID, *, username: str, email: str, display_name: str, at: datetime) -> None:
        u = self.st.users.get(user_id)
        if u is None:
            return
        self.st.users[user_id] = replace(
            u,
            username=username,
            email=email,
            display_name=display_name,
            oidc_subject=None,
            is_super_admin=False,
            is_active=False,
            active_group_id=None,
        )
        self.st.passwords[user_id] = None
        self.st.memberships = {k: m for k, m in self.st.memberships.items() if m.user_id != user_id}
        self.st.admins = {a for a in self.st.admins if a[0] != user_id}
        self.st.logins = {k: v for k, v in self.st.logins.items() if v.user_id != user_id}
        for tid, (t, d) in list(self.st.tokens.items()):
            if t.user_id == user_id and t.revoked_at is None:
                self.st.tokens[tid] = (replace(t, revoked_at=at), d)

    async def count_super_admins(self) -> int:
        return sum(1 for u in self.st.users.values() if u.is_super_admin and u.is_active)

    # memberships
    async def memberships_of_user(self, user_id: UUID) -> list[Membership]:
        return [m for m in self.st.memberships.values() if m.user_id == user_id]

    async def memberships_of_users(self, user_ids: list[UUID]) -> dict[UUID, list[Membership]]:
        return {u: [m for m in self.st.memberships.values() if m.user_id == u] for u in user_ids}

    async def memberships_of_group(self, group_id: UUID, offset: int, limit: int) -> tuple[list[Membership], int]:
        rows = sorted(
            (m for m in self.st.memberships.values() if m.group_id == group_id),
            key=lambda m: self.st.users[m.user_id].username,
        )
        return rows[offset : offset + limit], len(rows)

    async def get_membership(self, user_id: UUID, group_id: UUID) -> Membership | None:
        return self.st.memberships.get((user_id, group_id))

    async def put_membership(self, membership: Membership) -> None:
        key = (membership.user_id, membership.group_id)
        old = self.st.memberships.get(key)
        self.st.memberships[key] = membership if old is None else replace(old, role=membership.role)

    async def delete_membership(self, user_id: UUID, group_id: UUID) -> None:
        self.st.memberships.pop((user_id, group_id), None)

    async def set_org_admin(self, user_id: UUID, org_id: UUID, on: bool) -> None:
        (self.st.admins.add if on else self.st.admins.discard)((user_id, org_id))

    async def org_admins(self, org_id: UUID) -> list[UUID]:
        return [uid for uid, o in self.st.admins if o == org_id]


class InMemoryCredentials:
    def __init__(self, state: TenancyState) -> None:
        self.st = state

    async def add_token(self, token: PersonalAccessToken, secret_digest: str) -> None:
        assert token.id not in self.st.tokens
        self.st.tokens[token.id] = (token, secret_digest)

    async def get_token_by_digest(self, secret_digest: str) -> PersonalAccessToken | None:
        return next((t for t, d in self.st.tokens.values() if d == secret_digest), None)

    async def get_token(self, token_id: UUID) -> PersonalAccessToken | None:
        found = self.st.tokens.get(token_id)
        return found[0] if found else None

    async def list_tokens(self, user_id: UUID) -> list[PersonalAccessToken]:
        mine = [t for t, _ in self.st.tokens.values() if t.user_id == user_id]
        return sorted(mine, key=lambda t: t.created_at, reverse=True)

    async def page_tokens(self, user_id: UUID, offset: int, limit: int) -> tuple[list[PersonalAccessToken], int]:
        mine = sorted(
            (t for t, _ in self.st.tokens.values() if t.user_id == user_id),
            key=lambda t: (-t.created_at.timestamp(), t.id),
        )
        return mine[offset : offset + limit], len(mine)

    async def revoke_token(self, token_id: UUID, at: datetime) -> None:
        if token_id in self.st.tokens:
            t, d = self.st.tokens[token_id]
            self.st.tokens[token_id] = (replace(t, revoked_at=at), d)

    async def touch_token(self, token_id: UUID, at: datetime) -> None:
        if token_id in self.st.tokens:
            t, d = self.st.tokens[token_id]
            self.st.tokens[token_id] = (replace(t, last_used_at=at), d)

    async def add_login_session(self, session: LoginSession, secret_digest: str) -> None:
        self.st.logins[secret_digest] = session

    async def get_login_session(self, secret_digest: str) -> LoginSession | None:
        return self.st.logins.get(secret_digest)

    async def delete_login_session(self, secret_digest: str) -> None:
        self.st.logins.pop(secret_digest, None)

    async def purge_expired_login_sessions(self, now: datetime) -> int:
        gone = [d for d, s in self.st.logins.items() if s.expires_at <= now]
        for d in gone:
            del self.st.logins[d]
        return len(gone)


def _page(rows: list[Any], offset: int, limit: int) -> tuple[list[Any], int]:
    return rows[offset : offset + limit], len(rows)


class InMemoryCatalog:
    """As infra/db/repositories/catalog.py: updates write the columns the SQL update does."""

    def __init__(self, state: TenancyState) -> None:
        self.st = state

    async def get_offering(self, offering_id: UUID) -> Offering | None:
        return self.st.offerings.get(offering_id)

    async def get_offerings(self, ids: list[UUID]) -> list[Offering]:
        return [o for o in self.st.offerings.values() if o.id in ids]

    async def offering_name_taken(self, name: str, exclude: UUID | None = None) -> bool:
        return any(o.name.lower() == name.lower() and o.id != exclude for o in self.st.offerings.values())

    async def list_offerings(self, offset: int, limit: int, enabled_only: bool = False) -> tuple[list[Offering], int]:
        rows = sorted((o for o in self.st.offerings.values() if o.enabled or not enabled_only), key=lambda o: o.name)
        return _page(rows, offset, limit)

    async def add_offering(self, offering: Offering) -> None:
        assert offering.id not in self.st.offerings
        self.st.offerings[offering.id] = offering

    async def update_offering(self, offering: Offering) -> None:
        old = self.st.offerings.get(offering.id)
        if old is not None:
            self.st.offerings[offering.id] = replace(
                old,
                name=offering.name,
                min_cuda=offering.min_cuda,
                hourly_rate_micro=offering.hourly_rate_micro,
                description=offering.description,
                enabled=offering.enabled,
                card_class=offering.card_class,
            )

    async def delete_offering(self, offering_id: UUID) -> None:
        self.st.offerings.pop(offering_id, None)

    async def get_preset(self, preset_id: UUID) -> Preset | None:
        return self.st.presets.get(preset_id)

    async def get_presets(self, ids: list[UUID]) -> list[Preset]:
        return [p for p in self.st.presets.values() if p.id in ids]

    async def preset_name_taken(self, name: str, exclude: UUID | None = None) -> bool:
        return any(p.name.lower() == name.lower() and p.id != exclude for p in self.st.presets.values())

    async def list_presets(self, offset: int, limit: int) -> tuple[list[Preset], int]:
        return _page(sorted(self.st.presets.values(), key=lambda p: (-p.gpu_count, p.name)), offset, limit)

    async def add_preset(self, preset: Preset) -> None:
        assert preset.id not in self.st.presets
        self.st.presets[preset.id] = preset

    async def update_preset(self, preset: Preset) -> None:
        old = self.st.presets.get(preset.id)
        if old is not None:
            self.st.presets[preset.id] = replace(preset, created_at=old.created_at)

    async def delete_preset(self, preset_id: UUID) -> None:
        self.st.presets.pop(preset_id, None)

    async def get_registry(self, registry_id: UUID) -> Registry | None:
        return self.st.registries.get(registry_id)

    async def get_registries(self, ids: list[UUID]) -> list[Registry]:
        return [r for r in self.st.registries.values() if r.id in ids]

    async def registry_name_taken(self, name: str, organization_id: UUID | None, exclude: UUID | None = None) -> bool:
        return any(
            r.name.lower() == name.lower() and r.organization_id == organization_id and r.id != exclude
            for r in self.st.registries.values()
        )

    async def list_registries(
        self, org_ids: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Registry], int]:
        rows = sorted(
            (
                r
                for r in self.st.registries.values()
                if org_ids is None or r.organization_id is None or r.organization_id in org_ids
            ),
            key=lambda r: (r.name, r.id),
        )
        return _page(rows, offset, limit)

    async def add_registry(self, registry: Registry) -> None:
        assert registry.id not in self.st.registries
        self.st.registries[registry.id] = registry

    async def update_registry(self, registry: Registry) -> None:
        old = self.st.registries.get(registry.id)
        if old is not None:
            self.st.registries[registry.id] = replace(
                old,
                name=registry.name,
                url=registry.url,
                description=registry.description,
                username=registry.username,
                password_sealed=registry.password_sealed,
            )

    async def delete_registry(self, registry_id: UUID) -> None:
        self.st.registries.pop(registry_id, None)

    async def count_images_in_registry(self, registry_id: UUID) -> int:
        return sum(1 for i in self.st.images.values() if i.registry_id == registry_id)

    async def get_image(self, image_id: UUID) -> Image | None:
        return self.st.images.get(image_id)

    async def get_images(self, ids: list[UUID]) -> list[Image]:
        return [i for i in self.st.images.values() if i.id in ids]

    async def image_name_taken(self, image: Image, exclude: UUID | None = None) -> bool:
        owner = image.organization_id or image.owner_user_id
        return any(
            i.scope == image.scope
            and i.name.lower() == image.name.lower()
            and (i.organization_id or i.owner_user_id) == owner
            and i.id != exclude
            for i in self.st.images.values()
        )

    async def list_images(
        self, *, org_ids: frozenset[UUID] | None, owner_user_id: UUID | None, offset: int, limit: int
    ) -> tuple[list[Image], int]:
        def visible(i: Image) -> bool:
            if org_ids is None:
                return True
            return (
                i.scope.value == "global"
                or (bool(org_ids) and i.organization_id in org_ids)
                or (owner_user_id is not None and i.owner_user_id == owner_user_id)
            )

        rows = sorted((i for i in self.st.images.values() if visible(i)), key=lambda i: (i.scope.value, i.name, i.id))
        return _page(rows, offset, limit)

    async def add_image(self, image: Image) -> None:
        assert image.id not in self.st.images
        self.st.images[image.id] = image

    async def update_image(self, image: Image) -> None:
        old = self.st.images.get(image.id)
        if old is not None:
            self.st.images[image.id] = replace(
                old,
                name=image.name,
                reference=image.reference,
                cuda_version=image.cuda_version,
                description=image.description,
            )

    async def delete_image(self, image_id: UUID) -> None:
        self.st.images.pop(image_id, None)


class InMemoryVolumes:
    """As SqlVolumeRepository (mounts are read from the stored sessions)."""

    def __init__(self, state: TenancyState) -> None:
        self.st = state

    async def add(self, volume: Volume) -> None:
        assert volume.id not in self.st.volumes
        self.st.volumes[volume.id] = volume

    async def get(self, volume_id: UUID) -> Volume | None:
        return self.st.volumes.get(volume_id)

    async def get_many(self, ids: Any) -> list[Volume]:
        return [v for v in self.st.volumes.values() if v.id in set(ids)]

    async def delete(self, volume_id: UUID) -> None:
        self.st.volumes.pop(volume_id, None)

    async def name_taken(self, volume: Volume) -> bool:
        return any(
            v.scope == volume.scope
            and v.name.lower() == volume.name.lower()
            and ((v.owner_id == volume.owner_id) if volume.owner_id else (v.group_id == volume.group_id))
            for v in self.st.volumes.values()
        )

    async def visible(
        self, *, user_id: UUID, group_ids: frozenset[UUID], org_ids: frozenset[UUID] | None, offset: int, limit: int
    ) -> tuple[list[Volume], int]:
        def seen(v: Volume) -> bool:
            if org_ids is None:
                return True
            return v.owner_id == user_id or (v.group_id in group_ids) or (v.organization_id in org_ids)

        rows = sorted((v for v in self.st.volumes.values() if seen(v)), key=lambda v: v.name)
        rows.sort(key=lambda v: v.scope.value, reverse=True)  # scope descending, then name
        return _page(rows, offset, limit)

    async def storage_used_mib(self, *, owner_id: UUID | None = None, group_id: UUID | None = None) -> int:
        return sum(
            v.size_mib
            for v in self.st.volumes.values()
            if (v.owner_id == owner_id if owner_id else v.group_id == group_id)
        )

    async def storage_classes(self) -> list[StorageClass]:
        return sorted(self.st.storage_classes.values(), key=lambda c: (not c.is_default, c.name))

    async def put_storage_class(self, sc: StorageClass) -> None:
        self.st.storage_classes[sc.name] = sc

    async def mounted_by_active_sessions(self, volume_id: UUID) -> int:
        return sum(
            1
            for s in self.st.sessions.values()
            if s.state not in TERMINAL and any(m.volume_id == volume_id for m in s.mounts)
        )

    async def set_claim_phases(self, cluster_id: str, phases: Any) -> int:
        changed = 0
        for volume_id, state in phases.items():
            v = self.st.volumes.get(volume_id)
            if v is None or (cluster_id in v.claims and v.claims[cluster_id].phase == state.phase):
                continue
            self.st.volumes[volume_id] = replace(v, claims={**v.claims, cluster_id: state})
            changed += 1
        return changed


class InMemoryTemplates:
    def __init__(self, state: TenancyState) -> None:
        self.st = state

    async def add(self, template: Template) -> None:
        assert template.id not in self.st.templates
        self.st.templates[template.id] = template

    async def get(self, template_id: UUID) -> Template | None:
        return self.st.templates.get(template_id)

    async def delete(self, template_id: UUID) -> None:
        self.st.templates.pop(template_id, None)

    async def name_taken(self, group_id: UUID, name: str) -> bool:
        return any(t.group_id == group_id and t.name.lower() == name.lower() for t in self.st.templates.values())

    async def of_groups(self, group_ids: frozenset[UUID] | None, offset: int, limit: int) -> tuple[list[Template], int]:
        rows = sorted(
            (t for t in self.st.templates.values() if group_ids is None or t.group_id in group_ids),
            key=lambda t: t.name,
        )
        return _page(rows, offset, limit)


def audit_page(entries: Any, visibility: Any, flt: Any, offset: int, limit: int) -> tuple[list[Any], int]:
    """A page of audit entries as SqlAuditRepository.query answers it: the visibility and every
    filter field, `since` inclusive, `until` exclusive, newest (or oldest) first, ties by id."""
    if not visibility.everything and not (visibility.organization_ids or visibility.group_ids):
        return [], 0

    def keep(e: Any) -> bool:
        if not visibility.everything and not (
            e.organization_id in visibility.organization_ids or e.group_id in visibility.group_ids
        ):
            return False
        return (
            (not flt.operation or e.operation == flt.operation)
            and (not flt.actor_user_id or e.actor_user_id == flt.actor_user_id)
            and (not flt.target_type or e.target_type == flt.target_type)
            and (not flt.target_id or e.target_id == flt.target_id)
            and (flt.success is None or e.success == flt.success)
            and (not flt.since or e.at >= flt.since)
            and (not flt.until or e.at < flt.until)
            and (not flt.organization_id or e.organization_id == flt.organization_id)
        )

    by_id = sorted((e for e in entries if keep(e)), key=lambda e: e.id)
    rows = sorted(by_id, key=lambda e: e.at, reverse=not flt.oldest_first)  # stable: ties stay by id
    return rows[offset : offset + limit], len(rows)


class InMemoryAudit:
    """The log in memory, read as SqlAuditRepository.query reads it (infra/db/repositories/audit.py):
    the reader's visibility, the filter's fields (`since` inclusive, `until` exclusive), newest
    first unless `oldest_first` (ties by id), and the total of the filtered entries."""

    def __init__(self, state: TenancyState) -> None:
        self.st = state

    async def append(self, entry: Any) -> None:
        self.st.audit.append(entry)

    async def append_many(self, entries: Any) -> None:
        self.st.audit.extend(entries)

    async def query(self, visibility: Any, flt: Any, offset: int, limit: int) -> tuple[list[Any], int]:
        return audit_page(self.st.audit, visibility, flt, offset, limit)

    async def get(self, entry_id: UUID) -> Any:
        return next((e for e in self.st.audit if e.id == entry_id), None)


class InMemoryUnitOfWork:
    """Repositories over one shared state; changes are kept on `commit()` and undone when
    the block is left without it. Events published after commit land in `published`."""

    def __init__(self, state: TenancyState | None = None) -> None:
        self.state = state or TenancyState()
        self.published: list[tuple[str, dict[str, Any]]] = []
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self._snapshot: TenancyState | None = None
        self.commits = 0
        from infra.credits.memory import InMemoryUsage

        self.usage = InMemoryUsage()  # the policy usage a test sets per scope

    @property
    def tenancy(self) -> InMemoryTenancy:
        return InMemoryTenancy(self.state)

    @property
    def credentials(self) -> InMemoryCredentials:
        return InMemoryCredentials(self.state)

    @property
    def catalog(self) -> InMemoryCatalog:
        return InMemoryCatalog(self.state)

    @property
    def audit(self) -> InMemoryAudit:
        return InMemoryAudit(self.state)

    @property
    def volumes(self) -> InMemoryVolumes:
        return InMemoryVolumes(self.state)

    @property
    def templates(self) -> InMemoryTemplates:
        return InMemoryTemplates(self.state)

    async def __aenter__(self) -> InMemoryUnitOfWork:
        self._snapshot = copy.deepcopy(self.state)
        self._pending = []
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._snapshot is not None:
            await self.rollback()

    async def commit(self) -> None:
        self._snapshot = None
        self.published += self._pending
        self._pending = []
        self.commits += 1

    async def rollback(self) -> None:
        if self._snapshot is not None:
            restored = self._snapshot
            for name in vars(restored):
                setattr(self.state, name, getattr(restored, name))
            self._snapshot = None
        self._pending = []

    def publish_after_commit(self, topic: str, payload: dict[str, Any]) -> None:
        self._pending.append((topic, payload))
