"""Ledger checks shared by the billing tests: every cached number equals what the append-only
transfers and the open holds say, and nothing was created from nothing."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from sqlalchemy import text

from domain.credits.model import AccountRef


async def assert_ledger_consistent(engine: Any) -> None:
    async with engine.connect() as conn:
        total = (await conn.execute(text("SELECT coalesce(sum(balance_micro), 0) FROM credit_accounts"))).scalar()
        assert total == 0, "credits were created or destroyed"
        drift = (
            await conn.execute(
                text(
                    """
                    SELECT a.id, a.balance_micro,
                           coalesce((SELECT sum(amount_micro) FROM credit_transfers WHERE destination_account_id = a.id), 0)
                         - coalesce((SELECT sum(amount_micro) FROM credit_transfers WHERE source_account_id = a.id), 0)
                             AS from_transfers,
                           a.held_micro,
                           coalesce((SELECT sum(amount_micro) FROM credit_holds h
                                     WHERE h.account_id = a.id AND h.status = 'open'), 0) AS from_holds
                    FROM credit_accounts a
                    """
                )
            )
        ).all()
    bad = [r for r in drift if r.balance_micro != r.from_transfers or r.held_micro != r.from_holds]
    assert not bad, f"cached balances drifted from transfers/holds: {bad[:3]}"


async def charges_of(engine: Any, user_id: UUID) -> int:
    wallet = AccountRef.user(user_id).id
    async with engine.connect() as conn:
        return int(
            (
                await conn.execute(
                    text(
                        "SELECT coalesce(sum(amount_micro), 0) FROM credit_transfers "
                        "WHERE kind = 'charge' AND source_account_id = :w"
                    ),
                    {"w": wallet},
                )
            ).scalar_one()
        )


async def snapshot(engine: Any) -> dict[str, Any]:
    """Everything billing may change, to compare before and after."""
    async with engine.connect() as conn:
        return {
            "transfers": (
                await conn.execute(text("SELECT count(*), coalesce(sum(amount_micro),0) FROM credit_transfers"))
            ).one(),
            "accounts": sorted(
                tuple(r) for r in await conn.execute(text("SELECT id, balance_micro, held_micro FROM credit_accounts"))
            ),
            "holds": sorted(
                tuple(r)
                for r in await conn.execute(text("SELECT id, amount_micro, charged_micro, status FROM credit_holds"))
            ),
            "sessions": sorted(
                tuple(r)
                for r in await conn.execute(
                    text(
                        "SELECT s.id, m.charged_micro, s.version, s.state FROM sessions s "
                        "JOIN session_meters m ON m.session_id = s.id"
                    )
                )
            ),
        }
