"""Cordon, uncordon and drain a node as guarded admin operations (issue 18, admin screens):
a cordoned node takes nothing new (on the cluster and in the capacity state) while what runs
there stays; a drain pauses the sessions there and resumes each on another node; uncordoning
drains the queue onto the node again. Only a super_admin may; a node not in the cluster is a
typed refusal naming nodeId."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from domain.catalog.model import GpuTier
from domain.common.errors import DomainError, NotFoundError, PermissionDeniedError
from domain.inventory import node_operations as node_ops
from domain.inventory.model import Card, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from infra.clusters.wiring import node_operation_records
from tests.integration.sessions.test_admission_steps import fresh_scope
from tests.integration.sessions.test_lifecycle import wait_state
from tests.support.api import SYSTEM, add_gpu_catalog, add_simulated_cluster, unique


async def two_exclusive_nodes(
    c: Any, cluster_prefix: str, model_prefix: str
) -> tuple[str, str, tuple[Node, ...], Any, dict[str, Any], Any, Any]:
    """A simulated cluster of two exclusive one-card nodes of a model of its own, a catalog for
    it, a funded member, and the node operations' dependencies."""
    cid = unique(cluster_prefix)
    model = unique(model_prefix)
    nodes = tuple(
        Node(f"{cid}/n{i}", f"n{i}", cid, SharingMode.EXCLUSIVE, 64000, 262144, (Card(f"GPU-{cid}-{i}", model, 16384),))
        for i in (1, 2)
    )
    cluster = await add_simulated_cluster(c, cid, nodes)
    cat = await add_gpu_catalog(
        c,
        model,
        16384,
        1_000_000,
        preset={"cpu_millicores": 1000, "memory_mib": 1024, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )
    req = dict(image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id)
    sc = await fresh_scope(c)
    deps = node_ops.NodeOperationDeps(sessions=c.sessions, records=node_operation_records(c), events=c.events)
    return cid, model, nodes, cluster, req, sc, deps


async def test_a_drained_node_moves_its_session_elsewhere_and_takes_work_again_once_uncordoned(
    container: Any, runtime: Any
) -> None:
    c = container
    cid, model, nodes, cluster, req, sc, deps = await two_exclusive_nodes(c, "drain", "T4-drain")
    started: list[Any] = []
    try:
        first = await sessions.session_create(c.sessions, sc.actor, sessions.SessionRequest(name="nb", **req))
        started.append(first.id)
        first = await wait_state(c, first.id, SessionState.RUNNING)
        here = first.placement["node_id"]
        other = next(n for n in nodes if n.id != here)

        # only a super_admin; a node the cluster does not have names nodeId
        with pytest.raises(PermissionDeniedError):
            await node_ops.node_drain_start(deps, sc.actor, cluster, cluster_id=cid, node_ref=here)
        with pytest.raises(NotFoundError) as missing:
            await node_ops.node_drain_start(deps, SYSTEM, cluster, cluster_id=cid, node_ref="n9")
        assert missing.value.field == "nodeId"

        drain = await node_ops.node_drain_start(deps, SYSTEM, cluster, cluster_id=cid, node_ref=here)
        assert drain.node_id == here and drain.paused == (first.id,) and drain.skipped == ()
        assert next(n for n in (await cluster.read_inventory()).nodes if n.id == here).cordoned  # on the cluster too
        assert await node_ops.node_drain_finish(deps, SYSTEM, drain) == [first.id]
        moved = await wait_state(c, first.id, SessionState.RUNNING)
        assert moved.placement["node_id"] == other.id  # resumed on the node that was free
        # each state says why as a code beside the English (issue 18: consoles localise it)
        assert (moved.state_reason_code, moved.state_reason_params) == ("RUNNING", {})

        # the cordoned node takes nothing new: the next session waits
        second = await sessions.session_create(c.sessions, sc.actor, sessions.SessionRequest(name="nb2", **req))
        started.append(second.id)
        assert second.state == SessionState.QUEUED
        # the shortfall by name, for the console to say in its language
        assert second.state_reason_code == "WAITING_FOR_CAPACITY"
        assert dict(second.state_reason_params) == {"shortfall": "GPU_TAKEN", "model": model, "cards": "1"}
        async with c.uow() as uow:
            stored = await uow.sessions.get(second.id)
        assert stored is not None and stored.state_reason_code == "WAITING_FOR_CAPACITY"
        assert stored.state_reason.startswith("waiting for capacity")
        node = await node_ops.node_cordon_set(deps, SYSTEM, cluster, cluster_id=cid, node_ref=here, cordoned=False)
        assert node.cordoned is False
        placed = await wait_state(c, second.id, SessionState.SCHEDULED, SessionState.STARTING, SessionState.RUNNING)
        assert placed.placement["node_id"] == here  # the queue was drained onto it at once
        if placed.state is SessionState.SCHEDULED:
            assert (placed.state_reason_code, placed.state_reason_params) == ("PLACED", {"node": here})
    finally:
        for sid in started:
            with contextlib.suppress(DomainError):
                await sessions.session_stop(c.sessions, sc.actor, sid)
        await cluster.close()


async def test_a_drain_whose_process_died_before_the_resume_is_finished_by_the_residue_sweep(
    container: Any, runtime: Any
) -> None:
    """The process that drained the node dies between the pause and the resume (here: the
    drain's start runs, its finish never does): the session, paused with DRAINED naming the
    node, is resumed on another node by the crash-residue sweep, once."""
    from datetime import timedelta

    from domain.sessions import residue
    from domain.sessions.model import StateReasonCode

    c = container
    cid, _, nodes, cluster, req, sc, deps = await two_exclusive_nodes(c, "drain-crash", "T4-crash")
    sid = None
    try:
        s = await sessions.session_create(c.sessions, sc.actor, sessions.SessionRequest(name="nb", **req))
        sid = s.id
        here = (await wait_state(c, sid, SessionState.RUNNING)).placement["node_id"]
        other = next(n for n in nodes if n.id != here)

        drain = await node_ops.node_drain_start(deps, SYSTEM, cluster, cluster_id=cid, node_ref=here)
        assert drain.paused == (sid,)
        # ... and the process dies here: node_drain_finish never runs. The simulated cluster
        # answers the pause at once; PAUSING said DRAINING, PAUSED says DRAINED, both naming the node
        paused = await wait_state(c, sid, SessionState.PAUSED)
        assert (paused.state_reason_code, dict(paused.state_reason_params)) == (StateReasonCode.DRAINED, {"node": here})
        assert f"node {here} was drained" in paused.state_reason

        # another process's sweep finds it and resumes it on the free node, once
        outcome = await residue.sweep(c.sessions, grace=timedelta(0), give_up=timedelta(hours=1))
        assert sid in outcome.resumed_after_drain
        assert outcome.counts()["resumedAfterDrain"] == str(len(outcome.resumed_after_drain))
        moved = await wait_state(c, sid, SessionState.RUNNING)
        assert moved.placement["node_id"] == other.id
        again = await residue.sweep(c.sessions, grace=timedelta(0), give_up=timedelta(hours=1))
        assert sid not in again.resumed_after_drain
        async with c.uow() as uow:
            assert (await uow.sessions.get(sid)).state is SessionState.RUNNING  # type: ignore[union-attr]
    finally:
        if sid is not None:
            with contextlib.suppress(DomainError):
                await sessions.session_stop(c.sessions, sc.actor, sid)
        await cluster.close()
