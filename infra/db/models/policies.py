"""Resource policies, one row per scope (the global scope included)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, Boolean, CheckConstraint, ForeignKey, Integer, String
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base


class ResourcePolicyRow(Base):
    __tablename__ = "resource_policies"
    __table_args__ = (
        CheckConstraint("scope_kind IN ('global','organization','group','user')", name="scope_kind"),
        CheckConstraint(
            "(organization_id IS NOT NULL) = (scope_kind = 'organization') "
            "AND (group_id IS NOT NULL) = (scope_kind = 'group') "
            "AND (user_id IS NOT NULL) = (scope_kind = 'user')",
            name="scope_matches",
        ),
        CheckConstraint(
            "COALESCE(max_concurrent_sessions, 0) >= 0 AND COALESCE(max_vram_mib, 0) >= 0 "
            "AND COALESCE(max_cpu_millicores, 0) >= 0 AND COALESCE(max_memory_mib, 0) >= 0 "
            "AND COALESCE(storage_quota_mib, 0) >= 0 AND COALESCE(idle_timeout_seconds, 0) >= 0 "
            "AND COALESCE(max_session_seconds, 0) >= 0",
            name="limits_not_negative",
        ),
    )
    # "<kind>:<id>" ("global:" for the global scope): one policy per scope
    scope_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    scope_kind: Mapped[str] = mapped_column(String(16))
    organization_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), unique=True
    )
    group_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), unique=True)
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), unique=True)
    max_concurrent_sessions: Mapped[int | None] = mapped_column(Integer)
    # exact fractions as "num/den" text ("15/4" = 3.75 cards)
    max_gpus: Mapped[str | None] = mapped_column(String(40))
    model_caps: Mapped[dict[str, str]] = mapped_column(JSONB, server_default="{}")
    max_vram_mib: Mapped[int | None] = mapped_column(BigInteger)
    max_cpu_millicores: Mapped[int | None] = mapped_column(BigInteger)
    max_memory_mib: Mapped[int | None] = mapped_column(BigInteger)
    storage_quota_mib: Mapped[int | None] = mapped_column(BigInteger)
    idle_timeout_seconds: Mapped[int | None] = mapped_column(Integer)
    max_session_seconds: Mapped[int | None] = mapped_column(Integer)
    approval_required: Mapped[bool | None] = mapped_column(Boolean)
    default_priority: Mapped[int | None] = mapped_column(Integer)
    preemptible: Mapped[bool | None] = mapped_column(Boolean)
    allowed_clusters: Mapped[list[str] | None] = mapped_column(ARRAY(String(100)))
    updated_at: Mapped[datetime | None]
    updated_by: Mapped[uuid.UUID | None]
