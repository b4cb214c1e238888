"""A node's sharing-mode change as the domain carries it out (`domain.inventory.node_operations`)
on in-memory adapters and a cluster half that announces BRICK's runbook steps as the Kubernetes
one does (infra.cluster.kubernetes.change_sharing_mode: precheck, cordon, drain, relabel,
wait-for-resource, remove-stale, uncordon): the pre-check's refusals, the operation recorded,
each step stored, published and audited, the node cordoned in the capacity state, the drained
sessions paused and resumed, the fresh inventory taken and the queue drained; a failure with
and without the cluster's rollback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from fractions import Fraction
from typing import Any
from uuid import UUID

import pytest

from domain.common.errors import DomainError
from domain.inventory import node_operations as ops
from domain.inventory.changes import plan_sharing_mode_change
from domain.inventory.model import CardShare, GpuKind, Inventory, Node, Placement, SharingMode
from domain.inventory.ports import StatusReport, WorkloadPhase
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.scheduling.model import Allocation, GpuRequest
from domain.sessions import services as s
from domain.sessions.model import SessionState
from tests.support.memory_sessions import SessionsUnitOfWork
from tests.unit.sessions.world import Cluster1, Registry, SessionsWorld
from tests.unit.tenancy.world import NOW, ROOT

S = SessionState
Step = ops.NodeOperationStep
STEPS = ["precheck", "cordon", "drain", "relabel", "wait-for-resource", "remove-stale", "uncordon"]
OP_ID = UUID(int=0xABC)


class Records:
    def __init__(self) -> None:
        self.added: list[ops.NodeOperation] = []
        self.saved: list[ops.NodeOperation] = []

    async def add(self, operation: ops.NodeOperation) -> None:
        self.added.append(operation)

    async def save(self, operation: ops.NodeOperation) -> None:
        self.saved.append(operation)

    async def get(self, operation_id: UUID) -> ops.NodeOperation | None:
        return next((o for o in reversed([*self.added, *self.saved]) if o.id == operation_id), None)


class Bus:
    def __init__(self) -> None:
        self.published: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, topic: str, payload: dict[str, Any]) -> None:
        self.published.append((topic, payload))

    async def publish_many(self, events: Any) -> None:
        raise AssertionError("not used by node operations")

    def subscribe(self, *topics: str) -> Any:
        raise AssertionError("not used by node operations")


class RolledBack(Exception):
    rolled_back = True


class NodeSharing:
    """The cluster half: announces every step before doing it, asks the control plane to drain
    the sessions whose pods are on the node and, as the kubelet would, reports each paused
    pod gone; one second passes per step after the pre-check. `fail_at` raises after that step's announcement."""

    def __init__(self, w: SessionsWorld, after: Callable[[], Inventory], *, pods: list[UUID]) -> None:
        self.w = w
        self.after = after
        self.pods = pods
        self.fail_at: str | None = None
        self.error: Exception = RuntimeError("the apiserver refused the patch")
        self.pods_go = True
        self.messages: dict[str, str] = {}
        self.removed = ["nvidia.com/gpu"]
        self.calls: list[tuple[str, SharingMode, int | None]] = []
        self.node_id = "excl-1"
        self.cordoned_at_drain: bool | None = None
        self.reads = 0
        self.hooks: dict[str, Callable[[], Awaitable[object]]] = {}  # what else happens at a step

    async def change_sharing_mode(
        self,
        node_name: str,
        mode: SharingMode,
        replicas: int | None,
        *,
        drain: Callable[[list[UUID]], Awaitable[None]],
        progress: Callable[[str, str], Awaitable[None]],
    ) -> list[str]:
        self.calls.append((node_name, mode, replicas))
        for step in STEPS:
            self.w.t.clock.advance(step != "precheck")
            await progress(step, self.messages.get(step, f"kubernetes: {step}"))
            if step == "drain":
                node = (await SessionsUnitOfWork(self.w.state).capacity.inventory()).node(self.node_id)
                self.cordoned_at_drain = node.cordoned
                await drain(list(self.pods))
                if self.pods_go:
                    for sid in self.pods:
                        if (x := self.w.state.sessions.get(sid)) is not None and x.state is S.PAUSING:
                            at = self.w.t.clock.now() + timedelta(seconds=1)
                            await s.handle_status_report(self.w.svc, "c1", StatusReport(sid, WorkloadPhase.STOPPED, at))
            if step in self.hooks:
                await self.hooks[step]()
            if step == self.fail_at:
                raise self.error
        return list(self.removed)

    async def read_inventory(self) -> Inventory:
        self.reads += 1
        return self.after()


