"""The shared simulated cluster's state (infra.cluster.shared): what every process asked of it
(`desired`, bumped `generation`), and what its hosting process last made of it (`observed`,
the pod's phase, node, log and exit code), so that any process drives the one cluster and a
process taking the cluster over from a dead host carries on with the workloads it ran."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import TIMESTAMP, Integer, String, Uuid, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base


class SimulatedWorkloadRow(Base):
    __tablename__ = "simulated_workloads"
    cluster_id: Mapped[str] = mapped_column(String(63), primary_key=True)
    session_id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    spec: Mapped[dict[str, Any]] = mapped_column(JSONB)
    desired: Mapped[str] = mapped_column(String(8))  # run, pause, delete
    generation: Mapped[int] = mapped_column(Integer, default=1)
    observed: Mapped[int] = mapped_column(Integer, default=0)
    phase: Mapped[str | None] = mapped_column(String(16))
    node_id: Mapped[str | None] = mapped_column(String(253))
    started_at: Mapped[datetime | None] = mapped_column(TIMESTAMP(timezone=True))
    log: Mapped[list[str]] = mapped_column(JSONB, default=list)
    exit_code: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(
        TIMESTAMP(timezone=True), server_default=func.now(), onupdate=func.now(), nullable=False
    )


class SimulatedClaimRow(Base):
    __tablename__ = "simulated_claims"
    cluster_id: Mapped[str] = mapped_column(String(63), primary_key=True)
    claim_name: Mapped[str] = mapped_column(String(253), primary_key=True)
    size_mib: Mapped[int] = mapped_column(Integer)
    claim: Mapped[dict[str, Any]] = mapped_column(JSONB)
