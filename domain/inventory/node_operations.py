"""A node's sharing-mode (or time-slice replica) change as a guarded admin operation, BRICK's
runbook as a feature: pre-check, cordon, drain, relabel, wait for the new resource, remove the
stale one, uncordon.

`node_sharing_mode_change_start` does the pre-check against the capacity state (the plan of
`domain.inventory.changes` refuses when the remaining shared capacity would not cover the
allocated shared quota) and records the operation; nothing is touched when it refuses.
`node_sharing_mode_change_run` then carries it out, usually in the background: the cluster
half (`NodeSharingPort`, Kubernetes labels and node status) announces each step; on `cordon`
the node also stops taking placements in the capacity state, on `drain` the sessions there
are paused and, once their pods are gone, resumed elsewhere (placed again, or queued until the
node is back), and at the end the node's fresh inventory (new mode, uncordoned) replaces the
old one and the queue is drained. Every step is stored on the operation, published on
`node_operation_topic(id)` and written to the audit log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol
from uuid import UUID

from domain.audit.services import AuditTarget, audit_entry, record
from domain.common.errors import DomainError, NotFoundError
from domain.inventory.changes import SharingModeChangePlan, plan_sharing_mode_change
from domain.inventory.errors import InventoryError, InventoryErrorCode
from domain.inventory.model import Inventory, Node, SharingMode
from domain.ports import EventBus
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from domain.tenancy import access
from domain.tenancy.model import Actor

log = logging.getLogger(__name__)

AUDIT_OPERATION = "nodeSharingModeChange"


class NodeOperationStep(StrEnum):
    PRECHECK = "precheck"
    CORDON = "cordon"
    DRAIN = "drain"
    RELABEL = "relabel"
    WAIT_FOR_RESOURCE = "wait-for-resource"
    REMOVE_STALE = "remove-stale"
    UNCORDON = "uncordon"
    ROLLBACK = "rollback"  # the new mode never showed: the old one is put back


class NodeOperationState(StrEnum):
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class NodeOperationProgress:
    step: NodeOperationStep
    message: str
    at: datetime


@dataclass(frozen=True, slots=True)
class NodeOperation:
    id: UUID
    cluster_id: str
    node_id: str
    mode: SharingMode
    replicas: int | None
    state: NodeOperationState
    requested_by: UUID | None
    created_at: datetime
    steps: tuple[NodeOperationProgress, ...] = ()
    drained_sessions: tuple[str, ...] = ()
    removed_resources: tuple[str, ...] = ()
    error: str | None = None
    finished_at: datetime | None = None

    @property
    def current_step(self) -> NodeOperationStep | None:
        return self.steps[-1].step if self.steps else None


def node_operation_topic(operation_id: UUID) -> str:
    return f"node-operation:{operation_id}"


class NodeOperationRecords(Protocol):
    """Where operations are kept; each call is its own transaction (progress must be visible
    while the operation runs)."""

    async def add(self, operation: NodeOperation) -> None: ...

    async def save(self, operation: NodeOperation) -> None: ...

    async def get(self, operation_id: UUID) -> NodeOperation | None: ...


class NodeSharingPort(Protocol):
    """The cluster half of the operation (Kubernetes: `infra.cluster.kubernetes.change_sharing_mode`).

    It cordons, calls `drain(session ids whose pods are on the node)` and waits for those pods
    to go, relabels, waits for the new resource, removes stale capacity and uncordons,
    announcing each step through `progress(step, message)` before doing it. Returns the
    resources it removed; raises on failure: with a true `rolled_back` attribute when the node
    was put back in its old mode and uncordoned, otherwise the node is left cordoned."""

    async def change_sharing_mode(
        self,
        node_name: str,
        mode: SharingMode,
        replicas: int | None,
        *,
        drain: Callable[[list[UUID]], Awaitable[None]],
        progress: Callable[[str, str], Awaitable[None]],
    ) -> list[str]: ...

    async def read_inventory(self) -> Inventory: ...


@dataclass
class NodeOperationDeps:
    sessions: sessions.SessionServices
    records: NodeOperationRecords
    events: EventBus
    # how long drained sessions may take to reach PAUSED before they are resumed
    pause_within: float = 120.0
    poll_interval: float = 0.1
    extra: dict[str, Any] = field(default_factory=dict)


async def _plan(
    deps: NodeOperationDeps, cluster_id: str, node_id: str, mode: SharingMode, replicas: int | None
) -> SharingModeChangePlan:
    async with deps.sessions.uow() as uow:
        state = await uow.capacity.lock()
        inventory = await uow.capacity.inventory()
        if not any(n.id == node_id and n.cluster_id == cluster_id for n in inventory.nodes):
            raise NotFoundError("node", "nodeId")
        allocations = {a.workload_id: a.placement for a in state.scheduler.allocations()}
    return plan_sharing_mode_change(inventory, allocations, node_id, mode, replicas)


async def node_sharing_mode_change_start(
    deps: NodeOperationDeps,
    actor: Actor,
    *,
    cluster_id: str,
    node_id: str,
    mode: SharingMode,
    replicas: int | None,
    operation_id: UUID,
) -> tuple[NodeOperation, SharingModeChangePlan]:
    """The pre-check; raises (typed, nothing touched) or records the operation as running."""
    access.require_super_admin(actor)
    if deps.sessions.clusters.get(cluster_id) is None:
        raise NotFoundError("cluster", "clusterId")
    if mode is SharingMode.TIMESLICING and replicas is None:
        raise InventoryError(
            "time slicing needs a replica count", "replicas", InventoryErrorCode.SHARING_CHANGE_INVALID
        )
    if mode is not SharingMode.TIMESLICING and replicas is not None:
        raise InventoryError(
            "replicas apply to time slicing only", "replicas", InventoryErrorCode.SHARING_CHANGE_INVALID
        )
    plan = await _plan(deps, cluster_id, node_id, mode, replicas)
    now = deps.sessions.clock.now()
    operation = NodeOperation(
        id=operation_id,
        cluster_id=cluster_id,
        node_id=node_id,
        mode=mode,
        replicas=replicas,
        state=NodeOperationState.RUNNING,
        requested_by=actor.user_id,
        created_at=now,
        steps=(
            NodeOperationProgress(
                NodeOperationStep.PRECHECK,
                f"{plan.from_mode.value} -> {plan.to_mode.value}: time-slices after the change "
                f"{plan.shared_total_after}, allocated {plan.shared_allocated}; "
                f"{len(plan.drain)} session(s) to drain",
                now,
            ),
        ),
        drained_sessions=plan.drain,
    )
    await deps.records.add(operation)
    return operation, plan


async def _audit(deps: NodeOperationDeps, actor: Actor, op: NodeOperation, step: str, ok: bool, message: str) -> None:
    svc = deps.sessions
    async with svc.uow() as uow:
        await record(
            uow.audit,
            audit_entry(
                svc.ids,
                at=svc.clock.now(),
                actor=actor,
                operation=f"{AUDIT_OPERATION}.{step}",
                target=AuditTarget("ClusterNode", op.node_id),
                success=ok,
                result_code="OK" if ok else "FAILED",
                duration_ms=0,
                details={"operationId": str(op.id), "message": message[:500]},
            ),
        )
        await uow.commit()


async def _cordon_in_capacity(deps: NodeOperationDeps, cluster_id: str, node_id: str) -> None:
    async with deps.sessions.uow() as uow:
        inventory = await uow.capacity.inventory()
        nodes = [replace(n, cordoned=True) if n.id == node_id else n for n in inventory.nodes_of(cluster_id)]
        await uow.capacity.replace_nodes(cluster_id, nodes)
        uow.publish_after_commit(sessions.CAPACITY_TOPIC, {"reason": "cordon"})
        await uow.commit()


async def _replace_inventory(deps: NodeOperationDeps, cluster_id: str, inventory: Inventory) -> None:
    async with deps.sessions.uow() as uow:
        await uow.capacity.replace_nodes(cluster_id, inventory.nodes_of(cluster_id))
        uow.publish_after_commit(sessions.CAPACITY_TOPIC, {"reason": "node operation"})
        await uow.commit()


async def _wait_paused(deps: NodeOperationDeps, session_ids: list[UUID]) -> list[UUID]:
    """The drained sessions that reached PAUSED in time (the rest are left as they are)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + deps.pause_within
    waiting = set(session_ids)
    paused: list[UUID] = []
    while waiting:
        async with deps.sessions.uow() as uow:
            for sid in list(waiting):
                s = await uow.sessions.get(sid)
                if s is None or s.state is not SessionState.PAUSING:
                    waiting.discard(sid)
                    if s is not None and s.state is SessionState.PAUSED:
                        paused.append(sid)
        if waiting and loop.time() > deadline:
            log.warning("sessions %s did not reach PAUSED in time", sorted(map(str, waiting)))
            break
        if waiting:
            await asyncio.sleep(deps.poll_interval)
    return paused