def deps(w: SessionsWorld, **kw: Any) -> ops.NodeOperationDeps:
    return ops.NodeOperationDeps(sessions=w.svc, records=Records(), events=Bus(), poll_interval=0.001, **kw)


def inventory_of(w: SessionsWorld, node: str = "excl-1", **changes: Any) -> Callable[[], Inventory]:
    """What the cluster reads once the change is done: the node with `changes`, uncordoned."""

    def read() -> Inventory:
        inv = SessionsUnitOfWork(w.state).capacity._inventory()
        return inv.replace_node(replace(inv.node(node), cordoned=False, **changes))

    return read


async def refusal(call: Awaitable[object]) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        await call
    return (err.value.code.value, err.value.field, err.value.message)


async def whole_on_excl(w: SessionsWorld) -> tuple[UUID, UUID, UUID]:
    """A whole card on excl-1 (to drain), one on hami-1 (which it fills), an L session queued."""
    a = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="a"))
    b = await s.session_create(w.svc, w.actor("member"), w.request("whole", name="b"))
    x = await s.session_create(w.svc, w.actor("member"), w.request("L", name="x"))
    assert [(v.state, (v.placement or {}).get("node_id")) for v in (a, b, x)] == [
        (S.SCHEDULED, "excl-1"), (S.SCHEDULED, "hami-1"), (S.QUEUED, None),
    ]  # fmt: skip
    return a.id, b.id, x.id


async def start(
    w: SessionsWorld,
    d: ops.NodeOperationDeps,
    mode: SharingMode = SharingMode.HAMI,
    replicas: int | None = None,
    node: str = "excl-1",
) -> ops.NodeOperation:
    op, _ = await ops.node_sharing_mode_change_start(
        d, ROOT, cluster_id="c1", node_id=node, mode=mode, replicas=replicas, operation_id=OP_ID
    )
    return op


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build(credits_=1000)


async def test_the_precheck_refuses_in_words_and_records_nothing(w: SessionsWorld) -> None:
    other = Cluster1()
    other.cluster_id = "c2"  # registered, but excl-1 is a node of c1
    w.svc = replace(w.svc, clusters=Registry(w.cluster, other))
    d = deps(w)

    def change(cluster: str = "c1", node: str = "excl-1", mode: SharingMode = SharingMode.HAMI, **kw: Any) -> Any:
        return ops.node_sharing_mode_change_start(
            d, kw.pop("actor", ROOT), cluster_id=cluster, node_id=node, mode=mode,
            replicas=kw.pop("replicas", None), operation_id=OP_ID,
        )  # fmt: skip

    assert await refusal(change(actor=w.actor("gadmin"))) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this"
    )  # fmt: skip
    assert await refusal(change(cluster="nowhere")) == ("NOT_FOUND", "clusterId", "cluster not found")
    assert await refusal(change(mode=SharingMode.TIMESLICING)) == (
        "SHARING_CHANGE_INVALID", "replicas", "time slicing needs a replica count",
    )  # fmt: skip
    for mode in (SharingMode.HAMI, SharingMode.EXCLUSIVE):
        assert await refusal(change(mode=mode, replicas=2)) == (
            "SHARING_CHANGE_INVALID", "replicas", "replicas apply to time slicing only",
        )  # fmt: skip
    assert await refusal(change(node="excl-9")) == ("NOT_FOUND", "nodeId", "node not found")
    assert await refusal(change(cluster="c2")) == ("NOT_FOUND", "nodeId", "node not found")
    # the plan's own refusal (nothing would change) comes through as it is
    assert await refusal(change(mode=SharingMode.EXCLUSIVE)) == (
        "SHARING_CHANGE_INVALID", "mode", "node excl-1 already runs in exclusive mode with these replicas",
    )  # fmt: skip
    assert d.records.added == [] and w.state.audit == []  # type: ignore[attr-defined]


