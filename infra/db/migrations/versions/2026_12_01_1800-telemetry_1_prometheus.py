"""a cluster's Prometheus fallback for live usage: its URL and sealed bearer token

Revision ID: telemetry_1
Revises: topology_1
Create Date: 2026-12-01 18:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "telemetry_1"
down_revision: str | None = "topology_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("clusters", sa.Column("prometheus_url", sa.Text(), nullable=True))
    op.add_column("clusters", sa.Column("prometheus_token_encrypted", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    op.drop_column("clusters", "prometheus_token_encrypted")
    op.drop_column("clusters", "prometheus_url")
