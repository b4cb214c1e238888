"""200 concurrent sessionCreate calls through GraphQL for a cluster with room for 100, on real
PostgreSQL: exactly 100 placed and 100 queued, no card over capacity, holds equal to the
placed sessions' estimates; stopping 10 admits the next 10 in queue order."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

from sqlalchemy import text
from strawberry import relay

from domain.catalog.model import GpuTier
from domain.credits.model import AccountRef
from domain.inventory.model import Card, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from domain.tenancy import services as tenancy
from tests.integration.sessions.test_lifecycle import wait_state
from tests.support.api import SYSTEM, Gql, add_gpu_catalog, add_simulated_cluster, fund_user, gid, make_user, unique

MODEL = "T4-conc"
CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""


async def test_200_concurrent_creates_for_room_for_100(container: Any, runtime: Any, http: Any) -> None:
    c = container
    nodes = tuple(
        Node(
            f"conc-{i}",
            f"conc-{i}",
            "conc",
            SharingMode.EXCLUSIVE,
            64000,
            512 * 1024,
            tuple(Card(f"GPU-conc-{i}-{j}", MODEL, 16384) for j in range(4)),
        )
        for i in range(25)
    )
    cluster = await add_simulated_cluster(c, "conc", nodes, start_delay=0.2)
    cat = await add_gpu_catalog(
        c,
        MODEL,
        16384,
        720_000,
        preset={"cpu_millicores": 1000, "memory_mib": 2048, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )
    offering, preset, image = cat["offering"], cat["preset"], cat["image"]
    async with c.uow() as uow:
        org = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("Conc"))
        group = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=org.id, name="Lab")
        await uow.commit()
    users = []
    for _ in range(20):
        uid, token = await make_user(c, org.id, unique("conc"), groups=[group.id])
        await fund_user(c, org.id, group.id, uid, 100)
        gql = Gql(http, token)
        await gql(
            "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", group.id)
        )
        users.append((uid, gql))

    async def create(i: int) -> dict[str, Any]:
        _, gql = users[i % len(users)]
        data = await gql(
            CREATE,
            input={
                "name": f"c{i}",
                "imageId": gid("Image", image.id),
                "presetId": gid("Preset", preset.id),
                "offeringId": gid("Offering", offering.id),
                "expiry": "H1",
            },
        )
        return data["sessionCreate"]  # type: ignore[no-any-return]

    results = await asyncio.gather(*(create(i) for i in range(200)))
    assert all(r["errors"] == [] for r in results), [r["errors"] for r in results if r["errors"]][:3]
    states = [r["session"]["state"] for r in results]
    assert states.count("SCHEDULED") == 100 and states.count("QUEUED") == 100

    async with c.uow() as uow:
        state = await uow.capacity.snapshot()
    placed = [a for a in state.scheduler.allocations() if a.placement.cluster_id == "conc"]
    cards = [u for a in placed for u in a.placement.card_uuids]
    assert len(placed) == 100 and len(cards) == len(set(cards)) == 100  # one tenant per card
    queue = [e.workload_id for e in state.queue.entries(MODEL)]
    assert len(queue) == 100

    balances = await c.credits.ledger.balances([AccountRef.user(u) for u, _ in users])
    held = sum(b.held_micro for b in balances.values())
    # 0.72 credits/hour × 1 card × 1 h (the expiry is shorter than the hold window)
    assert held == 100 * 720_000

    # every admission audited exactly once
    ids = [UUID(relay.GlobalID.from_id(r["session"]["id"]).node_id) for r in results]
    async with c.engine.connect() as conn:
        audited = (
            await conn.execute(
                text(
                    "SELECT target_id, count(*) FROM audit_log WHERE operation = 'sessionCreate' "
                    "AND target_id = ANY(:ids) GROUP BY target_id"
                ),
                {"ids": [str(i) for i in ids]},
            )
        ).all()
    assert len(audited) == 200 and all(n == 1 for _, n in audited)

    # stop 10 placed sessions: the first 10 of the queue, in order, are admitted
    placed_ids = [sid for sid, st in zip(ids, states, strict=True) if st == "SCHEDULED"][:10]
    async with c.uow() as uow:
        owners = {s.id: s.owner_id for s in await uow.sessions.get_many(placed_ids)}
    for sid in placed_ids:
        async with c.uow() as uow:
            actor = await tenancy.load_actor(uow, owners[sid])
        await sessions.session_stop(c.sessions, actor, sid)
    for wid in queue[:10]:
        await wait_state(c, UUID(wid), SessionState.SCHEDULED, SessionState.STARTING, SessionState.RUNNING)
    async with c.uow() as uow:
        state = await uow.capacity.snapshot()
        rest = await uow.sessions.get_many([UUID(w) for w in queue[10:]])
    assert [e.workload_id for e in state.queue.entries(MODEL)] == queue[10:]
    assert all(s.state == SessionState.QUEUED for s in rest)
    cards = [
        u for a in state.scheduler.allocations() if a.placement.cluster_id == "conc" for u in a.placement.card_uuids
    ]
    assert len(cards) == len(set(cards)) == 100
    await cluster.close()


async def test_a_decision_that_changed_nothing_keeps_the_cached_capacity(container: Any, runtime: Any) -> None:
    """A drain with nothing to admit or a refused request rolls back without touching the
    scheduler: its copy goes back to the process's cache instead of being rebuilt from rows."""
    from domain.scheduling.model import GpuRequest
    from infra.db.uow import SqlUnitOfWorkFactory

    units = SqlUnitOfWorkFactory(container.uow.sessionmaker)  # a cache of its own: nobody else uses it
    cache = units.capacity_cache
    async with units() as uow:
        await uow.capacity.lock()
        await uow.commit()
    kept = cache.entry
    assert kept is not None
    async with units() as uow:
        state = await uow.capacity.lock()
        assert cache.entry is None  # the transaction owns the copy while it runs
        state.queue.drain(state.scheduler)  # nothing queued that fits: nothing changes
    assert cache.entry is not None and cache.entry.state is kept.state

    async with units() as uow:  # changed, then rolled back: never reused
        state = await uow.capacity.lock()
        model = next(c.model for n in state.scheduler.inventory.nodes for c in n.cards)
        state.queue.enqueue(GpuRequest("rolled-back", model, exclusive_cards=1, cpu_millicores=100, memory_mib=128))
    assert cache.entry is None
    async with units() as uow:
        state = await uow.capacity.lock()
        assert "rolled-back" not in state.queue