async def test_the_start_records_a_running_operation_with_its_plan(w: SessionsWorld) -> None:
    a, _, _ = await whole_on_excl(w)
    d = deps(w)
    w.t.clock.advance(7)
    op, plan = await ops.node_sharing_mode_change_start(
        d, ROOT, cluster_id="c1", node_id="excl-1", mode=SharingMode.TIMESLICING, replicas=4, operation_id=OP_ID
    )
    state = SessionsUnitOfWork(w.state).capacity._build()
    allocations = {x.workload_id: x.placement for x in state.scheduler.allocations()}
    inventory = SessionsUnitOfWork(w.state).capacity._inventory()
    assert plan == plan_sharing_mode_change(inventory, allocations, "excl-1", SharingMode.TIMESLICING, 4)
    assert plan.drain == (str(a),)
    at = NOW + timedelta(seconds=7)
    message = "exclusive -> timeslicing: time-slices after the change 4, allocated 0; 1 session(s) to drain"
    assert op == ops.NodeOperation(
        id=OP_ID, cluster_id="c1", node_id="excl-1", mode=SharingMode.TIMESLICING, replicas=4,
        state=ops.NodeOperationState.RUNNING, requested_by=ROOT.user_id, created_at=at,
        steps=(ops.NodeOperationProgress(Step.PRECHECK, message, at),), drained_sessions=(str(a),),
    )  # fmt: skip
    assert op.error is None and op.finished_at is None and op.removed_resources == ()
    assert op.current_step is Step.PRECHECK
    assert replace(op, steps=()).current_step is None
    assert d.records.added == [op] and d.records.saved == []  # type: ignore[attr-defined]
    # the pre-check touches nothing: no audit entry yet, the node not cordoned, a still placed
    assert w.state.audit == [] and not inventory.node("excl-1").cordoned  # type: ignore[attr-defined]
    assert w.state.sessions[a].state is S.SCHEDULED


