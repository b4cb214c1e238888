"""Two organisations with one object of every kind each, for the authorisation matrix
(tests/integration/api/test_authorization_matrix.py).

Organisation A: the roles under test (org_admin; group_admin, member and guest of G1) and a
`peer` member of G1 who owns A's per-user objects. Organisation B: `foreign_admin` (its
org_admin) and `foreign_member` (member of H) who own B's. Every object is made through the
domain's use cases, as the API would make it; audit entries through the API itself."""

from __future__ import annotations

import base64
import functools
import re
import uuid
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

import httpx
from sqlalchemy import text
from strawberry import relay

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.credits import services as credits
from domain.credits.budgets import BudgetAction, BudgetScope, BudgetScopeKind
from domain.credits.model import AccountRef
from domain.credits.refills import RefillCadence, RefillMode
from domain.policies import services as policies
from domain.policies.model import PolicyScope, ResourcePolicy, ScopeChain
from domain.sessions import services as sessions
from domain.sessions.ports import Notification
from domain.tenancy import services as tenancy
from domain.tenancy.auth import TokenScope
from domain.volumes import services as volumes
from domain.volumes.model import AccessMode, StorageClass
from infra.bootstrap import Container
from tests.support.api import SYSTEM, Gql, World, build_world, fund_user, gid, make_user, unique

ROLES = ("org_admin", "group_admin", "member", "guest")
OWNERS = (*ROLES, "peer", "foreign_member")


@dataclass
class Side:
    """One organisation's objects: type name -> id (per-user kinds: per owner)."""

    org: UUID
    group: UUID
    user: UUID
    objects: dict[str, UUID] = field(default_factory=dict)
    per_owner: dict[str, dict[str, UUID]] = field(default_factory=dict)


@dataclass
class MatrixWorld:
    world: World
    a: Side
    b: Side
    deployment: dict[str, UUID] = field(default_factory=dict)  # objects no organisation owns

    @property
    def tokens(self) -> dict[str, str]:
        return self.world.tokens


async def _actor(c: Container, user_id: UUID, group: UUID | None = None) -> Any:
    async with c.uow() as uow:
        actor = await tenancy.load_actor(uow, user_id)
        if group is not None:
            await tenancy.active_group_set(uow, actor, group)
            await uow.commit()
    assert actor is not None
    return replace(actor, active_group_id=group) if group is not None else actor


# what each part of a world is for: a world is built with the parts its cases name (every part
# when `needs` is None), so that a mutation's world of its own stays cheap
PARTS: dict[str, set[str]] = {
    "catalog": {"Registry", "Image"},
    "volume": {"Volume"},
    "template": {"Template", "AuditEntry"},
    "session": {"Session"},
    "money": {"CreditHold", "Account", "AccountInput"},
    "budget": {"Budget", "ScopeInput"},
    "policy": {"ResourcePolicy", "ScopeInput"},
    "refill": {"RefillSchedule", "AccountInput"},
    "audit": {"AuditEntry", "AuditFilterInput"},
    "personal": {"PersonalAccessToken", "Notification"},
}


