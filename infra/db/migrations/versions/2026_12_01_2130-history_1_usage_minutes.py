"""usage history: one row per session and minute, rolled up from the live samples

Revision ID: history_1
Revises: operations_1
Create Date: 2026-12-01 21:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "history_1"
down_revision: str | None = "operations_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "usage_minutes",
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("minute", sa.TIMESTAMP(timezone=True), nullable=False),
        sa.Column("cluster_id", sa.String(length=63), nullable=False),
        sa.Column("node_id", sa.String(length=253), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("group_id", sa.Uuid(), nullable=False),
        sa.Column("owner_id", sa.Uuid(), nullable=False),
        sa.Column("card_equivalents", sa.Double(), nullable=False),
        sa.Column("cpu_millicores_allocated", sa.Integer(), nullable=False),
        sa.Column("memory_mib_allocated", sa.Integer(), nullable=False),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("gpu_util_mean", sa.Double(), nullable=True),
        sa.Column("gpu_util_max", sa.Double(), nullable=True),
        sa.Column("gpu_memory_mib_mean", sa.Double(), nullable=True),
        sa.Column("gpu_memory_mib_max", sa.Integer(), nullable=True),
        sa.Column("cpu_millicores_mean", sa.Double(), nullable=True),
        sa.Column("cpu_millicores_max", sa.Integer(), nullable=True),
        sa.Column("memory_mib_mean", sa.Double(), nullable=True),
        sa.Column("memory_mib_max", sa.Integer(), nullable=True),
        sa.CheckConstraint("samples >= 0", name=op.f("ck_usage_minutes_samples")),
        sa.CheckConstraint("card_equivalents >= 0", name=op.f("ck_usage_minutes_card_equivalents")),
        sa.PrimaryKeyConstraint("session_id", "minute", name=op.f("pk_usage_minutes")),
    )
    op.create_index("ix_usage_minutes_minute", "usage_minutes", ["minute"])
    op.create_index("ix_usage_minutes_organization_minute", "usage_minutes", ["organization_id", "minute"])
    op.create_index("ix_usage_minutes_group_minute", "usage_minutes", ["group_id", "minute"])


def downgrade() -> None:
    op.drop_index("ix_usage_minutes_group_minute", table_name="usage_minutes")
    op.drop_index("ix_usage_minutes_organization_minute", table_name="usage_minutes")
    op.drop_index("ix_usage_minutes_minute", table_name="usage_minutes")
    op.drop_table("usage_minutes")