async def test_a_change_runs_every_step_drains_the_node_and_takes_the_new_inventory(w: SessionsWorld) -> None:
    a, b, x = await whole_on_excl(w)
    d = deps(w)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[a])
    cluster.messages["relabel"] = "r" * 600  # the audit keeps 500 characters of a message
    cluster.removed = ["nvidia.com/gpu", "nvidia.com/gpu.shared"]
    w.state.events.clear()

    done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1-k8s")

    assert cluster.calls == [("excl-1-k8s", SharingMode.HAMI, None)]
    # cordoned in gshare's capacity before the drain (no new session placed there meanwhile)
    assert cluster.cordoned_at_drain is True
    assert ("capacity", {"reason": "cordon"}) in w.state.events
    assert ("capacity", {"reason": "node operation"}) in w.state.events
    # the drained session was paused, then resumed: queued (excl-1 still cordoned then, hami-1 full)
    assert w.state.sessions[a].state is S.QUEUED and w.cluster.paused == [a]
    # the fresh inventory replaced the old one (HAMi now, uncordoned) and the queue was drained:
    # the L session waiting since before got the new HAMi node
    node = SessionsUnitOfWork(w.state).capacity._inventory().node("excl-1")
    assert node.sharing_mode is SharingMode.HAMI and not node.cordoned and cluster.reads == 1
    assert (w.state.sessions[x].state, w.state.sessions[x].placement["node_id"]) == (S.SCHEDULED, "excl-1")  # type: ignore[index]
    assert w.state.sessions[b].state is S.SCHEDULED

    cordon = "no new sessions are placed on the node (capacity state and Kubernetes)"
    messages = [op.steps[0].message, cordon, "kubernetes: drain", "r" * 600, *(f"kubernetes: {t}" for t in STEPS[4:])]
    assert done == replace(
        op,
        state=ops.NodeOperationState.SUCCEEDED,
        steps=tuple(
            ops.NodeOperationProgress(Step(t), m, NOW + timedelta(seconds=i))
            for i, (t, m) in enumerate(zip(STEPS, messages, strict=True))
        ),
        removed_resources=("nvidia.com/gpu", "nvidia.com/gpu.shared"),
        drained_sessions=(str(a),),
        finished_at=NOW + timedelta(seconds=6),
    )
    # stored after each step (progress visible while it runs), and once finished
    assert [len(o.steps) for o in d.records.saved] == [2, 3, 4, 5, 6, 7, 7]  # type: ignore[attr-defined]
    assert d.records.saved[-1] == done and d.records.saved[-2].state is ops.NodeOperationState.RUNNING  # type: ignore[attr-defined]
    topic = "node-operation:00000000-0000-0000-0000-000000000abc"
    assert ops.node_operation_topic(OP_ID) == topic
    final = "done; 1 drained session(s) re-queued, removed nvidia.com/gpu, nvidia.com/gpu.shared"
    assert (
        d.events.published
        == [  # type: ignore[attr-defined]
            *(
                (topic, {"operationId": str(OP_ID), "step": t, "message": m})
                for t, m in zip(STEPS[1:], messages[1:], strict=True)
            ),
            (topic, {"operationId": str(OP_ID), "state": "succeeded", "message": final}),
        ]
    )
    audit = [e for e in w.state.audit if e.operation.startswith("nodeSharingModeChange.")]  # type: ignore[attr-defined]
    assert [e.operation for e in audit] == [f"{ops.AUDIT_OPERATION}.{t}" for t in [*STEPS, "done"]]
    assert {(e.target_type, e.target_id, e.success, e.result_code, e.actor_user_id, e.duration_ms) for e in audit} == {
        ("ClusterNode", "excl-1", True, "OK", ROOT.user_id, 0)
    }
    assert [e.details for e in audit] == [{"operationId": str(OP_ID), "message": m[:500]} for m in [*messages, final]]
    assert [e.at for e in audit] == [
        NOW,
        *(NOW + timedelta(seconds=i) for i in range(1, 7)),
        NOW + timedelta(seconds=6),
    ]


async def test_every_session_with_a_pod_on_the_node_is_drained_and_recorded(w: SessionsWorld) -> None:
    """x1 was on hami-1 at the pre-check, x2 was placed there after it (before the cordon):
    the cluster finds both pods, both are paused and resumed, and the operation records both."""
    d = deps(w)
    x1 = (await s.session_create(w.svc, w.actor("member"), w.request("L", name="x1"))).id
    op = await start(w, d, SharingMode.TIMESLICING, 2, node="hami-1")
    assert op.drained_sessions == (str(x1),)
    x2 = (await s.session_create(w.svc, w.actor("member"), w.request("L", name="x2"))).id
    assert w.state.sessions[x2].placement["node_id"] == "hami-1"  # type: ignore[index]
    after = inventory_of(w, "hami-1", sharing_mode=SharingMode.TIMESLICING)
    cluster = NodeSharing(w, after, pods=[x2, x1])
    cluster.node_id = "hami-1"
    done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "hami-1")
    assert cluster.calls == [("hami-1", SharingMode.TIMESLICING, 2)] and cluster.cordoned_at_drain is True
    assert done.drained_sessions == tuple(sorted((str(x1), str(x2))))
    assert w.cluster.paused == sorted([x1, x2], key=str)
    assert d.events.published[-1][1]["message"] == "done; 2 drained session(s) re-queued, removed nvidia.com/gpu"  # type: ignore[attr-defined]