async def _side_objects(
    c: Container, side: Side, owner: Any, admin: Any, global_image: UUID, cpu: UUID, parts: set[str]
) -> None:
    if "catalog" in parts or "volume" in parts:
        async with c.uow() as uow:
            if "catalog" in parts:
                registry = await catalog.registry_create(
                    uow,
                    admin,
                    c.ids,
                    c.clock,
                    name=unique("reg"),
                    url="https://registry.example.org",
                    organization_id=side.org,
                )
                image = await catalog.image_create(
                    uow,
                    admin,
                    c.ids,
                    c.clock,
                    name=unique("img"),
                    reference="docker.io/library/ubuntu:24.04",
                    cuda_version=None,
                    scope=ImageScope.ORGANIZATION,
                    organization_id=side.org,
                    registry_id=registry.id,
                )
                side.objects.update(Registry=registry.id, Image=image.id)
            if "volume" in parts:
                volume = await volumes.volume_create(
                    uow,
                    admin,
                    c.ids,
                    c.clock,
                    c.credits.policies,
                    name=unique("vol"),
                    size_mib=1024,
                    group_id=side.group,
                )
                side.objects["Volume"] = volume.id
            await uow.commit()
    if "session" in parts:
        s = await sessions.session_create(
            c.sessions, owner, sessions.SessionRequest(name=unique("s"), image_id=global_image, preset_id=cpu)
        )
        side.objects["Session"] = s.id
    if "money" in parts:
        await fund_user(c, side.org, side.group, side.user, 50)
        chain = ScopeChain(side.user, side.group, side.org)
        hold = await credits.reserve_hold(
            c.credits.ledger, c.clock, c.ids, chain=chain, amount_micro=1_000_000, idempotency_key=unique("hold")
        )
        side.objects["CreditHold"] = hold.hold.id
        await credits.charge_wallet(
            c.credits.ledger,
            c.clock,
            c.ids,
            wallet=AccountRef.user(side.user),
            chain=chain,
            amount_micro=2_000_000,
            idempotency_key=unique("charge"),
        )
    if "budget" in parts:
        budget = await credits.set_budget(
            SYSTEM,
            c.credits.budgets,
            c.credits.directory,
            c.clock,
            c.ids,
            scope=BudgetScope(BudgetScopeKind.GROUP, side.group),
            limit_micro=100_000_000,
            action=BudgetAction.WARN,
        )
        side.objects["Budget"] = budget.id
    if "policy" in parts:
        for scope in (PolicyScope.organization(side.org), PolicyScope.group(side.group), PolicyScope.user(side.user)):
            await policies.set_policy(
                SYSTEM,
                c.credits.policies,
                c.credits.directory,
                c.clock,
                ResourcePolicy(scope, max_concurrent_sessions=9),
            )
    if "refill" in parts:
        refill = await credits.create_refill_schedule(
            SYSTEM,
            c.credits.refills,
            c.credits.directory,
            c.clock,
            c.ids,
            source=AccountRef.organization(side.org),
            target=AccountRef.group(side.group),
            mode=RefillMode.GRANT,
            amount_micro=1_000_000,
            cadence=RefillCadence.MONTHLY,
        )
        side.objects["RefillSchedule"] = refill.id
        await credits.create_refill_schedule(
            SYSTEM,
            c.credits.refills,
            c.credits.directory,
            c.clock,
            c.ids,
            source=AccountRef.group(side.group),
            members_of_group=side.group,
            mode=RefillMode.TOP_UP,
            amount_micro=1_000_000,
            cadence=RefillCadence.MONTHLY,
        )


async def _per_owner(c: Container, side: Side, owner_name: str, user_id: UUID) -> None:
    """A personal access token and a notification of one user."""
    actor = await _actor(c, user_id)
    async with c.uow() as uow:
        token, _ = await tenancy.token_create(
            uow, actor, c.ids, c.clock, c.secrets, name=unique("pat"), scope=TokenScope.READ_ONLY, expires_in_days=1
        )
        note = Notification(c.ids.new_id(), user_id, "matrix", "a notification", c.clock.now())
        await uow.notifications.add(note)
        await uow.commit()
    side.per_owner[owner_name] = {"PersonalAccessToken": token.id, "Notification": note.id}


