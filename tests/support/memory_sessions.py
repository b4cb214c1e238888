"""In-memory adapters of the sessions context for unit tests of its use cases: sessions
(optimistic versions), notifications, the capacity store (kept as plain data, rebuilt into a
scheduler and queue on every lock, as infra/db/repositories/capacity.py does), the policy
usage counted from the stored sessions, a billing stand-in, and the unit of work over them."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any
from uuid import UUID

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits.model import AccountRef, HoldStatus
from domain.inventory.model import Cluster, Inventory, Node
from domain.policies.model import PolicyScope, PolicyScopeKind, Usage
from domain.scheduling.model import Allocation
from domain.scheduling.queue import GpuQueue, QueueEntry
from domain.scheduling.scheduler import Scheduler
from domain.sessions.model import ACTIVE, Session, SessionKind, SessionState
from domain.sessions.ports import BillingLine, BillingResult, CapacityState, Notification, SessionFilter
from tests.support.memory import InMemoryUnitOfWork, TenancyState


@dataclass
class CapacityData:
    clusters: dict[str, tuple[Cluster, str]] = field(default_factory=dict)
    nodes: dict[str, Node] = field(default_factory=dict)
    allocations: list[dict[str, Any]] = field(default_factory=list)
    queue: list[dict[str, Any]] = field(default_factory=list)
    next_arrival: int = 0


@dataclass
class SessionsState(TenancyState):
    notifications: dict[UUID, Notification] = field(default_factory=dict)
    capacity: CapacityData = field(default_factory=CapacityData)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # published after commit


class InMemoryWalletHolds:
    """`WalletHolds` on the in-memory ledger (which has no transactions: a hold is reserved
    at once, as the ledger's `reserve` does)."""

    def __init__(self, ledger: Any) -> None:
        self.ledger = ledger

    async def lock_wallets(self, user_ids: Sequence[UUID]) -> dict[UUID, Any]:
        refs = [AccountRef.user(u) for u in user_ids]
        found = await self.ledger.balances(refs)
        return {u: found[r] for u, r in zip(user_ids, refs, strict=True)}

    async def add(self, requests: Sequence[Any]) -> list[Any]:
        return [(await self.ledger.reserve(r)).hold for r in requests]


class StaleSession(DomainError):
    def __init__(self) -> None:
        super().__init__(CommonErrorCode.CONFLICT, "the session changed meanwhile; try again", "id")


class InMemorySessions:
    def __init__(self, state: SessionsState) -> None:
        self.st = state

    async def add_many(self, sessions: Sequence[Session]) -> None:
        for session in sessions:
            await self.add(session)

    async def add(self, session: Session) -> None:
        assert session.id not in self.st.sessions
        self.st.sessions[session.id] = session

    async def get(self, session_id: UUID, *, for_update: bool = False) -> Session | None:
        return self.st.sessions.get(session_id)

    async def get_many(self, ids: Sequence[UUID], *, for_update: bool = False) -> list[Session]:
        return [self.st.sessions[i] for i in ids if i in self.st.sessions]

    async def update(self, session: Session) -> Session:
        stored = self.st.sessions.get(session.id)
        if stored is None or stored.version != session.version:
            raise StaleSession()
        new = replace(session, version=session.version + 1)
        self.st.sessions[session.id] = new
        return new

    async def update_many(self, sessions: Sequence[Session]) -> list[Session]:
        return [await self.update(s) for s in sessions]

    async def search(self, flt: SessionFilter, offset: int, limit: int) -> tuple[list[Session], int]:
        def keep(s: Session) -> bool:
            if flt.owner_id is not None and s.owner_id != flt.owner_id:
                return False
            scope = []
            if flt.organization_ids is not None:
                scope.append(s.organization_id in flt.organization_ids)
            if flt.group_ids is not None:
                scope.append(s.group_id in flt.group_ids)
            if scope and not any(scope):
                return False
            if flt.cluster_id is not None and s.cluster_id != flt.cluster_id:
                return False
            return flt.states is None or s.state in flt.states

        rows = sorted(
            (s for s in self.st.sessions.values() if keep(s)), key=lambda s: (-s.created_at.timestamp(), s.id)
        )
        return rows[offset : offset + limit], len(rows)

    async def active_in(self, states: frozenset[SessionState]) -> list[Session]:
        return [s for s in self.st.sessions.values() if s.state in states]

    async def owners_in(self, states: frozenset[SessionState]) -> set[UUID]:
        return {s.owner_id for s in self.st.sessions.values() if s.state in states}


class InMemoryNotifications:
    def __init__(self, state: SessionsState) -> None:
        self.st = state

    async def add(self, notification: Notification) -> None:
        self.st.notifications[notification.id] = notification

    async def of_user(
        self, user_id: UUID, offset: int, limit: int, unread_only: bool = False
    ) -> tuple[list[Notification], int]:
        rows = sorted(
            (
                n
                for n in self.st.notifications.values()
                if n.user_id == user_id and (n.read_at is None or not unread_only)
            ),
            key=lambda n: n.created_at,
            reverse=True,
        )
        return rows[offset : offset + limit], len(rows)

    async def mark_read(self, user_id: UUID, ids: Sequence[UUID], at: datetime) -> int:
        n = 0
        for i in ids:
            found = self.st.notifications.get(i)
            if found is not None and found.user_id == user_id and found.read_at is None:
                self.st.notifications[i] = replace(found, read_at=at)
                n += 1
        return n


class InMemoryCapacity:
    def __init__(self, state: SessionsState) -> None:
        self.st = state

    def _inventory(self) -> Inventory:
        data = self.st.capacity
        clusters = tuple(c for c, _ in sorted(data.clusters.values(), key=lambda ck: ck[0].id))
        known = {c.id for c in clusters}
        nodes = tuple(n for _, n in sorted(data.nodes.items()) if n.cluster_id in known)
        return Inventory(clusters, nodes)

    def _build(self) -> CapacityState:
        data = self.st.capacity
        inventory = self._inventory()
        scheduler, conflicts = Scheduler.from_snapshot(inventory, [Allocation.from_dict(a) for a in data.allocations])
        queue = GpuQueue(QueueEntry.from_dict(e) for e in data.queue)
        state = CapacityState(
            scheduler, queue, {c.id: c for c in inventory.clusters}, [(a, e.message) for a, e in conflicts]
        )
        state.next_arrival = data.next_arrival
        return state

    async def lock(self) -> CapacityState:
        return self._build()

    async def snapshot(self) -> CapacityState:
        return self._build()

    async def save(self, state: CapacityState) -> None:
        data = self.st.capacity
        kept = [a.to_dict() for a, _ in state.conflicts]  # what no longer fits stays until dealt with
        data.allocations = [a.to_dict() for a in state.scheduler.allocations()] + kept
        data.queue = [e.to_dict() for e in state.queue.entries()]
        data.next_arrival = state.next_arrival

    async def put_cluster(self, cluster: Cluster, kind: str) -> None:
        self.st.capacity.clusters[cluster.id] = (cluster, kind)

    async def replace_nodes(self, cluster_id: str, nodes: Sequence[Node]) -> None:
        data = self.st.capacity
        data.nodes = {k: n for k, n in data.nodes.items() if n.cluster_id != cluster_id}
        data.nodes.update({n.id: n for n in nodes})

    async def clusters(self) -> list[tuple[Cluster, str]]:
        return sorted(self.st.capacity.clusters.values(), key=lambda ck: ck[0].id)

    async def inventory(self) -> Inventory:
        return self._inventory()


class InMemorySessionUsage:
    """As SqlUsageReader: active sessions except jobs, and volumes, per scope."""

    def __init__(self, state: SessionsState) -> None:
        self.st = state

    async def usage(self, scopes: Sequence[PolicyScope]) -> dict[PolicyScope, Usage]:
        def inside(scope: PolicyScope, owner: UUID | None, group: UUID | None, org: UUID) -> bool:
            if scope.kind is PolicyScopeKind.USER:
                return owner == scope.id
            if scope.kind is PolicyScopeKind.GROUP:
                return group == scope.id
            if scope.kind is PolicyScopeKind.ORGANIZATION:
                return org == scope.id
            return True

        out: dict[PolicyScope, Usage] = {}
        live = [s for s in self.st.sessions.values() if s.state in ACTIVE and s.kind is not SessionKind.JOB]
        for scope in scopes:
            mine = [s for s in live if inside(scope, s.owner_id, s.group_id, s.organization_id)]
            per_model: dict[str, Fraction] = {}
            for s in mine:
                if s.gpu is not None:
                    per_model[s.gpu.offering_name] = per_model.get(s.gpu.offering_name, Fraction(0)) + s.gpu.ratio
            out[scope] = Usage(
                sessions=len(mine),
                gpus=sum((s.gpu.ratio for s in mine if s.gpu), Fraction(0)),
                per_model=per_model,
                vram_mib=sum(s.gpu.vram_mib * s.gpu.cards for s in mine if s.gpu),
                cpu_millicores=sum(s.cpu_millicores for s in mine),
                memory_mib=sum(s.memory_mib for s in mine),
                storage_mib=sum(
                    v.size_mib
                    for v in self.st.volumes.values()
                    if inside(scope, v.owner_id, v.group_id, v.organization_id)
                ),
            )
        return out


class RecordedBilling:
    """The `Billing` port for use-case tests: records each call and closes the named sessions'
    holds in the in-memory ledger (what the SQL statement's settlement does, minus charging:
    the charge arithmetic is tested against PostgreSQL in tests/integration/billing)."""

    def __init__(self, state: SessionsState, ledger: Any) -> None:
        self.st, self.ledger = state, ledger
        self.calls: list[tuple[datetime, tuple[UUID, ...] | None, bool]] = []

    async def bill(self, now: datetime, session_ids: Sequence[UUID] | None, *, close: bool) -> BillingResult:
        self.calls.append((now, None if session_ids is None else tuple(session_ids), close))
        lines = []
        for sid in session_ids or ():
            s = self.st.sessions.get(sid)
            if s is None or s.gpu is None:
                continue
            closed = False
            if close and s.hold_id is not None:
                hold = await self.ledger.get_hold(s.hold_id)
                if hold is not None and hold.status is HoldStatus.OPEN:
                    await self.ledger.release_hold(s.hold_id, now)
                    closed = True
            lines.append(BillingLine(sid, s.owner_id, 0, 0, 0, 0, False, closed))
        return BillingResult(len(lines), 0, 0, tuple(lines))


class SessionsUnitOfWork(InMemoryUnitOfWork):
    def __init__(self, state: SessionsState, ledger: Any = None) -> None:
        super().__init__(state)
        self.st = state
        self.ledger = ledger  # where `holds` are written (outside the state: it is not rolled back)

    @property
    def sessions(self) -> InMemorySessions:
        return InMemorySessions(self.st)

    @property
    def notifications(self) -> InMemoryNotifications:
        return InMemoryNotifications(self.st)

    @property
    def capacity(self) -> InMemoryCapacity:
        return InMemoryCapacity(self.st)

    @property
    def holds(self) -> InMemoryWalletHolds:
        return InMemoryWalletHolds(self.ledger)

    @property
    def usage(self) -> InMemorySessionUsage:  # type: ignore[override]
        return InMemorySessionUsage(self.st)

    @usage.setter
    def usage(self, _: object) -> None:  # the tenancy unit of work's hand-set usage is not used here
        pass

    async def commit(self) -> None:
        pending = list(self._pending)
        await super().commit()
        self.st.events += pending


def unit_of_work_factory(state: SessionsState, ledger: Any = None) -> Callable[[], SessionsUnitOfWork]:
    """A new unit of work over the shared state each time, as the composition root's factory."""
    return lambda: SessionsUnitOfWork(state, ledger)


def snapshot_of(state: SessionsState) -> SessionsState:
    return copy.deepcopy(state)