async def test_nothing_to_drain_and_nothing_removed(w: SessionsWorld) -> None:
    d = deps(w)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[])
    cluster.removed = []
    done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    assert done.state is ops.NodeOperationState.SUCCEEDED and done.drained_sessions == ()
    assert d.events.published[-1][1]["message"] == "done; 0 drained session(s) re-queued, removed nothing"  # type: ignore[attr-defined]


async def test_sessions_the_precheck_saw_are_drained_with_the_pods_and_skipped_when_they_cannot_pause(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture
) -> None:
    a, _, _ = await whole_on_excl(w)
    d = deps(w)
    op = await start(w, d)
    # a stopped between the pre-check and the drain; the cluster finds a pod of no session
    stopped = await s.session_stop(w.svc, w.actor("member"), a)
    assert stopped.state is S.STOPPING
    ghost = UUID(int=0xDEAD)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[ghost])
    with caplog.at_level(logging.WARNING, logger=ops.log.name):
        done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    assert done.state is ops.NodeOperationState.SUCCEEDED
    # nothing was paused: the operation keeps the sessions its pre-check named
    assert done.drained_sessions == (str(a),) and w.state.sessions[a].state is S.STOPPING
    warnings = sorted(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert warnings == sorted([
        f"node operation {OP_ID}: session {a} not paused: a STOPPING session cannot become PAUSING",
        f"node operation {OP_ID}: session {ghost} not paused: session not found",
    ])  # fmt: skip
    assert d.events.published[-1][1]["message"] == "done; 0 drained session(s) re-queued, removed nvidia.com/gpu"  # type: ignore[attr-defined]


async def test_a_session_is_resumed_only_once_its_pod_is_gone(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture
) -> None:
    """The wait polls until the drained sessions are PAUSED; one still PAUSING at the deadline
    is left as it is (not resumed onto capacity its pod still holds)."""
    a, _, _ = await whole_on_excl(w)
    d = deps(w, pause_within=0.05)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[a])
    cluster.pods_go = False
    with caplog.at_level(logging.WARNING, logger=ops.log.name):
        done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    assert done.state is ops.NodeOperationState.SUCCEEDED and done.drained_sessions == (str(a),)
    assert w.state.sessions[a].state is S.PAUSING
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        f"sessions ['{a}'] did not reach PAUSED in time"
    ]
    assert d.events.published[-1][1]["message"] == "done; 0 drained session(s) re-queued, removed nvidia.com/gpu"  # type: ignore[attr-defined]


async def test_the_wait_polls_until_the_pods_are_gone(w: SessionsWorld) -> None:
    a, _, _ = await whole_on_excl(w)
    d = deps(w, pause_within=5)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[a])
    cluster.pods_go = False

    paused = asyncio.Event()

    async def pause_seen() -> None:
        assert w.state.sessions[a].state is S.PAUSING
        paused.set()

    cluster.hooks["drain"] = pause_seen

    async def kubelet() -> None:  # the pod goes a few polls after the pause
        await paused.wait()
        await asyncio.sleep(0.05)
        await s.handle_status_report(w.svc, "c1", StatusReport(a, WorkloadPhase.STOPPED, w.t.clock.now()))

    task = asyncio.create_task(kubelet())
    done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    await task
    assert w.state.sessions[a].state is S.QUEUED
    assert d.events.published[-1][1]["message"] == "done; 1 drained session(s) re-queued, removed nvidia.com/gpu"  # type: ignore[attr-defined]
    assert done.state is ops.NodeOperationState.SUCCEEDED


