"""offerings that name a class of cards (issue 17): the class's model list; an offering
with a class is placed on any enabled single-model offering it admits

Revision ID: placement_1
Revises: k8s_volumes_1
Create Date: 2026-12-01 16:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "placement_1"
down_revision: str | None = "k8s_volumes_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # NULL: one card model (every offering so far); {"models": [...]}: a class of cards
    op.add_column("offerings", sa.Column("card_class", postgresql.JSONB(astext_type=sa.Text()), nullable=True))


def downgrade() -> None:
    op.drop_column("offerings", "card_class")
