"""The capacity store over PostgreSQL, with a per-process cache of the scheduler.

Every placement decision in the deployment takes the `capacity_state` row lock, so decisions
are serial and always see every committed placement (200 concurrent admissions cannot
over-commit a card). Rebuilding the scheduler from rows costs a scan of the inventory, so a
process keeps the last scheduler it committed, tagged with the row's `epoch`: when the locked
row still shows that epoch nothing changed elsewhere and the cached copy is used; otherwise it
rebuilds. A copy taken from the cache is owned by the transaction until it commits (then it
returns to the cache with the new epoch) or rolls back (then it is dropped).

Several processes (API replicas, workers) decide in turn, so the epoch a process finds has
often moved by another's decisions: each save also writes its delta (placements and queue
entries in and out) under the epoch it commits (`capacity_changes`), and a process whose cached
copy is behind applies the deltas since its epoch instead of rebuilding from every row. An
inventory change writes a marker that forces the rebuild; so does a gap (pruned history)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from domain.inventory.model import Cluster, Inventory, Node
from domain.scheduling.errors import SchedulingError
from domain.scheduling.model import Allocation
from domain.scheduling.queue import GpuQueue, QueueEntry
from domain.scheduling.scheduler import Scheduler
from domain.sessions.ports import CapacityState
from infra.db.models.inventory import (
    CapacityChangeRow,
    CapacityStateRow,
    ClusterNodeRow,
    ClusterRow,
    PlacementRow,
    QueueEntryRow,
)

# deltas kept: a process further behind than this rebuilds (as cheap by then)
KEEP_CHANGES = 1000


@dataclass
class _Cached:
    epoch: int
    state: CapacityState
    # what the rows hold, by workload id: the very objects the scheduler and queue keep, so
    # a save compares identities (O(n) pointer checks) and serialises only what changed
    allocations: dict[str, Any]
    queue: dict[str, Any]


@dataclass
class CapacityCache:
    """Shared by every unit of work of one process (held by the unit-of-work factory)."""

    entry: _Cached | None = None
    hits: int = 0
    rebuilds: int = 0
    catch_ups: int = 0  # another process decided meanwhile: its deltas were applied


@dataclass
class _Taken:
    epoch: int
    state: CapacityState
    allocations: dict[str, Any]
    queue: dict[str, Any]
    saved_epoch: int | None = None
    queue_version: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


_NEW_PLACEMENT = insert(PlacementRow)
_UPSERT_PLACEMENT = _NEW_PLACEMENT.on_conflict_do_update(
    index_elements=["workload_id"],
    set_={
        "cluster_id": _NEW_PLACEMENT.excluded.cluster_id,
        "node_id": _NEW_PLACEMENT.excluded.node_id,
        "data": _NEW_PLACEMENT.excluded.data,
    },
)


class SqlCapacityStore:
    def __init__(self, session: AsyncSession, cache: CapacityCache) -> None:
        self.s = session
        self.cache = cache
        self._taken: _Taken | None = None

    # -------------------------------------------------------------- locking and saving

    async def _lock_row(self) -> CapacityStateRow:
        locking = select(CapacityStateRow).where(CapacityStateRow.id == 1).with_for_update()
        row = await self.s.scalar(locking)
        if row is None:  # the first placement of a new deployment creates the row
            await self.s.execute(
                insert(CapacityStateRow).values(id=1, epoch=0, next_arrival=0).on_conflict_do_nothing()
            )
            row = await self.s.scalar(locking)
        assert row is not None
        return row

    async def lock(self) -> CapacityState:
        if self._taken is not None:
            return self._taken.state
        row = await self._lock_row()
        cached = self.cache.entry
        if cached is not None and cached.epoch == row.epoch:
            self.cache.entry = None  # owned by this transaction until commit
            self.cache.hits += 1
            taken = _Taken(row.epoch, cached.state, cached.allocations, cached.queue)
        elif cached is not None and cached.epoch < row.epoch and await self._catch_up(cached, row.epoch):
            self.cache.catch_ups += 1
            taken = _Taken(row.epoch, cached.state, cached.allocations, cached.queue)
        else:
            state, allocations, queue = await self._build()
            self.cache.rebuilds += 1
            taken = _Taken(row.epoch, state, allocations, queue)
        taken.state.next_arrival = row.next_arrival
        taken.queue_version = taken.state.queue.version
        self._taken = taken
        return taken.state

    async def _catch_up(self, cached: _Cached, epoch: int) -> bool:
        """Apply the deltas from `cached.epoch` to `epoch` to the cached copy (taken out of the
        cache first: it is this transaction's now, or dropped). False when they cannot be
        applied (an inventory change, a gap, a conflict): the caller rebuilds."""
        self.cache.entry = None
        if epoch - cached.epoch > KEEP_CHANGES:
            return False
        rows = list(
            await self.s.scalars(
                select(CapacityChangeRow)
                .where(CapacityChangeRow.epoch > cached.epoch, CapacityChangeRow.epoch <= epoch)
                .order_by(CapacityChangeRow.epoch)
            )
        )
        if len(rows) != epoch - cached.epoch or any(r.data.get("rebuild") for r in rows):
            return False
        scheduler, queue = cached.state.scheduler, cached.state.queue
        try:
            for r in rows:
                for wid in r.data["released"]:
                    if scheduler.allocation(wid) is not None:
                        scheduler.release(wid)
                    cached.allocations.pop(wid, None)
                for wid, data in r.data["placed"].items():
                    if scheduler.allocation(wid) is not None:
                        scheduler.release(wid)
                    scheduler.apply(Allocation.from_dict(data))
                    cached.allocations[wid] = scheduler.allocation(wid)
                for wid in r.data["dequeued"]:
                    if wid in queue:
                        queue.remove(wid)
                    cached.queue.pop(wid, None)
                for wid, data in r.data["queued"].items():
                    if wid in queue:
                        queue.remove(wid)
                    entry = QueueEntry.from_dict(data)
                    cached.queue[wid] = queue.enqueue(entry.request, entry.arrival)
        except SchedulingError:
            return False  # the copy is half-changed: dropped, the caller rebuilds from the rows
        scheduler.take_touched()  # the rows hold what was just applied
        return True

    async def save(self, state: CapacityState) -> None:
        taken = self._taken
        assert taken is not None and taken.state is state, "save() needs the state lock() returned"
        # only what the scheduler placed or released since the last save can differ from the rows
        now_alloc = taken.allocations  # owned by this transaction: updated in place
        gone: list[str] = []
        changed: dict[str, Any] = {}
        for w in state.scheduler.take_touched():
            a = state.scheduler.allocation(w)
            if a is None:
                if now_alloc.pop(w, None) is not None:
                    gone.append(w)
            elif now_alloc.get(w) is not a:
                now_alloc[w] = a
                changed[w] = a.to_dict()
        if state.forgotten:  # conflicting placements the use case dealt with (not in `now_alloc`)
            gone.extend(w for w in state.forgotten if w not in now_alloc)
            state.forgotten.clear()
        if gone:
            await self.s.execute(delete(PlacementRow).where(PlacementRow.workload_id.in_(gone)))
        if changed:  # one statement for a batch of admissions (issue 19)
            await self.s.execute(
                _UPSERT_PLACEMENT,
                [
                    {
                        "workload_id": wid,
                        "cluster_id": data["placement"]["cluster_id"],
                        "node_id": data["placement"]["node_id"],
                        "data": data,
                    }
                    for wid, data in changed.items()
                ],
            )
        now_queue = {e.workload_id: e for e in state.queue.entries()}
        left = [w for w in taken.queue if w not in now_queue]
        if left:
            await self.s.execute(delete(QueueEntryRow).where(QueueEntryRow.workload_id.in_(left)))
        queued: dict[str, Any] = {}
        for wid, entry in now_queue.items():
            if taken.queue.get(wid) is entry:
                continue
            data = queued[wid] = entry.to_dict()
            request = data["request"]
            stmt = insert(QueueEntryRow).values(
                workload_id=wid,
                offering=request["offering"],
                priority=int(request.get("priority", 0)),
                arrival=int(data["arrival"]),
                data=data,
            )
            await self.s.execute(
                stmt.on_conflict_do_update(
                    index_elements=["workload_id"],
                    set_={
                        "priority": stmt.excluded.priority,
                        "arrival": stmt.excluded.arrival,
                        "data": stmt.excluded.data,
                    },
                )
            )
        # the row's epoch, not ours + 1: an inventory change in this transaction bumped it too
        new_epoch = await self.s.scalar(
            update(CapacityStateRow)
            .where(CapacityStateRow.id == 1)
            .values(epoch=CapacityStateRow.epoch + 1, next_arrival=state.next_arrival)
            .returning(CapacityStateRow.epoch)
        )
        assert new_epoch is not None
        await self._record(new_epoch, {"placed": changed, "released": gone, "queued": queued, "dequeued": left})
        taken.queue, taken.saved_epoch = now_queue, new_epoch  # (its allocations were updated in place)
        # Publish to the cache now, tagged with the epoch this transaction will commit: the next
        # transaction of this process can only read that epoch once this one has committed (it
        # waits on the row lock), so it may reuse the state even if it wakes before our commit
        # returns; if we roll back, the row keeps the old epoch and the entry simply mismatches.
        self.cache.entry = _Cached(new_epoch, state, now_alloc, now_queue)

    def after_commit(self) -> None:
        taken, self._taken = self._taken, None
        if taken is None:
            return
        epoch = taken.saved_epoch if taken.saved_epoch is not None else taken.epoch
        current = self.cache.entry
        if current is None or current.epoch < epoch:
            self.cache.entry = _Cached(epoch, taken.state, taken.allocations, taken.queue)

    def after_rollback(self) -> None:
        """A working copy that was changed may be half-changed: it is dropped (the next lock
        rebuilds from the rows). One that was only looked at (a drain with nothing to admit, a
        request refused before placement) is still exactly the rows of its epoch: it goes back
        to the cache, so the next decision does not rebuild the whole inventory."""
        taken, self._taken = self._taken, None
        if taken is None or taken.saved_epoch is not None:
            return
        state = taken.state
        if state.scheduler.dirty or state.queue.version != taken.queue_version:
            return
        if self.cache.entry is None:
            self.cache.entry = _Cached(taken.epoch, state, taken.allocations, taken.queue)

    # -------------------------------------------------------------- reading

    async def _build(self) -> tuple[CapacityState, dict[str, Any], dict[str, Any]]:
        inventory, clusters = await self._inventory()
        allocation_rows = list(await self.s.scalars(select(PlacementRow).order_by(PlacementRow.created_at)))
        scheduler, conflicts = Scheduler.from_snapshot(
            inventory, [Allocation.from_dict(r.data) for r in allocation_rows]
        )
        queue_rows = list(await self.s.scalars(select(QueueEntryRow)))
        queue = GpuQueue(QueueEntry.from_dict(r.data) for r in queue_rows)
        scheduler.take_touched()  # the rows are what was just read
        state = CapacityState(scheduler, queue, clusters, [(a, e.message) for a, e in conflicts])
        # allocations that no longer fit the inventory are left out of `known`, so a save never
        # deletes their rows: they stay visible (state.conflicts) until their sessions are dealt with
        known = {a.workload_id: a for a in scheduler.allocations()}
        return state, known, {e.workload_id: e for e in queue.entries()}

    async def _inventory(self) -> tuple[Inventory, dict[str, Cluster]]:
        cluster_rows = list(await self.s.scalars(select(ClusterRow).order_by(ClusterRow.id)))
        clusters = {r.id: Cluster(r.id, r.name, r.placement_policy) for r in cluster_rows}
        node_rows = list(await self.s.scalars(select(ClusterNodeRow).order_by(ClusterNodeRow.node_id)))
        nodes = tuple(Node.from_dict(r.data) for r in node_rows if r.cluster_id in clusters)
        return Inventory(tuple(clusters.values()), nodes), clusters

    async def snapshot(self) -> CapacityState:
        cached = self.cache.entry
        if cached is not None:
            row = await self.s.scalar(select(CapacityStateRow.epoch).where(CapacityStateRow.id == 1))
            if row == cached.epoch:
                return cached.state
        state, _, _ = await self._build()
        return state

    async def inventory(self) -> Inventory:
        inventory, _ = await self._inventory()
        return inventory

    async def clusters(self) -> list[tuple[Cluster, str]]:
        rows = await self.s.scalars(select(ClusterRow).order_by(ClusterRow.id))
        return [(Cluster(r.id, r.name, r.placement_policy), r.kind) for r in rows]

    # -------------------------------------------------------------- inventory changes

    async def put_cluster(self, cluster: Cluster, kind: str) -> None:
        await self._lock_row()
        stmt = insert(ClusterRow).values(
            id=cluster.id, name=cluster.name, kind=kind, placement_policy=cluster.placement_policy
        )
        await self.s.execute(
            stmt.on_conflict_do_update(
                index_elements=["id"],
                set_={"name": stmt.excluded.name, "placement_policy": stmt.excluded.placement_policy},
            )
        )
        await self._bump()

    async def replace_nodes(self, cluster_id: str, nodes: Sequence[Node]) -> None:
        await self._lock_row()
        keep = [n.id for n in nodes]
        await self.s.execute(
            delete(ClusterNodeRow).where(ClusterNodeRow.cluster_id == cluster_id, ClusterNodeRow.node_id.not_in(keep))
        )
        for node in nodes:
            stmt = insert(ClusterNodeRow).values(node_id=node.id, cluster_id=cluster_id, data=node.to_dict())
            await self.s.execute(
                stmt.on_conflict_do_update(
                    index_elements=["node_id"],
                    set_={"cluster_id": stmt.excluded.cluster_id, "data": stmt.excluded.data},
                )
            )
        await self._bump()

    async def _bump(self) -> None:
        """Inventory changed: cached schedulers everywhere are stale (the marker makes every
        process rebuild instead of applying deltas)."""
        epoch = await self.s.scalar(
            update(CapacityStateRow)
            .where(CapacityStateRow.id == 1)
            .values(epoch=CapacityStateRow.epoch + 1)
            .returning(CapacityStateRow.epoch)
        )
        assert epoch is not None
        await self._record(epoch, {"rebuild": True})
        self.cache.entry = None

    async def _record(self, epoch: int, data: dict[str, Any]) -> None:
        await self.s.execute(insert(CapacityChangeRow).values(epoch=epoch, data=data))
        if epoch % 100 == 0:  # now and then, the history no process needs any more
            await self.s.execute(delete(CapacityChangeRow).where(CapacityChangeRow.epoch <= epoch - KEEP_CHANGES))
