"""capacity changes: each capacity decision's delta (placements and queue entries in and out)
under the epoch it committed, so another process's cached scheduler catches up by applying
them instead of rebuilding from every row

Revision ID: topology_1
Revises: k8s_registries_1
Create Date: 2026-12-01 17:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "topology_1"
down_revision: str | None = "k8s_registries_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "capacity_changes",
        sa.Column("epoch", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("data", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("capacity_changes")