async def build_matrix_world(c: Container, http: httpx.AsyncClient, needs: set[str] | None = None) -> MatrixWorld:
    """A world with the parts that `needs` (type and input names) calls for; all of them by default."""
    parts = set(PARTS) if needs is None else {p for p, names in PARTS.items() if names & needs}
    w = await build_world(c)
    peer, w.tokens["peer"] = await make_user(c, w.org_a, unique("peer"), groups=[w.g1])
    w.users["peer"] = peer
    async with c.uow() as uow:
        # a default class that serves group volumes: other modules of the shared database may
        # have left classes without a default (the matrix's verdicts must not depend on order)
        if not any(sc.is_default for sc in await volumes.storage_classes(uow)):
            await volumes.storage_class_set(
                uow,
                SYSTEM,
                StorageClass(
                    "standard", is_default=True, access_modes=(AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY)
                ),
            )
        cpu = await catalog.preset_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("cpu"),
            cpu_millicores=1000,
            memory_mib=1024,
            disk_gib=10,
            shm_mib=128,
            tier=GpuTier.NONE,
        )
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("global"),
            reference="docker.io/library/python:3.12",
            cuda_version=None,
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
    mw = MatrixWorld(
        w,
        Side(w.org_a, w.g1, peer),
        Side(w.org_b, w.h, w.users["foreign_member"]),
        {"Preset": cpu.id, "GlobalImage": image.id},
    )
    owners = {mw.a.user: await _actor(c, peer, w.g1), mw.b.user: await _actor(c, w.users["foreign_member"], w.h)}
    for side, admin in ((mw.a, "org_admin"), (mw.b, "foreign_admin")):
        await _side_objects(c, side, owners[side.user], await _actor(c, w.users[admin]), image.id, cpu.id, parts)
    if "personal" in parts:
        for owner in OWNERS:
            await _per_owner(c, mw.b if owner == "foreign_member" else mw.a, owner, w.users[owner])
    if "template" in parts:
        # saved by each side's owner through the API: the audit log gets the owners' entries too
        for side, owner in ((mw.a, "peer"), (mw.b, "foreign_member")):
            made = await Gql(http, w.tokens[owner])(
                "mutation($i: TemplateCreateInput!) { templateCreate(input: $i) { template { id } errors { code } } }",
                i={
                    "groupId": gid("Group", side.group),
                    "name": unique("tpl"),
                    "imageId": gid("Image", image.id),
                    "presetId": gid("Preset", cpu.id),
                },
            )
            side.objects["Template"] = UUID(relay.GlobalID.from_id(made["templateCreate"]["template"]["id"]).node_id)
    if "audit" in parts:
        for side, role in ((mw.a, "org_admin"), (mw.b, "foreign_admin")):
            await Gql(http, w.tokens[role])(
                "mutation($i: GroupUpdateInput!) { groupUpdate(input: $i) { errors { code } } }",
                i={"id": gid("Group", side.group), "description": unique("audited")},
            )
            async with c.engine.connect() as conn:
                row = (
                    await conn.execute(
                        text("SELECT id FROM audit_log WHERE group_id = :g ORDER BY at DESC LIMIT 1"), {"g": side.group}
                    )
                ).first()
            assert row is not None, "the groupUpdate above is audited"
            side.objects["AuditEntry"] = row[0]
    return mw


def random_id() -> UUID:
    return uuid.uuid4()


# ------------------------------------------------------------------------------ the generator
# Walks the GraphQL schema: every argument (or input field, at any depth) of type ID is a slot;
# each slot is resolved to the type of object it names, then asked with an object of
# organisation B, a random id of that type and an object of the caller's own organisation.

KINDED: dict[str, dict[str, str]] = {
    # inputs whose `id` means what their `kind` says (the kind goes with the id)
    "ScopeInput": {"ORGANIZATION": "Organization", "GROUP": "Group", "USER": "User"},
    "AccountInput": {"ORGANIZATION": "Organization", "GROUP": "Group", "USER": "User", "CONSUMPTION": "Organization"},
}
COMPOSITE_NODES: dict[str, dict[str, str]] = {
    # node types whose node id is "<kind>:<uuid of the scope>"
    "Account": {"organization": "Organization", "group": "Group", "user": "User", "consumption": "Organization"},
    "ResourcePolicy": {"organization": "Organization", "group": "Group", "user": "User"},
}
RAW_UUID_IDS = {"Notification"}  # ids that are plain UUIDs rather than global ids


@dataclass(frozen=True)
class Slot:
    root: str
    field: str
    path: tuple[str, ...]  # argument name, then input field names
    container: str | None  # the input type holding the last name (None: a field argument)
    is_list: bool

    @property
    def label(self) -> str:
        return ".".join(self.path)


@dataclass(frozen=True)
class Target:
    """What a slot names. `object_type` is the type whose object's id goes in; for kinded
    inputs (`kind` goes with the id: the value replaces the whole input object) and composite
    node ids ("<kind>:<uuid>" of `node_type`) the kind says which scope."""

    object_type: str
    kind: str | None = None
    node_type: str | None = None  # a composite node type (Account, ResourcePolicy)
    kinded_input: bool = False
    raw: bool = False  # the bare UUID (a String argument holding an object's id)

    @property
    def label(self) -> str:
        if self.node_type:
            return f"{self.node_type}:{self.kind}"
        return f"{self.kind}" if self.kind else self.object_type


def named(t: Any) -> Any:
    from graphql import GraphQLList, GraphQLNonNull

    while isinstance(t, (GraphQLNonNull, GraphQLList)):
        t = t.of_type
    return t