async def node_sharing_mode_change_run(
    deps: NodeOperationDeps, actor: Actor, operation: NodeOperation, cluster: NodeSharingPort, node_name: str
) -> NodeOperation:
    """Carry out a started operation; returns it finished (succeeded or failed)."""
    svc = deps.sessions
    op = operation
    paused: list[UUID] = []

    async def note(step: NodeOperationStep, message: str) -> None:
        nonlocal op
        op = replace(op, steps=(*op.steps, NodeOperationProgress(step, message, svc.clock.now())))
        await deps.records.save(op)
        await deps.events.publish(
            node_operation_topic(op.id), {"operationId": str(op.id), "step": step.value, "message": message}
        )
        await _audit(deps, actor, op, step.value, True, message)

    await _audit(deps, actor, op, NodeOperationStep.PRECHECK.value, True, op.steps[0].message)

    async def progress(step_name: str, message: str) -> None:
        step = NodeOperationStep(step_name)
        if step is NodeOperationStep.PRECHECK:
            return  # done before the operation was accepted
        if step is NodeOperationStep.CORDON:
            await _cordon_in_capacity(deps, op.cluster_id, op.node_id)
            message = "no new sessions are placed on the node (capacity state and Kubernetes)"
        await note(step, message)

    async def drain(pod_session_ids: list[UUID]) -> None:
        ids = sorted({*pod_session_ids, *(UUID(w) for w in op.drained_sessions)}, key=str)
        for sid in ids:
            try:
                s = await sessions.session_pause(svc, actor, sid)
            except DomainError as exc:
                log.warning("node operation %s: session %s not paused: %s", op.id, sid, exc)
                continue
            if s.state in (SessionState.PAUSING, SessionState.PAUSED):
                paused.append(sid)

    try:
        removed = await cluster.change_sharing_mode(node_name, op.mode, op.replicas, drain=drain, progress=progress)
        # the pods are gone: resume the drained sessions (placed elsewhere or queued; the node
        # is still cordoned in the capacity state)
        resumed = 0
        for sid in await _wait_paused(deps, paused):
            try:
                await sessions.session_resume(svc, actor, sid)
                resumed += 1
            except DomainError as exc:
                log.warning("node operation %s: session %s not resumed: %s", op.id, sid, exc)
        inventory = await cluster.read_inventory()
        await _replace_inventory(deps, op.cluster_id, inventory)
        await sessions.drain_queue(svc)
        op = replace(
            op,
            state=NodeOperationState.SUCCEEDED,
            removed_resources=tuple(removed),
            drained_sessions=tuple(str(s) for s in paused) or op.drained_sessions,
            finished_at=svc.clock.now(),
        )
        await deps.records.save(op)
        message = f"done; {resumed} drained session(s) re-queued, removed {', '.join(removed) or 'nothing'}"
        await deps.events.publish(
            node_operation_topic(op.id), {"operationId": str(op.id), "state": op.state.value, "message": message}
        )
        await _audit(deps, actor, op, "done", True, message)
    except Exception as exc:
        log.exception("node operation %s failed", op.id)
        if getattr(exc, "rolled_back", False):
            # the node serves its old mode again and takes sessions: so does the capacity state
            await _replace_inventory(deps, op.cluster_id, await cluster.read_inventory())
            for sid in await _wait_paused(deps, paused):
                try:
                    await sessions.session_resume(svc, actor, sid)
                except DomainError as resume_error:
                    log.warning("node operation %s: session %s not resumed: %s", op.id, sid, resume_error)
            await sessions.drain_queue(svc)
        step = op.current_step or NodeOperationStep.PRECHECK
        op = replace(op, state=NodeOperationState.FAILED, error=f"{step.value}: {exc}", finished_at=svc.clock.now())
        await deps.records.save(op)
        await deps.events.publish(
            node_operation_topic(op.id), {"operationId": str(op.id), "state": op.state.value, "message": op.error}
        )
        await _audit(deps, actor, op, step.value, False, op.error or "")
    return op