async def test_a_failure_leaves_the_node_cordoned_and_says_at_which_step(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture
) -> None:
    a, _, x = await whole_on_excl(w)
    d = deps(w)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[a])
    cluster.fail_at = "relabel"
    with caplog.at_level(logging.ERROR, logger=ops.log.name):
        done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    error = "relabel: the apiserver refused the patch"
    assert (done.state, done.error, done.finished_at) == (
        ops.NodeOperationState.FAILED,
        error,
        NOW + timedelta(seconds=3),
    )
    assert done.current_step is Step.RELABEL and done.removed_resources == ()
    assert d.records.saved[-1] == done  # type: ignore[attr-defined]
    # no rollback: the node stays cordoned, the paused session waits, nothing is read or drained
    assert SessionsUnitOfWork(w.state).capacity._inventory().node("excl-1").cordoned and cluster.reads == 0
    assert w.state.sessions[a].state is S.PAUSED and w.state.sessions[x].state is S.QUEUED
    topic = ops.node_operation_topic(OP_ID)
    assert d.events.published[-1] == (topic, {"operationId": str(OP_ID), "state": "failed", "message": error})  # type: ignore[attr-defined]
    last = w.state.audit[-1]  # type: ignore[attr-defined]
    assert (last.operation, last.success, last.result_code, last.details) == (
        "nodeSharingModeChange.relabel", False, "FAILED", {"operationId": str(OP_ID), "message": error},
    )  # fmt: skip
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR] == [f"node operation {OP_ID} failed"]


async def test_a_rolled_back_change_gives_the_node_back_and_resumes_its_sessions(w: SessionsWorld) -> None:
    a, _, x = await whole_on_excl(w)
    d = deps(w)
    op = await start(w, d)
    # the new mode never showed: the cluster put excl-1 back in exclusive mode, uncordoned
    cluster = NodeSharing(w, inventory_of(w), pods=[a])
    cluster.fail_at = "wait-for-resource"
    cluster.error = RolledBack("hami never showed: rolled back to exclusive and uncordoned")
    done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    assert done.state is ops.NodeOperationState.FAILED
    assert done.error == "wait-for-resource: hami never showed: rolled back to exclusive and uncordoned"
    node = SessionsUnitOfWork(w.state).capacity._inventory().node("excl-1")
    assert node.sharing_mode is SharingMode.EXCLUSIVE and not node.cordoned and cluster.reads == 1
    # a is back on its node (resumed, the queue drained: x still waits for a HAMi share)
    assert (w.state.sessions[a].state, w.state.sessions[a].placement["node_id"]) == (S.SCHEDULED, "excl-1")  # type: ignore[index]
    assert w.state.sessions[x].state is S.QUEUED


async def test_a_rolled_back_change_drains_the_queue_onto_the_node(w: SessionsWorld) -> None:
    """Rolled back with nothing to resume: the node takes the session that queued while it was
    cordoned."""
    d = deps(w)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w), pods=[])
    cluster.fail_at = "wait-for-resource"
    cluster.error = RolledBack("rolled back")
    made: list[UUID] = []

    async def two_whole_cards() -> None:  # hami-1 takes one, excl-1 is cordoned: the other waits
        for name in ("c", "d"):
            made.append((await s.session_create(w.svc, w.actor("member"), w.request("whole", name=name))).id)

    cluster.hooks["drain"] = two_whole_cards
    await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    assert [(w.state.sessions[i].state, w.state.sessions[i].placement["node_id"]) for i in made] == [  # type: ignore[index]
        (S.SCHEDULED, "hami-1"), (S.SCHEDULED, "excl-1"),
    ]  # fmt: skip