def is_list(t: Any) -> bool:
    from graphql import GraphQLList, GraphQLNonNull

    while isinstance(t, GraphQLNonNull):
        t = t.of_type
    return isinstance(t, GraphQLList)


def slots_of(
    root: str, name: str, field_def: Any, string_slots: frozenset[tuple[str, str]] = frozenset()
) -> list[Slot]:
    """Every ID argument or input field, and the String ones in `string_slots` (container or
    field name, leaf) that carry an object's raw id."""
    from graphql import GraphQLInputObjectType, GraphQLScalarType

    found: list[Slot] = []

    def walk(t: Any, path: tuple[str, ...], container: str | None, seen: frozenset[str]) -> None:
        inner = named(t)
        if isinstance(inner, GraphQLScalarType) and (
            inner.name == "ID" or (inner.name == "String" and (container or name, path[-1]) in string_slots)
        ):
            found.append(Slot(root, name, path, container, is_list(t)))
        elif isinstance(inner, GraphQLInputObjectType) and inner.name not in seen:
            for fname, f in inner.fields.items():
                walk(f.type, (*path, fname), inner.name, seen | {inner.name})

    for arg, a in field_def.args.items():
        walk(a.type, (arg,), None, frozenset())
    return found


@functools.cache
def known_types(schema: Any) -> frozenset[str]:
    from graphql import GraphQLNonNull, GraphQLObjectType

    out = set()
    for t in schema.type_map.values():
        if isinstance(t, GraphQLObjectType) and not t.name.startswith("__") and "id" in t.fields:
            ft = t.fields["id"].type
            if isinstance(ft, GraphQLNonNull) and named(ft).name == "ID":
                out.add(t.name)
    return frozenset(out)


@functools.cache
def node_types(schema: Any) -> list[str]:
    return sorted(t.name for t in schema.get_possible_types(schema.get_type("Node")))


def expand(type_name: str) -> list[Target]:
    if type_name in COMPOSITE_NODES:
        return [Target(t, kind, node_type=type_name) for kind, t in COMPOSITE_NODES[type_name].items()]
    return [Target(type_name)]


def pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def targets_of(
    schema: Any,
    slot: Slot,
    field_types: dict[tuple[str, str], str],
    string_slots: dict[tuple[str, str], str] | None = None,
) -> list[Target] | None:
    """The objects a slot names, or None when the generator cannot tell (the matrix test then
    fails, naming the slot: resolve it with a rule or a reviewed entry in `field_types`)."""
    leaf = slot.path[-1]
    raw = (string_slots or {}).get((slot.container or slot.field, leaf))
    if raw is not None:
        return [Target(raw, raw=True)]
    if slot.container in KINDED and leaf == "id":
        return [Target(t, k, kinded_input=True) for k, t in KINDED[slot.container].items()]
    override = field_types.get((slot.container or slot.field, leaf))
    if override is not None:
        return expand(override)
    known = known_types(schema)
    if leaf == "id":
        if slot.field == "node" and slot.root == "Query":
            return [t for n in node_types(schema) for t in expand(n)]
        owner = pascal(slot.field)
        matches = [t for t in known if owner.startswith(t)]
        return expand(max(matches, key=len)) if matches else None
    for suffix in ("Ids", "Id"):
        if leaf.endswith(suffix) and pascal(leaf[: -len(suffix)]) in known:
            return expand(pascal(leaf[: -len(suffix)]))
    return None


def object_of(mw: MatrixWorld, target: Target, side: Side, role: str) -> UUID:
    """The id of side's object of this target for the caller `role` (A's per-user objects
    are the caller's own; B's belong to foreign_member)."""
    kind = target.object_type
    if kind == "Organization":
        return side.org
    if kind == "Group":
        return side.group
    if kind == "User":
        return side.user
    if kind in ("PersonalAccessToken", "Notification"):
        owner = role if side is mw.a else "foreign_member"
        return side.per_owner[owner][kind]
    return side.objects[kind]


def encode(target: Target, value: UUID) -> Any:
    if target.kinded_input:
        return {"kind": target.kind, "id": gid(target.object_type, value)}
    if target.node_type is not None:
        return gid(target.node_type, f"{target.kind}:{value}")  # type: ignore[arg-type]
    if target.raw or target.object_type in RAW_UUID_IDS:
        return str(value)
    return gid(target.object_type, value)


