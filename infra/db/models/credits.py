"""Credits tables: accounts with cached balances, append-only transfers, holds, refill
schedules and budgets.

What the database itself guarantees (so no adapter bug can lose a micro-credit):
- every transfer is positive, between two different existing accounts, with a unique key;
  the hold it names (if any) exists;
- transfers are append-only (trigger refusing UPDATE/DELETE/TRUNCATE, see migrations/env.py);
- accounts and holds are never deleted or re-keyed (statement triggers refusing DELETE,
  TRUNCATE and UPDATE OF id), so what a transfer names stays there;
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

# Accounts and holds are permanent (history names them): no DELETE, TRUNCATE or key change.
_REFUSE_REMOVAL = (
    "CREATE OR REPLACE FUNCTION gshare_refuse_removal() RETURNS trigger LANGUAGE plpgsql AS $$ "
    "BEGIN RAISE EXCEPTION '% rows are never deleted or re-keyed', TG_TABLE_NAME USING ERRCODE = 'P0001'; END $$",
    "DROP FUNCTION IF EXISTS gshare_refuse_removal()",
)


def _permanent(table: str) -> tuple[str, str]:
    return (
        f"CREATE TRIGGER {table}_permanent BEFORE DELETE OR TRUNCATE OR UPDATE OF id ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION gshare_refuse_removal()",
        f"DROP TRIGGER IF EXISTS {table}_permanent ON {table}",
    )


# The references of a transfer (source, destination, hold) must exist: checked once per
# statement over the inserted rows (a transition table) rather than by three foreign keys,
# whose per-row checks cost a metering tick (one transfer per running session) as much as
# all of its indexes. With the referenced rows permanent (above), a reference that existed
# when its transfer was inserted exists forever, as a foreign key would ensure. A large
# insert is planned for its size (EXECUTE: hash anti-joins); a small one (the ledger's
# single postings) uses the function's cached plan (index probes).
_CHECK_REFERENCES_BODY = """
DECLARE
    missing boolean;
BEGIN
    IF (SELECT count(*) FROM new_transfers) > 64 THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT x.id FROM (SELECT source_account_id '
                'FROM new_transfers UNION ALL SELECT destination_account_id FROM new_transfers) x(id)) n '
                'WHERE NOT EXISTS (SELECT 1 FROM credit_accounts a WHERE a.id = n.id)) '
                'OR EXISTS (SELECT 1 FROM new_transfers n WHERE n.hold_id IS NOT NULL '
                'AND NOT EXISTS (SELECT 1 FROM credit_holds h WHERE h.id = n.hold_id))'
        INTO missing;
    ELSE
        missing := EXISTS (
            SELECT 1 FROM new_transfers n
            WHERE NOT EXISTS (SELECT 1 FROM credit_accounts a WHERE a.id = n.source_account_id)
               OR NOT EXISTS (SELECT 1 FROM credit_accounts a WHERE a.id = n.destination_account_id)
               OR (n.hold_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM credit_holds h WHERE h.id = n.hold_id)));
    END IF;
    IF missing THEN
        RAISE EXCEPTION 'a credit transfer names an account or hold that does not exist'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END
"""
_CHECK_REFERENCES = (
    "CREATE OR REPLACE FUNCTION gshare_check_transfer_references() RETURNS trigger LANGUAGE plpgsql AS $$"
    + _CHECK_REFERENCES_BODY
    + "$$",
    "DROP FUNCTION IF EXISTS gshare_check_transfer_references()",
)
_CHECK_REFERENCES_TRIGGER = (
    "CREATE TRIGGER credit_transfers_references AFTER INSERT ON credit_transfers "
    "REFERENCING NEW TABLE AS new_transfers FOR EACH STATEMENT EXECUTE FUNCTION gshare_check_transfer_references()",
    "DROP TRIGGER IF EXISTS credit_transfers_references ON credit_transfers",
)
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
        # half of each page free: a metering tick updates every paying wallet once, and the
        # new versions fit beside the old ones (HOT: no index entries to write)
        {"postgresql_with": {"fillfactor": 50}, "info": {"ddl": [_REFUSE_REMOVAL, _permanent("credit_accounts")]}},
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
        # an open hold is renewed by every metering tick: room for its new version on its page
        # (HOT update, no index writes)
        {"postgresql_with": {"fillfactor": 50}, "info": {"ddl": [_permanent("credit_holds")]}},
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
    charge is (no FKs: history outlives the users and groups it names). The accounts and hold
    a transfer names are checked by a statement trigger (`_CHECK_REFERENCES`), not foreign keys.

    Indexes, each for a query (infra/credits/sql.py): the key (idempotency, ON CONFLICT),
    seq (history order and paging), source/destination + seq (an account's history),
    created_at (history by time), and organisation/group/user + created_at over charges
    (budget spend). No index on hold_id: no query selects transfers by hold."""

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
        {"info": {"append_only": True, "ddl": [_CHECK_REFERENCES, _CHECK_REFERENCES_TRIGGER]}},
    )
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, Identity(always=True), unique=True)
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    source_account_id: Mapped[uuid.UUID]
    destination_account_id: Mapped[uuid.UUID]
    amount_micro: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(index=True)
    actor_id: Mapped[uuid.UUID | None]
    organization_id: Mapped[uuid.UUID | None]
    group_id: Mapped[uuid.UUID | None]
    user_id: Mapped[uuid.UUID | None]
    hold_id: Mapped[uuid.UUID | None]
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
