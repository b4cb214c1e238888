"""sessions: the state reason as a code and its parameters (clients localise from them)

Revision ID: console_1
Revises: history_1
Create Date: 2026-12-01 22:00:00

Stored sessions keep their English reason and get no code ("": the console then says what the
state means); every transition from now on writes one.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "console_1"
down_revision: str | None = "history_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("state_reason_code", sa.String(length=40), server_default="", nullable=False))
    op.add_column(
        "sessions",
        sa.Column("state_reason_params", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
    )


def downgrade() -> None:
    op.drop_column("sessions", "state_reason_params")
    op.drop_column("sessions", "state_reason_code")