@pytest.mark.parametrize("rolled_back", [False, True])
async def test_a_drained_session_its_policy_no_longer_admits_is_left_paused(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture, rolled_back: bool
) -> None:
    a, _, _ = await whole_on_excl(w)
    d = deps(w)
    op = await start(w, d)
    cluster = NodeSharing(w, inventory_of(w, sharing_mode=SharingMode.HAMI), pods=[a])
    if rolled_back:
        cluster.fail_at = "wait-for-resource"
        cluster.error = RolledBack("rolled back")

    async def no_more_gpus() -> None:
        await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["member"].id), max_gpus=Fraction(0)))

    cluster.hooks["drain"] = no_more_gpus
    with caplog.at_level(logging.WARNING, logger=ops.log.name):
        done = await ops.node_sharing_mode_change_run(d, ROOT, op, cluster, "excl-1")
    assert w.state.sessions[a].state is S.PAUSED
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        f"node operation {OP_ID}: session {a} not resumed: step 4 (policy limits): user member uses 1.25 of 0 GPUs; "
        "this asks 1"
    ]
    if not rolled_back:
        assert d.events.published[-1][1]["message"] == "done; 0 drained session(s) re-queued, removed nvidia.com/gpu"  # type: ignore[attr-defined]
    assert done.state is (ops.NodeOperationState.FAILED if rolled_back else ops.NodeOperationState.SUCCEEDED)


async def test_an_operation_is_read_by_a_super_admin_only(w: SessionsWorld) -> None:
    d = deps(w)
    op = await start(w, d)
    assert await ops.node_operation_get(d.records, ROOT, OP_ID) == op
    assert await refusal(ops.node_operation_get(d.records, w.actor("orgadmin"), OP_ID)) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert await refusal(ops.node_operation_get(d.records, ROOT, UUID(int=5))) == (
        "NOT_FOUND", "id", "node operation not found",
    )  # fmt: skip


def test_drained_sessions_are_waited_for_two_minutes_polled_every_tenth_of_a_second(w: SessionsWorld) -> None:
    d = ops.NodeOperationDeps(sessions=w.svc, records=Records(), events=Bus())
    assert (d.pause_within, d.poll_interval, d.extra) == (120.0, 0.1, {})


# ---------------------------------------------------------------- cordon, uncordon, drain


