"""Credits tables: accounts with cached balances, append-only transfers, holds, refill
schedules and budgets.

What the database itself guarantees (so no adapter bug can lose a micro-credit):
- every transfer is positive, between two different existing accounts, with a unique key;
- transfers are append-only (trigger refusing UPDATE/DELETE/TRUNCATE, see migrations/env.py);
- every account but the system's keeps balance − held ≥ 0 and held ≥ 0 (CHECK on the cached
  columns, which the adapter updates in the same transaction as the transfer/hold);
- an account's owner column matches its kind (CHECK) and exists (FK).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Identity,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base, created_at_column

ACCOUNT_KINDS = "('system','organization','group','user','consumption')"
TRANSFER_KINDS = "('allocation','take_back','refill','charge')"


class CreditAccountRow(Base):
    __tablename__ = "credit_accounts"
    __table_args__ = (
        CheckConstraint(f"kind IN {ACCOUNT_KINDS}", name="kind"),
        CheckConstraint("held_micro >= 0", name="held_not_negative"),
        CheckConstraint("kind = 'system' OR balance_micro - held_micro >= 0", name="available_not_negative"),
        CheckConstraint(
            "(organization_id IS NOT NULL) = (kind IN ('organization','consumption')) "
            "AND (group_id IS NOT NULL) = (kind = 'group') "
            "AND (user_id IS NOT NULL) = (kind = 'user')",
            name="owner_matches_kind",
        ),
        CheckConstraint("kind IN ('user') OR held_micro = 0", name="only_wallets_hold"),
        UniqueConstraint(
            "kind",
            "organization_id",
            "group_id",
            "user_id",
            name="uq_credit_accounts_owner",
            postgresql_nulls_not_distinct=True,
        ),
    )
    # derived from (kind, owner): domain.credits.model.account_id
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    organization_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("organizations.id", ondelete="RESTRICT"))
    group_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("groups.id", ondelete="RESTRICT"))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"))
    balance_micro: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    held_micro: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    created_at: Mapped[datetime] = created_at_column()


class CreditHoldRow(Base):
    __tablename__ = "credit_holds"
    __table_args__ = (
        CheckConstraint("status IN ('open','settled','released')", name="status"),
        CheckConstraint("amount_micro >= 0 AND charged_micro >= 0 AND reserved_micro > 0", name="amounts"),
        CheckConstraint("status = 'open' OR amount_micro = 0", name="closed_holds_nothing"),
        Index("ix_credit_holds_open_account", "account_id", postgresql_where=text("status = 'open'")),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    account_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("credit_accounts.id"))
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"), index=True)
    amount_micro: Mapped[int] = mapped_column(BigInteger)
    reserved_micro: Mapped[int] = mapped_column(BigInteger)
    charged_micro: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    status: Mapped[str] = mapped_column(String(16))
    organization_id: Mapped[uuid.UUID]
    group_id: Mapped[uuid.UUID | None]
    memo: Mapped[str] = mapped_column(Text, server_default="")
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class CreditTransferRow(Base):
    """One movement between two accounts. Append-only; attribution columns say whose spend a
    charge is (no FKs: history outlives the users and groups it names)."""

    __tablename__ = "credit_transfers"
    __table_args__ = (
        CheckConstraint(f"kind IN {TRANSFER_KINDS}", name="kind"),
        CheckConstraint("amount_micro > 0", name="amount_positive"),
        CheckConstraint("source_account_id <> destination_account_id", name="distinct_accounts"),
        CheckConstraint(
            "kind <> 'charge' OR (user_id IS NOT NULL AND organization_id IS NOT NULL)",
            name="charges_attributed",
        ),
        Index("ix_credit_transfers_source_seq", "source_account_id", "seq"),
        Index("ix_credit_transfers_destination_seq", "destination_account_id", "seq"),
        Index(
            "ix_credit_transfers_charge_org",
            "organization_id",
            "created_at",
            postgresql_where=text("kind = 'charge'"),
        ),
        Index(
            "ix_credit_transfers_charge_group",
            "group_id",
            "created_at",
            postgresql_where=text("kind = 'charge'"),
        ),
        Index(
            "ix_credit_transfers_charge_user",
            "user_id",
            "created_at",
            postgresql_where=text("kind = 'charge'"),
        ),
        {"info": {"append_only": True}},
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, Identity(always=True), unique=True)
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    source_account_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("credit_accounts.id"))
    destination_account_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("credit_accounts.id"))
    amount_micro: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(index=True)
    actor_id: Mapped[uuid.UUID | None]
    organization_id: Mapped[uuid.UUID | None]
    group_id: Mapped[uuid.UUID | None]
    user_id: Mapped[uuid.UUID | None]
    hold_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("credit_holds.id"), index=True)
    memo: Mapped[str] = mapped_column(Text, server_default="")


class RefillScheduleRow(Base):
    __tablename__ = "credit_refill_schedules"
    __table_args__ = (
        CheckConstraint("mode IN ('grant','top_up')", name="mode"),
        CheckConstraint("cadence IN ('daily','weekly','monthly')", name="cadence"),
        CheckConstraint("amount_micro > 0", name="amount_positive"),
        CheckConstraint("(target_account_id IS NULL) <> (members_of_group_id IS NULL)", name="one_target"),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    source_account_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("credit_accounts.id"), index=True)
    target_account_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("credit_accounts.id"))
    members_of_group_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    mode: Mapped[str] = mapped_column(String(16))
    amount_micro: Mapped[int] = mapped_column(BigInteger)
    cadence: Mapped[str] = mapped_column(String(16))
    anchor_day: Mapped[int] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    last_period_start: Mapped[datetime]
    created_by: Mapped[uuid.UUID | None]
    created_at: Mapped[datetime]
    memo: Mapped[str] = mapped_column(Text, server_default="")


class BudgetRow(Base):
    __tablename__ = "credit_budgets"
    __table_args__ = (
        CheckConstraint("scope_kind IN ('organization','group','user')", name="scope_kind"),
        CheckConstraint(
            "(organization_id IS NOT NULL) = (scope_kind = 'organization') "
            "AND (group_id IS NOT NULL) = (scope_kind = 'group') "
            "AND (user_id IS NOT NULL) = (scope_kind = 'user') "
            "AND scope_id = COALESCE(organization_id, group_id, user_id)",
            name="scope_matches",
        ),
        CheckConstraint("period IN ('daily','weekly','monthly')", name="period"),
        CheckConstraint("action IN ('warn','block')", name="action"),
        CheckConstraint("limit_micro >= 0", name="limit_not_negative"),
        UniqueConstraint("scope_kind", "scope_id", "period"),
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    scope_kind: Mapped[str] = mapped_column(String(16))
    scope_id: Mapped[uuid.UUID]
    organization_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"))
    group_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    period: Mapped[str] = mapped_column(String(16))
    limit_micro: Mapped[int] = mapped_column(BigInteger)
    action: Mapped[str] = mapped_column(String(8))
    alert_thresholds: Mapped[list[int]] = mapped_column(ARRAY(Integer))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    updated_by: Mapped[uuid.UUID | None]
