"""a periodic run's summary numbers by name, for consoles that say the summary in their language

Revision ID: operations_1
Revises: simshare_1
Create Date: 2026-12-01 19:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "operations_1"
down_revision: str | None = "simshare_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("periodic_runs", sa.Column("summary_counts", postgresql.JSONB(astext_type=sa.Text()), nullable=True))


def downgrade() -> None:
    op.drop_column("periodic_runs", "summary_counts")
