from __future__ import annotations

import strawberry

from api.context import Info
from api.operations.types import BackgroundJob
from domain.operations import catalog
from domain.operations import services as operations
from domain.operations.model import JobDefinition
from infra.periodic.runs import SqlJobRuns

# what the view lists (a test adds a job of its own here)
DEFINITIONS: tuple[JobDefinition, ...] = catalog.PERIODIC


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
            list(catalog.configured(container.settings.worker_job_periods, DEFINITIONS)),
        )
        return [BackgroundJob.of(s) for s in statuses]