async def node_operation_get(records: NodeOperationRecords, actor: Actor, operation_id: UUID) -> NodeOperation:
    access.require_super_admin(actor)
    op = await records.get(operation_id)
    if op is None:
        raise NotFoundError("node operation")
    return op


# ============================================================ cordon, uncordon, drain


class NodeCordonPort(Protocol):
    """The cluster half of a cordon: the node takes no new pods (Kubernetes:
    `spec.unschedulable`), or takes them again. The cluster's next inventory report carries the
    flag, so the cordon outlives the capacity state's copy."""

    async def cordon(self, node_name: str, cordoned: bool) -> None: ...


@dataclass(frozen=True, slots=True)
class NodeDrain:
    """A drain under way: the node is cordoned, `paused` are the sessions asked to pause (they
    are resumed, placed elsewhere or queued, once their pods are gone); `skipped` were on the
    node but could not be paused (a batch job runs to its end, a session already stopping)."""

    node_id: str
    paused: tuple[UUID, ...]
    skipped: tuple[UUID, ...]


async def _find_node(deps: NodeOperationDeps, cluster_id: str, node_ref: str) -> Node:
    """A node of the cluster by its id (`<cluster>/<name>`) or its name."""
    async with deps.sessions.uow() as uow:
        inventory = await uow.capacity.inventory()
    for n in inventory.nodes_of(cluster_id):
        if node_ref in (n.id, n.name):
            return n
    raise NotFoundError("node", "nodeId")


