"""Sessions, volumes, storage classes, templates and notifications."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base, created_at_column

SESSION_STATES = (
    "PENDING_APPROVAL",
    "QUEUED",
    "SCHEDULED",
    "STARTING",
    "RUNNING",
    "PAUSING",
    "PAUSED",
    "RESUMING",
    "STOPPING",
    "STOPPED",
    "REJECTED",
    "FAILED",
    "EXPIRED",
    "PREEMPTED",
    "SUCCEEDED",
)


class SessionRow(Base):
    __tablename__ = "sessions"
    __table_args__ = (
        CheckConstraint("state IN (" + ",".join(f"'{s}'" for s in SESSION_STATES) + ")", name="state"),
        CheckConstraint("kind IN ('interactive','job')", name="kind"),
        CheckConstraint("billed_seconds >= 0", name="billing_non_negative"),
        Index("ix_sessions_owner_state", "owner_id", "state"),
        Index("ix_sessions_group_state", "group_id", "state"),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    owner_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    organization_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("organizations.id", ondelete="RESTRICT"), index=True)
    group_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("groups.id", ondelete="RESTRICT"))
    kind: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(20), index=True)
    state_reason: Mapped[str] = mapped_column(Text, default="")
    state_reason_code: Mapped[str] = mapped_column(String(40), default="", server_default="")
    state_reason_params: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict, server_default="{}")
    image_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("images.id", ondelete="RESTRICT"))
    image_reference: Mapped[str] = mapped_column(String(512))
    preset_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("presets.id", ondelete="SET NULL"))
    template_id: Mapped[uuid.UUID | None] = mapped_column()
    offering_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("offerings.id", ondelete="RESTRICT"), index=True)
    cpu_millicores: Mapped[int] = mapped_column(Integer)
    memory_mib: Mapped[int] = mapped_column(Integer)
    shm_mib: Mapped[int] = mapped_column(Integer)
    disk_gib: Mapped[int] = mapped_column(Integer)
    gpu: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    expiry: Mapped[str] = mapped_column(String(8))
    expires_at: Mapped[datetime | None] = mapped_column(index=True)
    priority: Mapped[int] = mapped_column(Integer, default=0)
    preemptible: Mapped[bool] = mapped_column(Boolean, default=False)
    env: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict)
    mounts: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    # a batch job's command, args, back-off limit, exit code and final log tail (JobRun)
    job: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    requested_cluster: Mapped[str | None] = mapped_column(String(63))
    cluster_id: Mapped[str | None] = mapped_column(String(63))
    placement: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    hold_id: Mapped[uuid.UUID | None] = mapped_column()
    hold_seq: Mapped[int] = mapped_column(Integer, default=0)
    running_since: Mapped[datetime | None] = mapped_column()
    billed_seconds: Mapped[int] = mapped_column(BigInteger, default=0)
    endpoints: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    queued_at: Mapped[datetime | None] = mapped_column()
    started_at: Mapped[datetime | None] = mapped_column()
    forced_kind: Mapped[str | None] = mapped_column(String(16))
    approved_by: Mapped[uuid.UUID | None] = mapped_column()
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = created_at_column()


# every session has its meter from the moment it exists, whoever inserts the session row
_OPEN_METER = (
    "CREATE OR REPLACE FUNCTION gshare_open_session_meter() RETURNS trigger LANGUAGE plpgsql AS $$ "
    "BEGIN INSERT INTO session_meters (session_id) VALUES (NEW.id); RETURN NULL; END $$",
    "DROP FUNCTION IF EXISTS gshare_open_session_meter()",
)
_OPEN_METER_TRIGGER = (
    "CREATE TRIGGER sessions_open_meter AFTER INSERT ON sessions "
    "FOR EACH ROW EXECUTE FUNCTION gshare_open_session_meter()",
    "DROP TRIGGER IF EXISTS sessions_open_meter ON sessions",
)


class SessionMeterRow(Base):
    """What a session has been charged so far (`Session.charged_micro`), written only by
    billing (infra/billing/sql.py), read with the session (infra/db/repositories/sessions.py).

    Kept apart from the sessions row because a metering tick updates it for every running
    session every period: a new version of a wide sessions row (JSON columns, seven indexes,
    full pages, so no HOT update) cost a tick as much as all its other writes together, while
    this narrow row on half-empty pages is updated in place (HOT, no index entry). Apart, it
    also cannot be written back stale by a use case holding an older copy of the session, so
    a tick leaves the session's optimistic version alone."""

    __tablename__ = "session_meters"
    __table_args__ = (
        CheckConstraint("charged_micro >= 0", name="non_negative"),
        {"postgresql_with": {"fillfactor": 50}, "info": {"ddl": [_OPEN_METER, _OPEN_METER_TRIGGER]}},
    )
    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True)
    charged_micro: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))