# ------------------------------------------------------------------------- documents and values

STRINGS: dict[str, Any] = {
    # plausible values for required strings, by name, so that a request gets as far as its ids
    "email": lambda: f"{unique('m')}@example.org",
    "password": lambda: "matrix-Passw0rd-long-enough",
    "reference": lambda: "docker.io/library/ubuntu:24.04",
    "url": lambda: "https://registry.example.org",
    "mountPath": lambda: "/mnt/matrix",
}
INTS = {"cpuMillicores": 1000, "memoryMib": 1024, "sizeMib": 1024, "diskGib": 10, "shmMib": 64, "vramMib": 1024}
BIG_INTS = 1_000_000
ENUMS = {"action": "WARN", "role": "MEMBER", "scope": "READ_ONLY", "cadence": "MONTHLY", "mode": "GRANT"}


def filler(t: Any, name: str) -> Any:
    """A valid value for a required argument that is not under test."""
    from graphql import GraphQLEnumType, GraphQLInputObjectType

    inner = named(t)
    if is_list(t):
        return []
    if isinstance(inner, GraphQLEnumType):
        wanted = ENUMS.get(name)
        return wanted if wanted in inner.values else next(iter(inner.values))
    if isinstance(inner, GraphQLInputObjectType):
        return {}  # filled field by field by the caller
    scalar = inner.name
    if scalar == "String":
        return STRINGS.get(name, lambda: unique("m"))()
    if scalar == "Int":
        return INTS.get(name, 1)
    if scalar == "BigInt":
        return BIG_INTS
    if scalar == "Float":
        return 1.0
    if scalar == "Boolean":
        return False
    if scalar == "DateTime":
        return "2026-01-01T00:00:00+00:00"
    if scalar == "JSON":
        return {}
    raise AssertionError(f"no filler for {scalar} argument {name}")


def required(t: Any, default: Any) -> bool:
    from graphql import GraphQLNonNull
    from graphql.pyutils import Undefined

    return isinstance(t, GraphQLNonNull) and default is Undefined


@dataclass
class Builder:
    """Builds one request: the slot under test gets `value`; every other required argument a
    filler, and required ids the caller's own objects; `extras` (keyed by field name and path)
    gives reviewed values: optional arguments a realistic request sends, and the counterpart an
    argument needs to make sense with the one under test (a transfer's other account)."""

    schema: Any
    mw: MatrixWorld
    role: str
    field_types: dict[tuple[str, str], str]
    extras: dict[tuple[str, ...], Any]

    def own_value(self, target: Target) -> Any:
        if target.object_type in self.mw.deployment:
            return gid(target.object_type, self.mw.deployment[target.object_type])
        return encode(target, object_of(self.mw, target, self.mw.a, self.role))

    def _own_id(self, root: str, field_name: str, path: tuple[str, ...], container: str | None, t: Any) -> Any:
        slot = Slot(root, field_name, path, container, is_list(t))
        targets = targets_of(self.schema, slot, self.field_types)
        if not targets:
            raise AssertionError(f"cannot fill the required id {field_name}({slot.label})")
        value = self.own_value(targets[0])
        return [value] if slot.is_list else value

    def arguments(
        self, root: str, field_name: str, field_def: Any, slot: Slot, target: Target, value: Any
    ) -> dict[str, Any]:
        from graphql import GraphQLInputObjectType, GraphQLScalarType

        # a kinded input's id goes in with its kind: the value replaces the whole input object
        at = slot.path[:-1] if slot.container in KINDED else slot.path

        def build(t: Any, path: tuple[str, ...], container: str | None) -> Any:
            if path == at:
                return [value] if is_list(t) and not isinstance(value, list) else value
            key = (field_name, *path)
            if key in self.extras:
                extra = self.extras[key]
                return extra(self.mw, self.role, slot, target, value) if callable(extra) else extra
            inner = named(t)
            if isinstance(inner, GraphQLInputObjectType):
                out = {
                    name: build(f.type, (*path, name), inner.name)
                    for name, f in inner.fields.items()
                    if at[: len(path) + 1] == (*path, name)
                    or (field_name, *path, name) in self.extras
                    or required(f.type, f.default_value)
                }
                return [out] if is_list(t) else out
            if isinstance(inner, GraphQLScalarType) and inner.name == "ID":
                return self._own_id(root, field_name, path, container, t)
            return filler(t, path[-1])

        return {
            name: build(a.type, (name,), None)
            for name, a in field_def.args.items()
            if at[:1] == (name,) or (field_name, name) in self.extras or required(a.type, a.default_value)
        }


