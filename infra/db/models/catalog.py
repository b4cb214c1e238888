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
    LargeBinary,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base, created_at_column


class OfferingRow(Base):
    __tablename__ = "offerings"
    __table_args__ = (
        CheckConstraint("vram_mib > 0", name="vram_positive"),
        CheckConstraint("cores = 100", name="whole_card_cores"),
        CheckConstraint("hourly_rate_micro >= 0", name="rate_non_negative"),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    vendor: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(100), unique=True)
    vram_mib: Mapped[int] = mapped_column(Integer)
    cores: Mapped[int] = mapped_column(Integer)
    min_cuda: Mapped[str] = mapped_column(String(16))
    hourly_rate_micro: Mapped[int] = mapped_column(BigInteger)
    resource_name: Mapped[str] = mapped_column(String(253))
    description: Mapped[str] = mapped_column(Text, default="")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    # a class of cards ({"models": [...]}; vram_mib is then the minimum), NULL for one model
    card_class: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)
    created_at: Mapped[datetime] = created_at_column()


class PresetRow(Base):
    __tablename__ = "presets"
    __table_args__ = (
        CheckConstraint("cpu_millicores > 0 AND memory_mib > 0 AND disk_gib >= 0 AND shm_mib >= 0", name="resources"),
        CheckConstraint("tier IN ('XL','L','M','S','EXCLUSIVE','CUSTOM','NONE')", name="tier"),
        CheckConstraint("tier <> 'NONE' OR gpu_count = 0", name="cpu_only_has_no_gpu"),
        CheckConstraint("tier <> 'EXCLUSIVE' OR gpu_count >= 1", name="exclusive_has_cards"),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    cpu_millicores: Mapped[int] = mapped_column(Integer)
    memory_mib: Mapped[int] = mapped_column(Integer)
    disk_gib: Mapped[int] = mapped_column(Integer)
    shm_mib: Mapped[int] = mapped_column(Integer)
    tier: Mapped[str] = mapped_column(String(12))
    gpu_count: Mapped[int] = mapped_column(Integer, default=0)
    custom_vram_mib: Mapped[int | None] = mapped_column(Integer)
    custom_cores: Mapped[int | None] = mapped_column(Integer)
    description: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = created_at_column()


class RegistryRow(Base):
    __tablename__ = "registries"
    __table_args__ = (
        Index("uq_registries_global_name", "name", unique=True, postgresql_where=text("organization_id IS NULL")),
        Index(
            "uq_registries_org_name",
            "organization_id",
            "name",
            unique=True,
            postgresql_where=text("organization_id IS NOT NULL"),
        ),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    url: Mapped[str] = mapped_column(String(255))
    organization_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True
    )
    description: Mapped[str] = mapped_column(Text, default="")
    # pull credentials: the user name and the password sealed (Fernet, infra/catalog/crypto.py)
    username: Mapped[str | None] = mapped_column(String(255))
    password_sealed: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = created_at_column()


class ImageRow(Base):
    __tablename__ = "images"
    __table_args__ = (
        CheckConstraint("scope IN ('global','organization','personal')", name="scope"),
        CheckConstraint(
            "(scope = 'global' AND organization_id IS NULL AND owner_user_id IS NULL)"
            " OR (scope = 'organization' AND organization_id IS NOT NULL AND owner_user_id IS NULL)"
            " OR (scope = 'personal' AND owner_user_id IS NOT NULL AND organization_id IS NULL)",
            name="scope_owner",
        ),
        Index("uq_images_scope_name", "scope", text("coalesce(organization_id, owner_user_id)"), "name", unique=True),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    reference: Mapped[str] = mapped_column(String(512))
    cuda_version: Mapped[str | None] = mapped_column(String(16))
    scope: Mapped[str] = mapped_column(String(16))
    registry_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("registries.id", ondelete="RESTRICT"), index=True)
    organization_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True
    )
    owner_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    description: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = created_at_column()
