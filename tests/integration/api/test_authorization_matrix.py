"""The authorisation matrix, generated from the schema (issue 13).

Every query field, mutation and subscription argument that names an object (an ID, at any
depth of its input, and the String ids listed in STRING_SLOTS) is asked by each role of
organisation A (org_admin; group_admin, member and guest of G1; super_admin is left out, it
legitimately sees everything) three times: with organisation B's object of that type, with a
random id of the same type, and with an object of A's own. B's answer must equal the random
one exactly (same data, same error codes, fields and messages): an object out of reach
answers like a missing one. The own answer shows that the case reaches the check at all: for
every slot, some role's own answer differs from the random one (unless reviewed in VACUOUS).

New fields are covered without editing this file: a slot is resolved to its object type by
its name (`groupId` → Group; `id` → the type the field is named after; `node(id)` → every
Node type). What the rules cannot resolve, and every field that takes no object at all, must
be reviewed into the lists below: `test_every_field_is_in_the_matrix_or_reviewed` fails on
a new field that is neither.

State: queries and subscriptions share one read-only world; each mutation gets a world of its
own, and within it B's and the random ids are asked before any own id, so no answer under
comparison can depend on what another case did.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from api.schema import schema as _schema
from tests.support.api import gid
from tests.support.authz import (
    ROLES,
    Builder,
    MatrixWorld,
    Slot,
    Target,
    build_matrix_world,
    document,
    encode,
    known_ids,
    named,
    normalise,
    object_of,
    random_id,
    slots_of,
    targets_of,
    uuids_in,
)

SCHEMA = _schema._schema
ROOTS = ("Query", "Mutation", "Subscription")

# ---------------------------------------------------------------- reviewed (keep them short)

# slots whose name does not say their type: (input type or field, argument) -> type
FIELD_TYPES: dict[tuple[str, str], str] = {
    ("AuditFilterInput", "actorId"): "User",
    ("RefillScheduleCreateInput", "membersOfGroupId"): "Group",
    ("SessionCreateInput", "walletUserId"): "User",
    ("NotificationsMarkReadInput", "ids"): "Notification",
}
# String arguments that carry an object's bare id
STRING_SLOTS: dict[tuple[str, str], str] = {("AuditFilterInput", "targetId"): "Group"}
# String arguments named like ids that name no organisation's object
STRING_IDS_WITHOUT_SCOPE: dict[tuple[str, str], str] = {
    (owner, arg): "clusters, their nodes and offerings belong to the deployment, not to an organisation"
    for owner, arg in [
        ("capacity", "clusterId"),
        ("instanceBundles", "clusterId"),
        ("clusterNodes", "clusterId"),
        ("capacityChanged", "clusterId"),
        ("gpuQueue", "offering"),
        ("SessionCreateInput", "clusterId"),
        ("ClusterRegisterInput", "id"),
        ("ClusterPlacementPolicyUpdateInput", "clusterId"),
        ("ClusterDeregisterInput", "clusterId"),
        ("ClusterUsageSourceSetInput", "clusterId"),
        ("NodeSharingModeChangeInput", "clusterId"),
        ("NodeSharingModeChangeInput", "nodeId"),
        ("NodeCordonSetInput", "clusterId"),
        ("NodeCordonSetInput", "nodeId"),
        ("NodeDrainInput", "clusterId"),
        ("NodeDrainInput", "nodeId"),
    ]
}
# object types no organisation owns: there is no organisation B object to ask with
DEPLOYMENT_WIDE: dict[str, str] = {
    "Offering": "the catalog's GPU models are global (super_admin manages them)",
    "Preset": "presets are global (super_admin manages them)",
    "NodeOperation": "node sharing-mode changes are deployment operations (super_admin)",
}
_VIEWER = "answers about the viewer only"
_GLOBAL = "global catalog or deployment state; no argument names a scope"
_LIST = "lists only what the viewer may see; no argument names a scope"
NO_SCOPE: dict[tuple[str, str], str] = {
    **{("Query", f): _VIEWER for f in ("me", "myWallet", "personalAccessTokens", "mySessions", "myQueuePositions")},
    **{("Query", f): _VIEWER for f in ("notifications", "pendingApprovals")},
    **{("Query", f): _LIST for f in ("organizations", "registries", "images", "policies", "volumes", "templates")},
    **{("Query", f): _GLOBAL for f in ("offerings", "presets", "storageClasses", "backgroundJobs")},
    **{("Query", f): _GLOBAL for f in ("capacity", "instanceBundles", "clusters", "clusterNodes", "gpuQueue")},
    ("Query", "registeredClusters"): _GLOBAL,
    ("Mutation", "login"): "signs in by name and password",
    ("Mutation", "logout"): _VIEWER,
    ("Mutation", "personalAccessTokenCreate"): _VIEWER,
    **{("Mutation", f): _GLOBAL for f in ("organizationCreate", "offeringCreate", "presetCreate", "storageClassSet")},
    **{("Mutation", f): _GLOBAL for f in ("clusterRegister", "clusterPlacementPolicyUpdate", "clusterDeregister")},
    ("Mutation", "clusterUsageSourceSet"): _GLOBAL,
    ("Mutation", "nodeSharingModeChange"): _GLOBAL,
    **{("Mutation", f): _GLOBAL for f in ("nodeCordonSet", "nodeDrain")},
    **{("Subscription", f): _VIEWER for f in ("viewer", "mySessions", "myQueuePositions", "notifications")},
    ("Subscription", "myWallet"): _VIEWER,
    ("Subscription", "adminSessionsChanged"): "streams what the viewer administers; takes no argument",
    ("Query", "idleReclaimReport"): "reads the audit log of the scopes the viewer administers; takes only a period",
    **{
        ("Query", f): "reads the usage history of the scopes the viewer administers; takes only a period and a split"
        for f in ("usageHistory", "idleCreditsReport")
    },
    ("Subscription", "capacityChanged"): _GLOBAL,
}


def _account(kind: str, mw: MatrixWorld) -> dict[str, Any]:
    """A's account of this kind (SYSTEM: the deployment's)."""
    a = mw.a
    ids = {"ORGANIZATION": ("Organization", a.org), "GROUP": ("Group", a.group), "USER": ("User", a.user)}
    if kind == "SYSTEM":
        return {"kind": "SYSTEM"}
    type_name, value = ids[kind]
    return {"kind": kind, "id": gid(type_name, value)}


_BELOW = {"SYSTEM": "ORGANIZATION", "ORGANIZATION": "GROUP", "GROUP": "USER", "USER": "USER", "CONSUMPTION": "GROUP"}
_ABOVE = {"ORGANIZATION": "SYSTEM", "GROUP": "ORGANIZATION", "USER": "GROUP", "CONSUMPTION": "ORGANIZATION"}


def _child_of_tested(mw: MatrixWorld, role: str, slot: Slot, target: Target, value: Any) -> Any:
    return _account(_BELOW[target.kind or "SYSTEM"], mw)


def _parent_of_tested(mw: MatrixWorld, role: str, slot: Slot, target: Target, value: Any) -> Any:
    return _account(_ABOVE.get(target.kind or "", "SYSTEM"), mw)


def _preset(mw: MatrixWorld, *_: Any) -> str:
    return gid("Preset", mw.deployment["Preset"])


# reviewed values (field, path...) -> value or f(world, role, slot, target, value): optional
# arguments a realistic request sends, and the counterpart the argument under test needs to
# make sense (a transfer's other account, one level up or down on A's side)
EXTRAS: dict[tuple[str, ...], Any] = {
    ("sessionCreate", "input", "presetId"): _preset,
    ("templateCreate", "input", "presetId"): _preset,
    ("volumeCreate", "input", "groupId"): lambda mw, *_: gid("Group", mw.a.group),
    ("imageCreate", "input", "scope"): "ORGANIZATION",
    ("imageCreate", "input", "organizationId"): lambda mw, *_: gid("Organization", mw.a.org),
    ("creditsAllocate", "input", "destination"): _child_of_tested,
    ("creditsAllocate", "input", "source"): _parent_of_tested,
    ("creditsTakeBack", "input", "source"): _child_of_tested,
    ("creditsTakeBack", "input", "destination"): _parent_of_tested,
    ("refillScheduleCreate", "input", "target"): lambda mw, role, slot, target, value: (
        None if slot.path[-1] == "membersOfGroupId" else _child_of_tested(mw, role, slot, target, value)
    ),
    ("refillScheduleCreate", "input", "source"): lambda mw, role, slot, target, value: (
        {"kind": "GROUP", "id": value}
        if slot.path[-1] == "membersOfGroupId"
        else _parent_of_tested(mw, role, slot, target, value)
    ),
}
# (field, slot, target) whose own answer equals the random one for every role, with why
_NO_EDGE = "no edge of the credit hierarchy a non-super_admin may use has this end: all are refused alike"
VACUOUS: dict[tuple[str, str, str], str] = {
    ("refillSchedules", "source.id", "USER"): "a personal wallet is never a refill source",
    ("refillSchedules", "source.id", "CONSUMPTION"): "the consumption sink is never a refill source",
    ("userSuperAdminSet", "input.id", "User"): "only a super_admin may (not in the matrix); others are refused first",
    ("sessionCreate", "input.walletUserId", "User"): "sessions bill one's own wallet: any other is WALLET_NOT_OWN",
    **{
        (field, f"input.{arg}.id", kind): _NO_EDGE
        for field, arg, kind in [
            ("creditsAllocate", "source", "USER"),
            ("creditsAllocate", "source", "CONSUMPTION"),
            ("creditsAllocate", "destination", "ORGANIZATION"),
            ("creditsAllocate", "destination", "CONSUMPTION"),
            ("creditsTakeBack", "source", "ORGANIZATION"),
            ("creditsTakeBack", "source", "CONSUMPTION"),
            ("creditsTakeBack", "destination", "USER"),
            ("creditsTakeBack", "destination", "CONSUMPTION"),
            ("refillScheduleCreate", "source", "USER"),
            ("refillScheduleCreate", "source", "CONSUMPTION"),
            ("refillScheduleCreate", "target", "ORGANIZATION"),
            ("refillScheduleCreate", "target", "CONSUMPTION"),
        ]
    },
}

# ------------------------------------------------------------------------------ the cases

Case = tuple[Slot, Target]


@functools.cache
def cases(root: str, name: str) -> list[Case]:
    field_def = SCHEMA.get_type(root).fields[name]
    out = []
    for slot in slots_of(root, name, field_def, frozenset(STRING_SLOTS)):
        for target in targets_of(SCHEMA, slot, FIELD_TYPES, STRING_SLOTS) or []:
            if target.object_type not in DEPLOYMENT_WIDE:
                out.append((slot, target))
    return out


def fields_with_cases(root: str) -> list[str]:
    return [n for n in SCHEMA.get_type(root).fields if cases(root, n)]


def string_ids(t: Any, owner: str, path: tuple[str, ...], seen: frozenset[str] = frozenset()) -> list[str]:
    """String arguments (at any depth) named like ids that no reviewed list mentions."""
    from graphql import GraphQLInputObjectType

    inner = named(t)
    leaf = path[-1]
    found = []
    looks_like_id = leaf.endswith("Id") or leaf in ("id", "offering")
    reviewed = (owner, leaf) in STRING_SLOTS or (owner, leaf) in STRING_IDS_WITHOUT_SCOPE
    if getattr(inner, "name", None) == "String" and looks_like_id and not reviewed:
        found.append(".".join(path))
    if isinstance(inner, GraphQLInputObjectType) and inner.name not in seen:
        for fname, f in inner.fields.items():
            found += string_ids(f.type, inner.name, (*path, fname), seen | {inner.name})
    return found


def test_every_field_is_in_the_matrix_or_reviewed() -> None:
    problems = []
    for root in ROOTS:
        for name, field_def in SCHEMA.get_type(root).fields.items():
            slots = slots_of(root, name, field_def, frozenset(STRING_SLOTS))
            if not slots and (root, name) not in NO_SCOPE:
                problems.append(f"{root}.{name} takes no id: review it into NO_SCOPE (or give it a slot)")
            if slots and (root, name) in NO_SCOPE:
                problems.append(f"{root}.{name} is in NO_SCOPE but takes ids {[s.label for s in slots]}")
            for slot in slots:
                if targets_of(SCHEMA, slot, FIELD_TYPES, STRING_SLOTS) is None:
                    problems.append(f"{root}.{name}({slot.label}): the matrix cannot tell what type this id names")

            for arg, a in field_def.args.items():
                problems += [f"{root}.{name}({p}): a String id; review it" for p in string_ids(a.type, name, (arg,))]
    stale = [k for k in NO_SCOPE if k[1] not in SCHEMA.get_type(k[0]).fields]
    assert not stale, f"NO_SCOPE names fields that are gone: {stale}"
    assert not problems, "\n".join(problems)
    assert sum(len(cases(r, n)) for r in ROOTS for n in fields_with_cases(r)) > 100


# ---------------------------------------------------------------------------------- running


@pytest.fixture(scope="module")
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(scope="module")
async def shared_world(container: Any, client: httpx.AsyncClient) -> MatrixWorld:
    return await build_matrix_world(container, client)


def values(mw: MatrixWorld, target: Target, role: str) -> dict[str, Any]:
    return {
        "B": encode(target, object_of(mw, target, mw.b, role)),
        "random": encode(target, random_id()),
        "own": encode(target, object_of(mw, target, mw.a, role)),
    }


Ask = Any  # async (root, name, role, slot, value) -> normalised answer


def http_asker(client: httpx.AsyncClient, mw: MatrixWorld) -> Ask:
    known = known_ids(mw)

    async def ask(root: str, name: str, role: str, slot: Slot, target: Target, value: Any) -> dict[str, Any]:
        field_def = SCHEMA.get_type(root).fields[name]
        args = Builder(SCHEMA, mw, role, FIELD_TYPES, EXTRAS).arguments(root, name, field_def, slot, target, value)
        query = document(root, name, field_def, args)
        r = await client.post(
            "/graphql",
            json={"query": query, "variables": {f"a_{k}": v for k, v in args.items()}},
            headers={"authorization": f"Bearer {mw.tokens[role]}"},
        )
        body = r.json() if r.headers.get("content-type", "").startswith("application/json") else {"text": r.text}
        return {"status": r.status_code, **normalise(body, known, uuids_in(value))}

    return ask


def subscription_asker(container: Any, mw: MatrixWorld) -> Ask:
    """Subscriptions in process, on the app's own schema: the first message (the current
    state, or the refusal) is the answer."""
    from api.app import GShareGraphQL
    from api.context import Context
    from api.dataloaders import build_loaders
    from domain.tenancy import services as tenancy

    schema = GShareGraphQL(container).schema
    known = known_ids(mw)

    async def ask(root: str, name: str, role: str, slot: Slot, target: Target, value: Any) -> dict[str, Any]:
        field_def = SCHEMA.get_type(root).fields[name]
        args = Builder(SCHEMA, mw, role, FIELD_TYPES, EXTRAS).arguments(root, name, field_def, slot, target, value)
        async with container.uow() as uow:
            actor = await tenancy.load_actor(uow, mw.world.users[role])
        context = Context(None, None, container, actor, "token", build_loaders(container.uow))  # type: ignore[arg-type]
        result = await schema.subscribe(
            document(root, name, field_def, args),
            variable_values={f"a_{k}": v for k, v in args.items()},
            context_value=context,
        )
        if not hasattr(result, "__anext__"):
            first = result
        else:
            try:
                first = await asyncio.wait_for(result.__anext__(), 10)
            finally:
                await result.aclose()
        body = {
            "data": first.data,
            "errors": [e.formatted for e in first.errors or []],
        }
        return normalise(body, known, uuids_in(value))

    return ask


def short(answer: dict[str, Any]) -> str:
    text = json.dumps(answer, sort_keys=True, default=str)
    return text if len(text) < 400 else text[:400] + "…"


async def verdicts(mw: MatrixWorld, root: str, name: str, ask: Ask, *, concurrent: bool) -> None:
    """B and random for every role and case first (they change nothing on a correct server),
    then the own ids, least privileged role first."""
    todo = [(slot, target, role, values(mw, target, role)) for slot, target in cases(root, name) for role in ROLES]
    gate = asyncio.Semaphore(4 if concurrent else 1)

    async def one(slot: Slot, target: Target, role: str, value: Any) -> dict[str, Any]:
        async with gate:
            return await ask(root, name, role, slot, target, value)

    compared = await asyncio.gather(
        *(one(slot, target, role, v[which]) for slot, target, role, v in todo for which in ("B", "random"))
    )
    own = []
    for slot, target, role, v in sorted(todo, key=lambda c: list(reversed(ROLES)).index(c[2])):
        own.append(((slot.label, target.label, role), await ask(root, name, role, slot, target, v["own"])))
    own_answers = dict(own)
    leaks = []
    reached: dict[tuple[str, str], bool] = {}
    for i, (slot, target, role, _v) in enumerate(todo):
        b, rnd = compared[2 * i], compared[2 * i + 1]
        if b != rnd:
            leaks.append(f"{role} {name}({slot.label}={target.label}):\n  B:      {short(b)}\n  random: {short(rnd)}")
        key = (slot.label, target.label)
        reached[key] = reached.get(key, False) or own_answers[(slot.label, target.label, role)] != rnd
    assert not leaks, f"{len(leaks)} answers tell B's object from a missing one:\n" + "\n".join(leaks)
    vacuous = [k for k, ok in reached.items() if not ok and (name, *k) not in VACUOUS]
    assert not vacuous, f"{name}: no role's own id answers differently from a random one for {vacuous}"


@pytest.mark.parametrize("name", fields_with_cases("Query"))
async def test_query(name: str, client: httpx.AsyncClient, shared_world: MatrixWorld) -> None:
    await verdicts(shared_world, "Query", name, http_asker(client, shared_world), concurrent=True)


@pytest.mark.parametrize("name", fields_with_cases("Subscription"))
async def test_subscription(name: str, container: Any, shared_world: MatrixWorld) -> None:
    await verdicts(shared_world, "Subscription", name, subscription_asker(container, shared_world), concurrent=True)


@pytest.fixture(scope="module")
async def mutation_worlds(
    request: pytest.FixtureRequest, container: Any, client: httpx.AsyncClient
) -> AsyncIterator[dict[str, asyncio.Task[MatrixWorld]]]:
    """A world of its own for each selected mutation (nothing else sees its changes), built a
    few at a time in the background while the tests before it run."""
    selected = [
        item.callspec.params["name"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_mutation" and hasattr(item, "callspec")
    ]
    gate = asyncio.Semaphore(2)

    async def build(name: str) -> MatrixWorld:
        needs = {n for slot, t in cases("Mutation", name) for n in (t.object_type, t.node_type, slot.container) if n}
        async with gate:
            return await build_matrix_world(container, client, needs)

    tasks = {name: asyncio.ensure_future(build(name)) for name in selected}
    yield tasks
    for task in tasks.values():
        task.cancel()
    await asyncio.gather(*tasks.values(), return_exceptions=True)


@pytest.mark.parametrize("name", fields_with_cases("Mutation"))
async def test_mutation(
    name: str, client: httpx.AsyncClient, mutation_worlds: dict[str, asyncio.Task[MatrixWorld]]
) -> None:
    mw = await mutation_worlds[name]
    await verdicts(mw, "Mutation", name, http_asker(client, mw), concurrent=True)


def test_the_generator_resolves_new_fields_and_refuses_what_it_cannot_tell() -> None:
    """What happens when a field is added: named ids resolve by themselves, and an id whose
    type the rules cannot tell makes `targets_of` answer None (the coverage test then fails)."""
    from graphql import build_schema

    sdl = """
    interface Node { id: ID! }
    type Group implements Node { id: ID! }
    type Widget implements Node { id: ID! }
    input ScopeInput { kind: String, id: ID }
    input WidgetRenameInput { id: ID!, groupId: ID, gadgetId: ID }
    type Query { widgets(groupId: ID, scope: ScopeInput): Int, node(id: ID!): Node }
    type Mutation { widgetRename(input: WidgetRenameInput!): Int }
    """
    schema = build_schema(sdl)
    found = {
        (name, slot.label): targets_of(schema, slot, {})
        for root in ("Query", "Mutation")
        for name, f in schema.get_type(root).fields.items()
        for slot in slots_of(root, name, f)
    }
    labels = {k: None if v is None else [t.label for t in v] for k, v in found.items()}
    assert labels == {
        ("widgets", "groupId"): ["Group"],
        ("widgets", "scope.id"): ["ORGANIZATION", "GROUP", "USER"],
        ("node", "id"): ["Group", "Widget"],
        ("widgetRename", "input.id"): ["Widget"],
        ("widgetRename", "input.groupId"): ["Group"],
        ("widgetRename", "input.gadgetId"): None,  # no Gadget type: the matrix cannot build it
    }
