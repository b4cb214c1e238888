"""Cluster registration and guarded node operations. A super_admin registers a Kubernetes
cluster (its adapter is connected as soon as the registration commits), changes its placement
policy or deregisters it; `nodeSharingModeChange` pre-checks at once (a refusal is a typed
error and touches nothing) and then runs the operation in the background, its progress in
`nodeOperation(id)`, on the `node-operation:<id>` topic and in the audit log."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import strawberry

from api.clusters import inputs
from api.clusters.types import NodeOperation, RegisteredCluster
from api.common.errors import UserError
from api.common.ids import to_global
from api.common.mutations import mutate, mutate_saga
from api.context import Info
from domain.audit.services import AuditTarget
from domain.common.errors import NotFoundError
from domain.inventory import clusters as clusters_uc
from domain.inventory import node_operations as node_ops
from domain.inventory.clusters import RegisteredCluster as RegisteredClusterModel
from domain.inventory.model import SharingMode
from domain.ports import UnitOfWork
from domain.tenancy.model import Actor
from infra.clusters.repository import SqlClusterRecords
from infra.clusters.wiring import (
    KubernetesNodeSharing,
    connect_cluster,
    disconnect_cluster,
    node_operation_records,
    secret_box,
)

log = logging.getLogger(__name__)
_TASKS = "clusters.background_tasks"


@strawberry.type
class ClusterPayload:
    cluster: RegisteredCluster | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class ClusterDeregisterPayload:
    cluster_id: str | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class NodeOperationPayload:
    operation: NodeOperation | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class NodeCordonPayload:
    node_id: str | None = strawberry.field(default=None, description="The node's id (`<cluster>/<name>`).")
    cordoned: bool | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class NodeDrainPayload:
    node_id: str | None = strawberry.field(default=None, description="The node's id (`<cluster>/<name>`).")
    drained_sessions: list[strawberry.ID] = strawberry.field(
        default_factory=list,
        description="Sessions asked to pause; each is resumed on another node (or queued) once its pod is gone.",
    )
    skipped_sessions: list[strawberry.ID] = strawberry.field(
        default_factory=list, description="Sessions on the node that could not be paused (batch jobs run to their end)."
    )
    errors: list[UserError] = strawberry.field(default_factory=list)


async def _cordon_port(container: Any, cluster_id: str) -> node_ops.NodeCordonPort:
    """A registered Kubernetes cluster's nodes through its kubeconfig; a built-in cluster
    (simulated) through its adapter."""
    async with container.uow() as uow:
        cluster = await SqlClusterRecords(uow).get(cluster_id)
    if cluster is not None and cluster.kind == clusters_uc.KIND_KUBERNETES:
        return KubernetesNodeSharing(container, cluster)
    port = container.clusters.get(cluster_id)
    if port is None or not hasattr(port, "cordon"):
        raise NotFoundError("cluster", "clusterId")
    return port  # type: ignore[no-any-return]


def _target(c: RegisteredClusterModel) -> AuditTarget:
    return AuditTarget("Cluster", c.id)


def node_operation_deps(container: Any) -> node_ops.NodeOperationDeps:
    return node_ops.NodeOperationDeps(
        sessions=container.sessions, records=node_operation_records(container), events=container.events
    )


def _spawn(container: Any, coro: Any) -> asyncio.Task[Any]:
    tasks: set[asyncio.Task[Any]] = container.extras.setdefault(_TASKS, set())
    task = asyncio.create_task(coro)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return task


@strawberry.type
class ClustersMutation:
    @strawberry.mutation(description="Register a Kubernetes cluster (super_admin).")
    async def cluster_register(self, info: Info, input: inputs.ClusterRegisterInput) -> ClusterPayload:
        ctx = info.context
        c = ctx.container

        async def action(uow: UnitOfWork, actor: Actor) -> RegisteredClusterModel:
            return await clusters_uc.cluster_register(
                SqlClusterRecords(uow),
                secret_box(c),
                c.clock,
                actor,
                cluster_id=input.id,
                name=input.name,
                placement_policy=input.placement_policy.value,
                kubeconfig=input.kubeconfig,
                callback_public_key=input.callback_public_key,
            )

        payload = await mutate(
            ctx,
            "clusterRegister",
            action,
            _target,
            lambda cl: ClusterPayload(cluster=RegisteredCluster.of(cl)),
            lambda e: ClusterPayload(errors=e),
            attempted=AuditTarget("Cluster", input.id[:63]),
        )
        if payload.cluster is not None:
            async with c.uow() as uow:
                registered = await SqlClusterRecords(uow).get(payload.cluster.id)
            if registered is not None:
                try:
                    await connect_cluster(c, registered)
                except Exception:  # registered all the same; the next start connects it
                    log.exception("cluster %s registered but not connected", registered.id)
        return payload

    @strawberry.mutation(description="Change a cluster's placement policy (super_admin).")
    async def cluster_placement_policy_update(
        self, info: Info, input: inputs.ClusterPlacementPolicyUpdateInput
    ) -> ClusterPayload:
        ctx = info.context

        async def action(uow: UnitOfWork, actor: Actor) -> RegisteredClusterModel:
            return await clusters_uc.cluster_placement_policy_update(
                SqlClusterRecords(uow),
                actor,
                cluster_id=input.cluster_id,
                placement_policy=input.placement_policy.value,
            )

        return await mutate(
            ctx,
            "clusterPlacementPolicyUpdate",
            action,
            _target,
            lambda cl: ClusterPayload(cluster=RegisteredCluster.of(cl)),
            lambda e: ClusterPayload(errors=e),
            attempted=AuditTarget("Cluster", input.cluster_id[:63]),
        )

    @strawberry.mutation(
        description="Where a cluster's live usage comes from besides its node agents: its Prometheus (super_admin)."
    )
    async def cluster_usage_source_set(self, info: Info, input: inputs.ClusterUsageSourceSetInput) -> ClusterPayload:
        ctx = info.context
        box = secret_box(ctx.container)

        async def action(uow: UnitOfWork, actor: Actor) -> RegisteredClusterModel:
            return await clusters_uc.cluster_usage_source_set(
                SqlClusterRecords(uow),
                box,
                actor,
                cluster_id=input.cluster_id,
                prometheus_url=input.prometheus_url,
                bearer_token=input.prometheus_bearer_token,
            )

        return await mutate(
            ctx,
            "clusterUsageSourceSet",
            action,
            _target,
            lambda cl: ClusterPayload(cluster=RegisteredCluster.of(cl)),
            lambda e: ClusterPayload(errors=e),
            attempted=AuditTarget("Cluster", input.cluster_id[:63]),
        )

    @strawberry.mutation(description="Deregister a Kubernetes cluster with nothing placed on it (super_admin).")
    async def cluster_deregister(self, info: Info, input: inputs.ClusterDeregisterInput) -> ClusterDeregisterPayload:
        ctx = info.context
        c = ctx.container

        async def action(uow: UnitOfWork, actor: Actor) -> RegisteredClusterModel:
            return await clusters_uc.cluster_deregister(SqlClusterRecords(uow), actor, cluster_id=input.cluster_id)

        payload = await mutate(
            ctx,
            "clusterDeregister",
            action,
            _target,
            lambda cl: ClusterDeregisterPayload(cluster_id=cl.id),
            lambda e: ClusterDeregisterPayload(errors=e),
            attempted=AuditTarget("Cluster", input.cluster_id[:63]),
        )
        if payload.cluster_id is not None:
            await disconnect_cluster(c, payload.cluster_id)
        return payload

    @strawberry.mutation(
        description="Change a node's sharing mode or time-slice replicas: pre-check, cordon, drain, relabel, "
        "wait for the new resource, remove stale capacity, uncordon (super_admin). Returns the running operation."
    )
    async def node_sharing_mode_change(
        self, info: Info, input: inputs.NodeSharingModeChangeInput
    ) -> NodeOperationPayload:
        ctx = info.context
        c = ctx.container
        deps = node_operation_deps(c)
        from infra.cluster.kubernetes import node_name_of  # (kubernetes_asyncio: slow to import)

        node_name = node_name_of(input.cluster_id, input.node_id)
        node_id = f"{input.cluster_id}/{node_name}"
        mode = SharingMode(input.mode)

        async def call(actor: Actor) -> node_ops.NodeOperation:
            async with c.uow() as uow:
                cluster = await SqlClusterRecords(uow).get(input.cluster_id)
            if cluster is None or cluster.kind != clusters_uc.KIND_KUBERNETES:
                raise NotFoundError("cluster", "clusterId")
            op, _ = await node_ops.node_sharing_mode_change_start(
                deps,
                actor,
                cluster_id=input.cluster_id,
                node_id=node_id,
                mode=mode,
                replicas=input.replicas,
                operation_id=c.ids.new_id(),
            )
            _spawn(
                c, node_ops.node_sharing_mode_change_run(deps, actor, op, KubernetesNodeSharing(c, cluster), node_name)
            )
            return op

        return await mutate_saga(
            ctx,
            "nodeSharingModeChange",
            call,
            lambda op: AuditTarget("NodeOperation", str(op.id)),
            lambda op: NodeOperationPayload(operation=NodeOperation.of(op)),
            lambda e: NodeOperationPayload(errors=e),
            attempted=AuditTarget("ClusterNode", node_id[:253]),
        )

    @strawberry.mutation(
        description="Cordon a node (nothing new is placed there; what runs stays) or uncordon it (the queue is "
        "drained at once), on the cluster and in the capacity state (super_admin)."
    )
    async def node_cordon_set(self, info: Info, input: inputs.NodeCordonSetInput) -> NodeCordonPayload:
        ctx = info.context
        c = ctx.container
        deps = node_operation_deps(c)

        async def call(actor: Actor) -> Any:
            port = await _cordon_port(c, input.cluster_id)
            return await node_ops.node_cordon_set(
                deps, actor, port, cluster_id=input.cluster_id, node_ref=input.node_id, cordoned=input.cordoned
            )

        return await mutate_saga(
            ctx,
            "nodeCordonSet",
            call,
            lambda n: AuditTarget("ClusterNode", n.id[:253]),
            lambda n: NodeCordonPayload(node_id=n.id, cordoned=n.cordoned),
            lambda e: NodeCordonPayload(errors=e),
            attempted=AuditTarget("ClusterNode", f"{input.cluster_id}/{input.node_id}"[:253]),
        )

    @strawberry.mutation(
        description="Drain a node: cordon it and pause every session placed there; each is resumed on another node "
        "(or queued until there is room) once its pod is gone. The node stays cordoned (super_admin)."
    )
    async def node_drain(self, info: Info, input: inputs.NodeDrainInput) -> NodeDrainPayload:
        ctx = info.context
        c = ctx.container
        deps = node_operation_deps(c)

        async def call(actor: Actor) -> node_ops.NodeDrain:
            port = await _cordon_port(c, input.cluster_id)
            drain = await node_ops.node_drain_start(
                deps, actor, port, cluster_id=input.cluster_id, node_ref=input.node_id
            )
            _spawn(c, node_ops.node_drain_finish(deps, actor, drain))
            return drain

        def ok(d: node_ops.NodeDrain) -> NodeDrainPayload:
            return NodeDrainPayload(
                node_id=d.node_id,
                drained_sessions=[strawberry.ID(str(to_global("Session", s))) for s in d.paused],
                skipped_sessions=[strawberry.ID(str(to_global("Session", s))) for s in d.skipped],
            )

        return await mutate_saga(
            ctx,
            "nodeDrain",
            call,
            lambda d: AuditTarget("ClusterNode", d.node_id[:253]),
            ok,
            lambda e: NodeDrainPayload(errors=e),
            attempted=AuditTarget("ClusterNode", f"{input.cluster_id}/{input.node_id}"[:253]),
        )
