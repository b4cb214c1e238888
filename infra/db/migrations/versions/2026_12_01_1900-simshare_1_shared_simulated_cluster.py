"""the shared simulated cluster's workloads and claims (one cluster for every process)

Revision ID: simshare_1
Revises: telemetry_1
Create Date: 2026-12-01 19:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "simshare_1"
down_revision: str | None = "telemetry_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "simulated_workloads",
        sa.Column("cluster_id", sa.String(length=63), nullable=False),
        sa.Column("session_id", sa.Uuid(), nullable=False),
        sa.Column("spec", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("desired", sa.String(length=8), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("observed", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=True),
        sa.Column("node_id", sa.String(length=253), nullable=True),
        sa.Column("started_at", sa.TIMESTAMP(timezone=True), nullable=True),
        sa.Column("log", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("exit_code", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.TIMESTAMP(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.PrimaryKeyConstraint("cluster_id", "session_id", name=op.f("pk_simulated_workloads")),
    )
    op.create_table(
        "simulated_claims",
        sa.Column("cluster_id", sa.String(length=63), nullable=False),
        sa.Column("claim_name", sa.String(length=253), nullable=False),
        sa.Column("size_mib", sa.Integer(), nullable=False),
        sa.Column("claim", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.PrimaryKeyConstraint("cluster_id", "claim_name", name=op.f("pk_simulated_claims")),
    )


def downgrade() -> None:
    op.drop_table("simulated_claims")
    op.drop_table("simulated_workloads")
