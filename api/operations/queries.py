from __future__ import annotations

import strawberry

from api.context import Info
from api.operations.types import BackgroundJob
from domain.operations import services as operations
from infra.periodic.runs import SqlJobRuns
from workers.registry import configured_jobs


@strawberry.type
class OperationsQuery:
    @strawberry.field(description="Every periodic background job with its last run and next due time (super_admin).")
    async def background_jobs(self, info: Info) -> list[BackgroundJob]:
        actor = info.context.require_actor()
        container = info.context.container
        statuses = await operations.job_statuses(
            actor,
            SqlJobRuns(container.engine),
            container.clock,
            [j.definition for j in configured_jobs(container.settings.worker_job_periods)],
        )
        return [BackgroundJob.of(s) for s in statuses]
