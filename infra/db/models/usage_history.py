"""Usage history (issue 15): one row per session and minute, rolled up from the live samples by
the `usage.history` job (domain.sessions.history) and deleted past the retention.

The session's scope, cluster and node are copied into each row, so reports per cluster, node,
organisation or group read this table alone, and a row outlives what it names (no foreign
keys: the history is a record, like the audit log)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, Double, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base


class UsageMinuteRow(Base):
    __tablename__ = "usage_minutes"
    __table_args__ = (
        CheckConstraint("samples >= 0", name="samples"),
        CheckConstraint("card_equivalents >= 0", name="card_equivalents"),
        # the retention's delete, and reports over a period
        Index("ix_usage_minutes_minute", "minute"),
        Index("ix_usage_minutes_organization_minute", "organization_id", "minute"),
        Index("ix_usage_minutes_group_minute", "group_id", "minute"),
    )

    session_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    minute: Mapped[datetime] = mapped_column(primary_key=True)
    cluster_id: Mapped[str] = mapped_column(String(63))
    node_id: Mapped[str] = mapped_column(String(253))
    organization_id: Mapped[uuid.UUID]
    group_id: Mapped[uuid.UUID]
    owner_id: Mapped[uuid.UUID]
    card_equivalents: Mapped[float] = mapped_column(Double)
    cpu_millicores_allocated: Mapped[int] = mapped_column(Integer)
    memory_mib_allocated: Mapped[int] = mapped_column(Integer)
    samples: Mapped[int] = mapped_column(Integer)
    gpu_util_mean: Mapped[float | None] = mapped_column(Double)
    gpu_util_max: Mapped[float | None] = mapped_column(Double)
    gpu_memory_mib_mean: Mapped[float | None] = mapped_column(Double)
    gpu_memory_mib_max: Mapped[int | None] = mapped_column(Integer)
    cpu_millicores_mean: Mapped[float | None] = mapped_column(Double)
    cpu_millicores_max: Mapped[int | None] = mapped_column(Integer)
    memory_mib_mean: Mapped[float | None] = mapped_column(Double)
    memory_mib_max: Mapped[int | None] = mapped_column(Integer)
