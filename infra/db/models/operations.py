"""Periodic job runs: one row per (job, period) that some scheduler claimed.

The primary key is the claim: schedulers in every process `INSERT … ON CONFLICT DO NOTHING`
the current period, and only the one whose insert lands enqueues the job. The same row then
records the run (attempts, start, finish, outcome, error) for the operations view.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, Index, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from infra.db.base import Base

RUN_OUTCOMES = "('pending','running','succeeded','failed','coalesced')"


class PeriodicRunRow(Base):
    __tablename__ = "periodic_runs"
    __table_args__ = (
        CheckConstraint(f"outcome IN {RUN_OUTCOMES}", name="outcome"),
        CheckConstraint("period_end > period_start", name="period"),
        CheckConstraint("attempts >= 0", name="attempts"),
        # latest run / last success per job, and the sweep of claims the broker never took
        Index("ix_periodic_runs_job_started", "job", "started_at"),
        Index("ix_periodic_runs_unenqueued", "job", "period_start", postgresql_where="enqueued_at IS NULL"),
    )

    job: Mapped[str] = mapped_column(String(100), primary_key=True)
    period_start: Mapped[datetime] = mapped_column(primary_key=True)
    period_end: Mapped[datetime]
    outcome: Mapped[str] = mapped_column(String(16))
    claimed_at: Mapped[datetime]
    claimed_by: Mapped[str] = mapped_column(String(200))
    enqueued_at: Mapped[datetime | None]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    error: Mapped[str | None] = mapped_column(Text)
    summary: Mapped[str | None] = mapped_column(Text)
    # the summary's numbers by name (JobSummary.counts), for consoles that say it in their language
    summary_counts: Mapped[dict[str, str] | None] = mapped_column(JSONB)
