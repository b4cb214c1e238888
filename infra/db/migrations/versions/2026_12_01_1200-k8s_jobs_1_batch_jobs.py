"""batch jobs: a session's job part (command, args, back-off limit, exit code, log tail) and
the SUCCEEDED state

Revision ID: k8s_jobs_1
Revises: 0001
Create Date: 2026-12-01 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "k8s_jobs_1"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD_STATES = (
    "'PENDING_APPROVAL','QUEUED','SCHEDULED','STARTING','RUNNING','PAUSING','PAUSED','RESUMING',"
    "'STOPPING','STOPPED','REJECTED','FAILED','EXPIRED','PREEMPTED'"
)


def upgrade() -> None:
    op.add_column("sessions", sa.Column("job", postgresql.JSONB(astext_type=sa.Text()), nullable=True))
    # jobs stored before this revision ran their image's entrypoint, never retried
    op.execute(
        "UPDATE sessions SET job = jsonb_build_object('command', '[]'::jsonb, 'args', '[]'::jsonb, "
        "'backoff_limit', 0, 'exit_code', NULL, 'log_tail', '') WHERE kind = 'job'"
    )
    op.drop_constraint(op.f("ck_sessions_state"), "sessions", type_="check")
    op.create_check_constraint(op.f("ck_sessions_state"), "sessions", f"state IN ({_OLD_STATES},'SUCCEEDED')")


def downgrade() -> None:
    # a job that succeeded was, before this revision, a stopped session
    op.execute("UPDATE sessions SET state = 'STOPPED' WHERE state = 'SUCCEEDED'")
    op.drop_constraint(op.f("ck_sessions_state"), "sessions", type_="check")
    op.create_check_constraint(op.f("ck_sessions_state"), "sessions", f"state IN ({_OLD_STATES})")
    op.drop_column("sessions", "job")
