"""registries with pull credentials: a user name and the password sealed

Revision ID: k8s_registries_1
Revises: placement_1
Create Date: 2026-12-01 17:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "k8s_registries_1"
down_revision: str | None = "placement_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # registries stored before this revision have no credentials (public pulls)
    op.add_column("registries", sa.Column("username", sa.String(255), nullable=True))
    op.add_column("registries", sa.Column("password_sealed", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    op.drop_column("registries", "password_sealed")
    op.drop_column("registries", "username")
