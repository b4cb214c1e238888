"""Tables of the Kubernetes wiring: callback token ids seen (the replay cache when no Redis is
configured) and guarded node operations with their progress."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import TIMESTAMP, BigInteger, ForeignKey, Index, Integer, String, Text, Uuid
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base, created_at_column


class CallbackJtiRow(Base):
    """A callback token's `jti`, kept until the token has expired (single use)."""

    __tablename__ = "callback_jtis"
    __table_args__ = (Index("ix_callback_jtis_expires_at", "expires_at"),)
    cluster_id: Mapped[str] = mapped_column(String(63), primary_key=True)
    jti: Mapped[str] = mapped_column(String(128), primary_key=True)
    # epoch seconds, as the token's `exp` (plus leeway)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class NodeOperationRow(Base):
    __tablename__ = "node_operations"
    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    cluster_id: Mapped[str] = mapped_column(ForeignKey("clusters.id", ondelete="CASCADE"), index=True)
    node_id: Mapped[str] = mapped_column(String(253), index=True)
    mode: Mapped[str] = mapped_column(String(16))
    replicas: Mapped[int | None] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16))
    requested_by: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    steps: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    drained_sessions: Mapped[list[str]] = mapped_column(JSONB, default=list)
    removed_resources: Mapped[list[str]] = mapped_column(JSONB, default=list)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()
    finished_at: Mapped[datetime | None] = mapped_column(TIMESTAMP(timezone=True))