class Cordons:
    """The cluster half of a cordon (Kubernetes: spec.unschedulable): records what it is told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []

    async def cordon(self, node_name: str, cordoned: bool) -> None:
        self.calls.append((node_name, cordoned))


async def test_a_node_is_cordoned_by_its_id_or_its_name_by_a_super_admin_only(w: SessionsWorld) -> None:
    other = Cluster1()
    other.cluster_id = "c2"  # registered, but hami-1 is a node of c1
    w.svc = replace(w.svc, clusters=Registry(w.cluster, other))
    cap = SessionsUnitOfWork(w.state).capacity
    nodes = (await cap.inventory()).nodes_of("c1")
    await cap.replace_nodes("c1", [*nodes, Node("c1/n9", "n9", "c1", SharingMode.EXCLUSIVE, 8000, 8192)])
    d, port = deps(w), Cordons()

    def cordon(ref: str, cordoned: bool = True, cluster: str = "c1", actor: Any = ROOT) -> Any:
        return ops.node_cordon_set(d, actor, port, cluster_id=cluster, node_ref=ref, cordoned=cordoned)

    assert await refusal(cordon("n9", actor=w.actor("orgadmin"))) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert await refusal(cordon("n9", cluster="nowhere")) == ("NOT_FOUND", "clusterId", "cluster not found")
    assert await refusal(cordon("n8")) == ("NOT_FOUND", "nodeId", "node not found")
    assert await refusal(cordon("hami-1", cluster="c2")) == ("NOT_FOUND", "nodeId", "node not found")
    assert port.calls == []
    w.state.events.clear()
    by_name = await cordon("n9")
    assert (by_name.id, by_name.cordoned) == ("c1/n9", True) and port.calls == [("n9", True)]
    assert [n.id for n in (await cap.inventory()).nodes_of("c1") if n.cordoned] == ["c1/n9"]
    assert w.state.events == [("capacity", {"reason": "cordon"})]
    by_id = await cordon("c1/n9", cordoned=False)
    assert (by_id.id, by_id.cordoned) == ("c1/n9", False) and port.calls[-1] == ("n9", False)
    assert not (await cap.inventory()).node("c1/n9").cordoned
    assert ("capacity", {"reason": "uncordon"}) in w.state.events
    # the other nodes are left as they are
    assert [n.cordoned for n in (await cap.inventory()).nodes_of("c1")] == [False] * 4


async def test_uncordoning_drains_the_queue_onto_the_node(w: SessionsWorld) -> None:
    d, port = deps(w), Cordons()
    await ops.node_cordon_set(d, ROOT, port, cluster_id="c1", node_ref="hami-1", cordoned=True)
    x = await s.session_create(w.svc, w.actor("member"), w.request("L", name="x"))
    assert x.state is S.QUEUED  # the only HAMi node is cordoned
    node = await ops.node_cordon_set(d, ROOT, port, cluster_id="c1", node_ref="hami-1", cordoned=False)
    assert not node.cordoned and port.calls == [("hami-1", True), ("hami-1", False)]
    assert (w.state.sessions[x.id].state, w.state.sessions[x.id].placement["node_id"]) == (S.SCHEDULED, "hami-1")  # type: ignore[index]
    # cordoning again leaves what runs there
    await ops.node_cordon_set(d, ROOT, port, cluster_id="c1", node_ref="hami-1", cordoned=True)
    assert w.state.sessions[x.id].state is S.SCHEDULED


async def test_a_drain_pauses_the_nodes_sessions_then_resumes_them(
    w: SessionsWorld, caplog: pytest.LogCaptureFixture
) -> None:
    """x1 and x2 run on hami-1; the capacity state also holds a workload of no session (a
    stale allocation: skipped) and one that is not a session at all (ignored)."""
    x1 = (await s.session_create(w.svc, w.actor("member"), w.request("L", name="x1"))).id
    x2 = (await s.session_create(w.svc, w.actor("gadmin"), w.request("L", name="x2"))).id
    ghost = UUID(int=5)  # sorts before x1 and x2, as does "0-bench": neither ends the drain
    for wid in (str(ghost), "0-bench"):
        placement = Placement("c1", "hami-1", GpuKind.HAMI, (CardShare("GPU-h1", 1024, 1),), Fraction(1, 80), 10, 10)
        w.state.capacity.allocations.append(Allocation(GpuRequest(wid, "A100-80GB", 1024, 1), placement).to_dict())
    d, port = deps(w), Cordons()
    with caplog.at_level(logging.INFO, logger=ops.log.name):
        drain = await ops.node_drain_start(d, ROOT, port, cluster_id="c1", node_ref="hami-1")
    assert drain == ops.NodeDrain("hami-1", tuple(sorted((x1, x2), key=str)), (ghost,))
    assert (
        port.calls == [("hami-1", True)] and SessionsUnitOfWork(w.state).capacity._inventory().node("hami-1").cordoned
    )
    assert [w.state.sessions[x].state for x in (x1, x2)] == [S.PAUSING, S.PAUSING]
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.INFO] == [
        f"drain of hami-1: session {ghost} not paused: session not found"
    ]
    for x in (x1, x2):  # the pods go
        await s.handle_status_report(w.svc, "c1", StatusReport(x, WorkloadPhase.STOPPED, w.t.clock.now()))
    # gadmin may no longer run GPU work: x2 stays paused
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["gadmin"].id), max_gpus=Fraction(0)))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=ops.log.name):
        resumed = await ops.node_drain_finish(d, ROOT, drain)
    assert resumed == [x1]
    assert (w.state.sessions[x1].state, w.state.sessions[x2].state) == (S.QUEUED, S.PAUSED)
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        f"drain of hami-1: session {x2} not resumed: step 4 (policy limits): user gadmin uses 0 of 0 GPUs; this asks 0.25"
    ]