async def _set_cordoned_in_capacity(deps: NodeOperationDeps, cluster_id: str, node_id: str, cordoned: bool) -> None:
    async with deps.sessions.uow() as uow:
        inventory = await uow.capacity.inventory()
        nodes = [replace(n, cordoned=cordoned) if n.id == node_id else n for n in inventory.nodes_of(cluster_id)]
        await uow.capacity.replace_nodes(cluster_id, nodes)
        uow.publish_after_commit(sessions.CAPACITY_TOPIC, {"reason": "cordon" if cordoned else "uncordon"})
        await uow.commit()


async def node_cordon_set(
    deps: NodeOperationDeps, actor: Actor, cluster: NodeCordonPort, *, cluster_id: str, node_ref: str, cordoned: bool
) -> Node:
    """Cordon a node (what runs there stays; nothing new is placed there) or uncordon it (the
    queue is drained at once, so waiting sessions may start there). super_admin only."""
    access.require_super_admin(actor)
    if deps.sessions.clusters.get(cluster_id) is None:
        raise NotFoundError("cluster", "clusterId")
    node = await _find_node(deps, cluster_id, node_ref)
    await cluster.cordon(node.name, cordoned)
    await _set_cordoned_in_capacity(deps, cluster_id, node.id, cordoned)
    if not cordoned:
        await sessions.drain_queue(deps.sessions)
    return replace(node, cordoned=cordoned)


async def node_drain_start(
    deps: NodeOperationDeps, actor: Actor, cluster: NodeCordonPort, *, cluster_id: str, node_ref: str
) -> NodeDrain:
    """Cordon the node and ask every session placed there to pause; `node_drain_finish` then
    resumes them (placed on other nodes, or queued until there is room)."""
    node = await node_cordon_set(deps, actor, cluster, cluster_id=cluster_id, node_ref=node_ref, cordoned=True)
    async with deps.sessions.uow() as uow:
        state = await uow.capacity.snapshot()
    on_node = sorted({a.workload_id for a in state.scheduler.allocations() if a.placement.node_id == node.id}, key=str)
    paused: list[UUID] = []
    skipped: list[UUID] = []
    for workload in on_node:
        try:
            sid = UUID(workload)
        except ValueError:
            continue
        try:
            s = await sessions.session_pause(deps.sessions, actor, sid, drained_node=node.id)
        except DomainError as exc:
            log.info("drain of %s: session %s not paused: %s", node.id, sid, exc)
            skipped.append(sid)
            continue
        (paused if s.state in (SessionState.PAUSING, SessionState.PAUSED) else skipped).append(sid)
    return NodeDrain(node.id, tuple(paused), tuple(skipped))


async def node_drain_finish(deps: NodeOperationDeps, actor: Actor, drain: NodeDrain) -> list[UUID]:
    """Resume the drained sessions once paused (the node is still cordoned: they go elsewhere or
    wait in the queue); returns those resumed. Each carries DRAINED while paused, so if this
    process dies first the residue sweep (`domain.sessions.residue`) resumes them."""
    resumed: list[UUID] = []
    for sid in await _wait_paused(deps, list(drain.paused)):
        try:
            await sessions.session_resume(deps.sessions, actor, sid)
            resumed.append(sid)
        except DomainError as exc:
            log.warning("drain of %s: session %s not resumed: %s", drain.node_id, sid, exc)
    return resumed