def selection(t: Any, depth: int) -> str:
    """Every field without required arguments, `depth` levels down (object fields at the last
    level are left out): enough for a leaked object or list to show in the answer."""
    from graphql import (
        GraphQLInterfaceType,
        GraphQLNonNull,
        GraphQLObjectType,
        GraphQLUnionType,
    )
    from graphql.pyutils import Undefined

    inner = named(t)
    if isinstance(inner, GraphQLUnionType):
        return "{ __typename }"
    if not isinstance(inner, (GraphQLObjectType, GraphQLInterfaceType)):
        return ""
    parts = ["__typename"]
    for name, f in inner.fields.items():
        if any(isinstance(a.type, GraphQLNonNull) and a.default_value is Undefined for a in f.args.values()):
            continue
        sub_type = named(f.type)
        if isinstance(sub_type, (GraphQLObjectType, GraphQLInterfaceType, GraphQLUnionType)):
            if depth > 0:
                parts.append(f"{name} {selection(sub_type, depth - 1)}")
        else:
            parts.append(name)
    return "{ " + " ".join(parts) + " }"


def document(root: str, field_name: str, field_def: Any, args: dict[str, Any], depth: int = 2) -> str:
    op = {"Query": "query", "Mutation": "mutation", "Subscription": "subscription"}[root]
    decls = ", ".join(f"$a_{n}: {field_def.args[n].type}" for n in args)
    uses = ", ".join(f"{n}: $a_{n}" for n in args)
    head = f"{op} Matrix({decls})" if decls else f"{op} Matrix"
    call = f"{field_name}({uses})" if uses else field_name
    return f"{head} {{ {call} {selection(field_def.type, depth)} }}"


_FILLER = re.compile(r"m-[0-9a-f]{8}")
_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def known_ids(mw: MatrixWorld) -> set[str]:
    """Every id the world holds: any other id in an answer is one the request itself made."""
    ids = {str(u) for u in mw.world.users.values()} | {str(u) for u in mw.deployment.values()}
    for side in (mw.a, mw.b):
        ids |= {str(side.org), str(side.group), str(side.user), *(str(u) for u in side.objects.values())}
        ids |= {str(u) for per in side.per_owner.values() for u in per.values()}
    ids |= {str(mw.world.default_a), str(mw.world.g2)}
    return ids


def uuids_in(value: Any) -> set[str]:
    """The UUIDs an argument value carries (raw, or inside global ids)."""
    if isinstance(value, dict):
        return set().union(*(uuids_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(uuids_in(v) for v in value)) if value else set()
    if isinstance(value, str):
        return set(_UUID.findall(value)) | set(_UUID.findall(_b64(value)))
    return set()


def _b64(text: str) -> str:
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return ""


def normalise(body: dict[str, Any], known: set[str], asked: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    """An answer without what differs between any two requests: error locations, request ids,
    times, the fillers' unique names, the id that was asked (echoed in a message, say) and the
    ids of objects the request itself created. Any other id of the world (B's group, say) stays."""

    def uuid(u: str) -> str:
        return "<asked>" if u in asked else u if u in known else "<new id>"

    def clean(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v]
        if isinstance(v, str):
            if _TIME.match(v):
                return "<time>"
            inside = _UUID.findall(_b64(v))
            if inside:  # a global id
                return f"<id of {uuid(inside[0])}>" if uuid(inside[0]) != inside[0] else v
            return _FILLER.sub("<filler>", _UUID.sub(lambda m: uuid(m.group(0)), v))
        return v

    errors = [
        {
            "message": clean(e.get("message")),
            "path": e.get("path"),
            "extensions": {k: clean(v) for k, v in (e.get("extensions") or {}).items() if "request" not in k.lower()},
        }
        for e in body.get("errors") or []
    ]
    return {"data": clean(body.get("data")), "errors": errors}