class StorageClassRow(Base):
    __tablename__ = "storage_classes"
    name: Mapped[str] = mapped_column(String(63), primary_key=True)
    description: Mapped[str] = mapped_column(Text, default="")
    is_default: Mapped[bool] = mapped_column(Boolean, default=False)
    # Kubernetes access modes the class's provisioner gives ("ReadWriteOnce", "ReadWriteMany", …)
    access_modes: Mapped[list[str]] = mapped_column(
        JSONB, default=lambda: ["ReadWriteOnce"], server_default=text("'[\"ReadWriteOnce\"]'::jsonb")
    )


class VolumeRow(Base):
    __tablename__ = "volumes"
    __table_args__ = (
        CheckConstraint("scope IN ('personal','group')", name="scope"),
        CheckConstraint(
            "(scope = 'personal' AND owner_id IS NOT NULL AND group_id IS NULL)"
            " OR (scope = 'group' AND group_id IS NOT NULL AND owner_id IS NULL)",
            name="scope_owner",
        ),
        CheckConstraint("size_mib > 0", name="size_positive"),
        CheckConstraint("member_mode IN ('ro','rw')", name="member_mode"),
        CheckConstraint(
            "access_mode IN ('ReadWriteOnce','ReadOnlyMany','ReadWriteMany','ReadWriteOncePod')", name="access_mode"
        ),
        Index(
            "uq_volumes_scope_name",
            "scope",
            "owner_id",
            "group_id",
            "name",
            unique=True,
            postgresql_nulls_not_distinct=True,
        ),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(63))
    scope: Mapped[str] = mapped_column(String(16))
    organization_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    owner_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    group_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    storage_class: Mapped[str] = mapped_column(ForeignKey("storage_classes.name", ondelete="RESTRICT"))
    size_mib: Mapped[int] = mapped_column(BigInteger)
    member_mode: Mapped[str] = mapped_column(String(2), default="rw")
    access_mode: Mapped[str] = mapped_column(String(16), default="ReadWriteOnce", server_default="ReadWriteOnce")
    # cluster id -> {"phase": "Bound", "at": "<ISO time>"}: the claim as each cluster reported it
    claims: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default=text("'{}'::jsonb"))
    created_by: Mapped[uuid.UUID] = mapped_column()
    created_at: Mapped[datetime] = created_at_column()


class TemplateRow(Base):
    __tablename__ = "templates"
    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    group_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    organization_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    image_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("images.id", ondelete="CASCADE"))
    offering_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("offerings.id", ondelete="SET NULL"))
    preset_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("presets.id", ondelete="SET NULL"))
    cpu_millicores: Mapped[int | None] = mapped_column(Integer)
    memory_mib: Mapped[int | None] = mapped_column(Integer)
    shm_mib: Mapped[int | None] = mapped_column(Integer)
    env: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict)
    # volume ids are kept even when a volume is deleted, so a start can say which one is gone
    mounts: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    description: Mapped[str] = mapped_column(Text, default="")
    created_by: Mapped[uuid.UUID] = mapped_column()
    created_at: Mapped[datetime] = created_at_column()


class NotificationRow(Base):
    __tablename__ = "notifications"
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text)
    session_id: Mapped[uuid.UUID | None] = mapped_column()
    created_at: Mapped[datetime] = created_at_column()
    read_at: Mapped[datetime | None] = mapped_column()
