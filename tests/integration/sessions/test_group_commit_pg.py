"""Issue 19, Must show 2 on PostgreSQL: a burst decided together in one batch (one capacity
lock, one transaction: the wallets locked, the session rows, holds, placements and audit
entries written together) decides as the same burst decided one after the other, each in a
transaction of its own, from the same state: every decision, placement and hold, the queue
and the wallets after.

"The same state" is two worlds built alike in the test database: each its own organisation
(two members of one group, funded alike, the group limited to 7 sessions at once), its own
card model and its own simulated cluster of two nodes (a HAMi card and an exclusive card) that
its requests name, so the worlds share nothing the decisions read. What differs between them
(ids, names) is written out of the compared decisions."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from domain.catalog.model import GpuTier
from domain.credits.model import AccountRef
from domain.inventory.model import Card, Node, SharingMode
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import services as sessions
from domain.sessions.errors import AdmissionRefused
from domain.sessions.model import Expiry
from domain.sessions.services import SessionRequest, _Admission, _resolve, decide_batch
from domain.tenancy import services as tenancy
from tests.support.api import SYSTEM, add_gpu_catalog, add_simulated_cluster, fund_user, make_user, unique

# (who, preset): "q" a quarter card, "w" a whole card. Member a's 1 credit pays one quarter
# card-hour (3.6 credits/h a card): then step 6 refuses it; the group's 7 sessions: step 4
# refuses the rest; the HAMi card takes four quarters, the exclusive card one whole: then queue.
BURST = [
    ("a", "q"), ("b", "w"), ("a", "w"), ("b", "q"), ("a", "q"), ("b", "q"), ("b", "w"),
    ("b", "q"), ("a", "q"), ("b", "q"), ("b", "q"), ("b", "w"), ("b", "q"),
]  # fmt: skip


@dataclass
class WorldPg:
    actors: dict[str, Any]
    users: dict[str, UUID]
    cluster: str
    model: str
    cat: dict[str, Any]
    names: dict[str, str]
    adapter: Any


async def _world(c: Any) -> WorldPg:
    model, cluster = unique("GC"), unique("gc")
    nodes = (
        Node(f"{cluster}-h", f"{cluster}-h", cluster, SharingMode.HAMI, 64000, 512 * 1024, (Card(f"{cluster}-H", model, 16384),)),
        Node(f"{cluster}-x", f"{cluster}-x", cluster, SharingMode.EXCLUSIVE, 64000, 512 * 1024, (Card(f"{cluster}-X", model, 16384),)),
    )  # fmt: skip
    adapter = await add_simulated_cluster(c, cluster, nodes, start_delay=600)  # no report while compared
    quarter = await add_gpu_catalog(
        c, model, 16384, 3_600_000, preset={"cpu_millicores": 500, "memory_mib": 512, "tier": GpuTier.L}
    )
    whole = await add_gpu_catalog(c, model + "w", 16384, 720_000, preset={"cpu_millicores": 500, "memory_mib": 512, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1})  # fmt: skip
    async with c.uow() as uow:
        org = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("GcOrg"))
        group = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=org.id, name=unique("Lab"))
        await uow.commit()
    await c.credits.policies.put(ResourcePolicy(PolicyScope.group(group.id), max_concurrent_sessions=7))
    actors, users, names = {}, {}, {model: "MODEL", group.name: "GROUP", org.name: "ORG", cluster: "CLUSTER"}
    for who, credits_ in (("a", 1), ("b", 30)):
        name = unique(f"gc{who}")
        uid, _ = await make_user(c, org.id, name, groups=[group.id])
        await fund_user(c, org.id, group.id, uid, credits_)
        async with c.uow() as uow:
            actor = await tenancy.load_actor(uow, uid)
        actors[who], users[who], names[str(uid)], names[name] = replace(actor, active_group_id=group.id), uid, who, who
    cat = {"q": (quarter["preset"].id, quarter["offering"].id), "w": (whole["preset"].id, quarter["offering"].id)}
    cat["image"] = quarter["image"].id
    return WorldPg(actors, users, cluster, model, cat, names, adapter)


def _request(w: WorldPg, i: int) -> SessionRequest:
    preset, offering = w.cat[BURST[i][1]]
    return SessionRequest(
        name=f"gc{i}",
        image_id=w.cat["image"],
        preset_id=preset,
        offering_id=offering,
        expiry=Expiry.H1,
        cluster=w.cluster,
    )


def _plain(w: WorldPg, text: str | None) -> str | None:
    if text is None:
        return None
    for k, v in sorted(w.names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(k, v)
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "ID", text)


async def _resolved(c: Any, w: WorldPg, i: int) -> _Admission | AdmissionRefused:
    try:
        async with c.uow() as uow:
            return _Admission(
                w.actors[BURST[i][0]], await _resolve(c.sessions, uow, w.actors[BURST[i][0]], _request(w, i))
            )
    except AdmissionRefused as exc:
        return exc


async def _outcome(item: _Admission | AdmissionRefused) -> Any:
    if isinstance(item, AdmissionRefused):
        return item
    assert item.outcome is not None
    try:
        return (await item.outcome)[0]
    except AdmissionRefused as exc:
        return exc


async def _decide(c: Any, w: WorldPg, batched: bool) -> tuple[list[Any], Any]:
    import asyncio

    loop = asyncio.get_running_loop()
    if batched:  # steps 1-5 for all, then steps 6-7 for all together
        items = [await _resolved(c, w, i) for i in range(len(BURST))]
        waiting = [i for i in items if isinstance(i, _Admission)]
        for item in waiting:
            item.outcome = loop.create_future()
        await decide_batch(c.sessions, waiting)
        outcomes = [await _outcome(i) for i in items]
    else:  # each through all steps before the next
        outcomes = []
        for i in range(len(BURST)):
            item = await _resolved(c, w, i)
            if isinstance(item, _Admission):
                item.outcome = loop.create_future()
                await decide_batch(c.sessions, [item])
            outcomes.append(await _outcome(item))
    decisions: list[Any] = []
    index: dict[str, int] = {}
    async with c.uow() as uow:
        for i, o in enumerate(outcomes):
            if isinstance(o, AdmissionRefused):
                decisions.append(("refused", o.step, str(o.code), _plain(w, o.message)))
                continue
            index[str(o.id)] = i
            s = await uow.sessions.get(o.id)
            hold = await c.credits.ledger.get_hold(s.hold_id) if s.hold_id else None
            where = None if s.placement is None else (_plain(w, s.placement["node_id"]), s.placement.get("card_uuids"))
            decisions.append(
                (s.state, _plain(w, s.state_reason), where, s.hold_seq, hold and (hold.amount_micro, hold.status))
            )
        state = await uow.capacity.snapshot()
    placed = sorted(
        (index[a.workload_id], tuple(_plain(w, u) for u in a.placement.card_uuids))
        for a in state.scheduler.allocations()
        if a.workload_id in index
    )
    queue = [index[e.workload_id] for e in state.queue.entries() if e.workload_id in index]
    refs = [AccountRef.user(w.users[k]) for k in ("a", "b")]
    wallets = await c.credits.ledger.balances(refs)
    return decisions, (placed, queue, [(wallets[r].balance_micro, wallets[r].held_micro) for r in refs])


async def test_a_burst_decided_in_one_batch_decides_as_in_series_on_postgresql(container: Any, runtime: Any) -> None:
    c = container
    one, other = await _world(c), await _world(c)
    serial, serial_after = await _decide(c, one, batched=False)
    batched, batched_after = await _decide(c, other, batched=True)
    for i, (x, y) in enumerate(zip(serial, batched, strict=True)):
        assert x == y, (i, BURST[i], x, y)
    assert serial_after == batched_after
    kinds = [d[0] for d in serial]
    assert {"refused", sessions.S.SCHEDULED, sessions.S.QUEUED} <= set(kinds), serial
    assert {d[1] for d in serial if d[0] == "refused"} == {4, 6}, serial
    await one.adapter.close()
    await other.adapter.close()
