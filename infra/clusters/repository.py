"""Registered clusters and node operations in PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domain.common.errors import DuplicateError
from domain.inventory.clusters import RegisteredCluster
from domain.inventory.model import Cluster, SharingMode
from domain.inventory.node_operations import (
    NodeOperation,
    NodeOperationProgress,
    NodeOperationState,
    NodeOperationStep,
)
from domain.sessions.model import HOLDS_CAPACITY
from infra.db.models.clusters_extra import NodeOperationRow
from infra.db.models.inventory import ClusterNodeRow, ClusterRow, PlacementRow
from infra.db.models.sessions import SessionRow

# announced after a registration, a change or a deregistration commits: every process's
# `infra.clusters.wiring.ClusterFollower` re-reads the registrations
CLUSTERS_TOPIC = "clusters"


def _cluster(row: ClusterRow) -> RegisteredCluster:
    return RegisteredCluster(
        id=row.id,
        name=row.name,
        kind=row.kind,
        placement_policy=row.placement_policy,
        kubeconfig_encrypted=row.kubeconfig_encrypted,
        callback_public_key=row.callback_public_key,
        created_at=row.created_at,
        prometheus_url=row.prometheus_url,
        prometheus_token_encrypted=row.prometheus_token_encrypted,
    )


class SqlClusterRecords:
    """The `ClusterRecords` port inside a unit of work (its session and capacity store, so a
    registration, the capacity epoch bump and the audit entry commit together)."""

    def __init__(self, uow: Any) -> None:
        self._uow = uow
        self.s: AsyncSession = uow.session

    async def get(self, cluster_id: str, *, for_update: bool = False) -> RegisteredCluster | None:
        stmt = select(ClusterRow).where(ClusterRow.id == cluster_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = await self.s.scalar(stmt)
        return _cluster(row) if row is not None else None

    async def name_taken(self, name: str, *, other_than: str | None = None) -> bool:
        stmt = select(ClusterRow.id).where(func.lower(ClusterRow.name) == name.lower())
        if other_than is not None:
            stmt = stmt.where(ClusterRow.id != other_than)
        return (await self.s.scalar(stmt.limit(1))) is not None

    async def add(self, cluster: RegisteredCluster) -> None:
        # one INSERT decides a race between two registrations of the same id or name
        inserted = await self.s.scalar(
            insert(ClusterRow)
            .values(
                id=cluster.id,
                name=cluster.name,
                kind=cluster.kind,
                placement_policy=cluster.placement_policy,
                kubeconfig_encrypted=cluster.kubeconfig_encrypted,
                callback_public_key=cluster.callback_public_key,
            )
            .on_conflict_do_nothing()
            .returning(ClusterRow.id)
        )
        if inserted is None:
            raise DuplicateError(
                "id", f"a cluster with id {cluster.id!r} or name {cluster.name!r} is already registered"
            )
        # through the capacity store: it takes the capacity lock and bumps the epoch, so every
        # process's cached scheduler learns about the new cluster
        await self._uow.capacity.put_cluster(Cluster(cluster.id, cluster.name, cluster.placement_policy), cluster.kind)
        self._uow.publish_after_commit(CLUSTERS_TOPIC, {"clusterId": cluster.id, "change": "registered"})

    async def update(self, cluster: RegisteredCluster) -> None:
        await self.s.execute(
            update(ClusterRow)
            .where(ClusterRow.id == cluster.id)
            .values(
                prometheus_url=cluster.prometheus_url,
                prometheus_token_encrypted=cluster.prometheus_token_encrypted,
            )
        )
        await self._uow.capacity.put_cluster(Cluster(cluster.id, cluster.name, cluster.placement_policy), cluster.kind)
        self._uow.publish_after_commit(CLUSTERS_TOPIC, {"clusterId": cluster.id, "change": "changed"})

    async def remove(self, cluster_id: str) -> None:
        await self._uow.capacity.replace_nodes(cluster_id, [])
        await self.s.execute(delete(ClusterNodeRow).where(ClusterNodeRow.cluster_id == cluster_id))
        await self.s.execute(delete(ClusterRow).where(ClusterRow.id == cluster_id))
        self._uow.publish_after_commit(CLUSTERS_TOPIC, {"clusterId": cluster_id, "change": "deregistered"})

    async def list(self) -> list[RegisteredCluster]:
        rows = await self.s.scalars(select(ClusterRow).order_by(ClusterRow.id))
        return [_cluster(r) for r in rows]

    async def has_workloads(self, cluster_id: str) -> bool:
        # under the capacity lock: no admission can place on the cluster until this commits
        await self._uow.capacity.lock()
        placed = await self.s.scalar(
            select(PlacementRow.workload_id).where(PlacementRow.cluster_id == cluster_id).limit(1)
        )
        if placed is not None:
            return True
        running = await self.s.scalar(
            select(SessionRow.id)
            .where(SessionRow.cluster_id == cluster_id, SessionRow.state.in_([s.value for s in HOLDS_CAPACITY]))
            .limit(1)
        )
        return running is not None


async def kubernetes_clusters(sessionmaker: async_sessionmaker[AsyncSession]) -> list[RegisteredCluster]:
    async with sessionmaker() as s:
        rows = await s.scalars(select(ClusterRow).where(ClusterRow.kind == "kubernetes").order_by(ClusterRow.id))
        return [_cluster(r) for r in rows]


def _progress(data: dict[str, Any]) -> NodeOperationProgress:
    return NodeOperationProgress(NodeOperationStep(data["step"]), data["message"], datetime.fromisoformat(data["at"]))


def _operation(row: NodeOperationRow) -> NodeOperation:
    return NodeOperation(
        id=row.id,
        cluster_id=row.cluster_id,
        node_id=row.node_id,
        mode=SharingMode(row.mode),
        replicas=row.replicas,
        state=NodeOperationState(row.state),
        requested_by=row.requested_by,
        created_at=row.created_at,
        steps=tuple(_progress(d) for d in row.steps),
        drained_sessions=tuple(row.drained_sessions),
        removed_resources=tuple(row.removed_resources),
        error=row.error,
        finished_at=row.finished_at,
    )


def _values(op: NodeOperation) -> dict[str, Any]:
    return {
        "cluster_id": op.cluster_id,
        "node_id": op.node_id,
        "mode": op.mode.value,
        "replicas": op.replicas,
        "state": op.state.value,
        "requested_by": op.requested_by,
        "steps": [{"step": p.step.value, "message": p.message, "at": p.at.isoformat()} for p in op.steps],
        "drained_sessions": list(op.drained_sessions),
        "removed_resources": list(op.removed_resources),
        "error": op.error,
        "finished_at": op.finished_at,
    }


class SqlNodeOperationRecords:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessionmaker

    async def add(self, operation: NodeOperation) -> None:
        async with self._sessions() as s:
            await s.execute(
                insert(NodeOperationRow).values(id=operation.id, created_at=operation.created_at, **_values(operation))
            )
            await s.commit()

    async def save(self, operation: NodeOperation) -> None:
        async with self._sessions() as s:
            await s.execute(
                update(NodeOperationRow).where(NodeOperationRow.id == operation.id).values(**_values(operation))
            )
            await s.commit()

    async def get(self, operation_id: UUID) -> NodeOperation | None:
        async with self._sessions() as s:
            row = await s.scalar(select(NodeOperationRow).where(NodeOperationRow.id == operation_id))
            return _operation(row) if row is not None else None
