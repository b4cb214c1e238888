from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, Integer, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base


class AuditEntryRow(Base):
    """Append-only: a trigger (see the migration) refuses UPDATE and DELETE.

    No foreign keys on purpose: the log outlives the users and objects it names."""

    __tablename__ = "audit_log"
    __table_args__ = {"info": {"append_only": True}}  # noqa: RUF012 (SQLAlchemy reads it as is)
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(server_default=func.now(), index=True)
    actor_user_id: Mapped[uuid.UUID | None] = mapped_column(index=True)
    actor_username: Mapped[str | None] = mapped_column(String(64))
    operation: Mapped[str] = mapped_column(String(64), index=True)
    target_type: Mapped[str | None] = mapped_column(String(64))
    target_id: Mapped[str | None] = mapped_column(String(128), index=True)
    success: Mapped[bool] = mapped_column(Boolean)
    result_code: Mapped[str] = mapped_column(String(64))
    duration_ms: Mapped[int] = mapped_column(Integer)
    organization_id: Mapped[uuid.UUID | None] = mapped_column(index=True)
    group_id: Mapped[uuid.UUID | None] = mapped_column(index=True)
    request_id: Mapped[str | None] = mapped_column(String(64))
    client_ip: Mapped[str | None] = mapped_column(String(64))
    details: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict)
