"""volumes as PersistentVolumeClaims: a storage class's access modes, a volume's access mode
and its claims' phases per cluster

Revision ID: k8s_volumes_1
Revises: k8s_jobs_1
Create Date: 2026-12-01 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "k8s_volumes_1"
down_revision: str | None = "k8s_jobs_1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "storage_classes",
        sa.Column(
            "access_modes",
            postgresql.JSONB(astext_type=sa.Text()),
            nullable=False,
            server_default=sa.text("'[\"ReadWriteOnce\"]'::jsonb"),
        ),
    )
    # a class that already holds group-shared volumes was used as shared storage: it keeps
    # serving them (ReadWriteMany beside ReadWriteOnce); an admin corrects what is not so
    op.execute(
        "UPDATE storage_classes SET access_modes = '[\"ReadWriteOnce\", \"ReadWriteMany\"]'::jsonb "
        "WHERE name IN (SELECT storage_class FROM volumes WHERE scope = 'group')"
    )
    op.add_column(
        "volumes", sa.Column("access_mode", sa.String(16), nullable=False, server_default="ReadWriteOnce")
    )
    op.execute("UPDATE volumes SET access_mode = 'ReadWriteMany' WHERE scope = 'group'")
    op.create_check_constraint(
        op.f("ck_volumes_access_mode"),
        "volumes",
        "access_mode IN ('ReadWriteOnce','ReadOnlyMany','ReadWriteMany','ReadWriteOncePod')",
    )
    op.add_column(
        "volumes",
        sa.Column(
            "claims", postgresql.JSONB(astext_type=sa.Text()), nullable=False, server_default=sa.text("'{}'::jsonb")
        ),
    )


def downgrade() -> None:
    op.drop_column("volumes", "claims")
    op.drop_constraint(op.f("ck_volumes_access_mode"), "volumes", type_="check")
    op.drop_column("volumes", "access_mode")
    op.drop_column("storage_classes", "access_modes")
