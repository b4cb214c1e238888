"""Clusters, their reported nodes, and the capacity decisions (placements and the queue).

Inventory is stored as the plain data the domain serialises (`Node.to_dict`), one row per
node; placements and queue entries likewise. `capacity_state` is the single row every
placement decision locks, and its `epoch` tells a process whether its cached scheduler is
still current."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base, created_at_column


class ClusterRow(Base):
    __tablename__ = "clusters"
    __table_args__ = (CheckConstraint("kind IN ('simulated','kubernetes')", name="kind"),)
    id: Mapped[str] = mapped_column(String(63), primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    placement_policy: Mapped[str] = mapped_column(String(32), default="best-fit")
    # Kubernetes clusters: kubeconfig encrypted at rest, the operator's public key for callbacks
    kubeconfig_encrypted: Mapped[bytes | None] = mapped_column(LargeBinary)
    callback_public_key: Mapped[str | None] = mapped_column(Text)
    # live usage from the cluster's Prometheus when it runs no node agent (token sealed like the kubeconfig)
    prometheus_url: Mapped[str | None] = mapped_column(Text)
    prometheus_token_encrypted: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = created_at_column()


class ClusterNodeRow(Base):
    __tablename__ = "cluster_nodes"
    node_id: Mapped[str] = mapped_column(String(253), primary_key=True)
    cluster_id: Mapped[str] = mapped_column(ForeignKey("clusters.id", ondelete="CASCADE"), index=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)
    reported_at: Mapped[datetime] = created_at_column()


class PlacementRow(Base):
    """What a workload holds: the source of truth for GPU capacity."""

    __tablename__ = "placements"
    workload_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    cluster_id: Mapped[str] = mapped_column(String(63), index=True)
    node_id: Mapped[str] = mapped_column(String(253), index=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)
    created_at: Mapped[datetime] = created_at_column()


class QueueEntryRow(Base):
    __tablename__ = "gpu_queue"
    workload_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    offering: Mapped[str] = mapped_column(String(100), index=True)
    priority: Mapped[int] = mapped_column(Integer)
    arrival: Mapped[int] = mapped_column(BigInteger)
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)
    created_at: Mapped[datetime] = created_at_column()


class CapacityChangeRow(Base):
    """One capacity decision's delta, under the epoch it committed (`rebuild`: the inventory
    changed, the delta cannot be applied; read the rows)."""

    __tablename__ = "capacity_changes"
    epoch: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)


class CapacityStateRow(Base):
    __tablename__ = "capacity_state"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, default=1)
    epoch: Mapped[int] = mapped_column(BigInteger, default=0)
    next_arrival: Mapped[int] = mapped_column(BigInteger, default=0)
