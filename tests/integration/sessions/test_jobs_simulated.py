"""Batch jobs on the simulated cluster (what the embedded default and the console run on): a job
runs for a while, writes a log, exits with the code its command names (`exit <n>`, else 0),
is retried up to its back-off limit, and ends SUCCEEDED or FAILED with the code and the log's
last lines; its command, arguments and back-off limit are checked before anything is written."""

from __future__ import annotations

from typing import Any

import pytest

from domain.catalog.model import GpuTier
from domain.common.errors import DomainError
from domain.inventory.model import Card, Node, SharingMode
from domain.sessions import services as sessions
from domain.sessions.model import SessionKind, SessionState
from domain.sessions.ports import SessionFilter
from tests.integration.sessions.test_admission_steps import fresh_scope
from tests.integration.sessions.test_lifecycle import wait_state
from tests.support.api import add_gpu_catalog, add_simulated_cluster, unique


@pytest.fixture
async def setup(container: Any, runtime: Any) -> Any:
    c = container
    model, cid = unique("V100-simjob"), unique("sj").lower()
    node = Node(f"{cid}-1", "n1", cid, SharingMode.EXCLUSIVE, 64000, 262144, (Card(f"GPU-{cid}-0", model, 32768),))
    cluster = await add_simulated_cluster(c, cid, (node,), start_delay=0.05, job_seconds=0.6)
    cat = await add_gpu_catalog(
        c,
        model,
        32768,
        3_600_000,
        preset={"cpu_millicores": 1000, "memory_mib": 1024, "tier": GpuTier.EXCLUSIVE, "gpu_count": 1},
    )
    sc = await fresh_scope(c)
    req = dict(image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id)
    yield c, sc, req
    await cluster.close()


async def test_a_simulated_job_succeeds_or_fails_with_its_code_and_log(setup: Any) -> None:
    c, sc, req = setup
    ok = await sessions.session_create(
        c.sessions,
        sc.actor,
        sessions.SessionRequest(name="ok", kind=SessionKind.JOB, command=("python", "train.py"), **req),
    )
    await wait_state(c, ok.id, SessionState.RUNNING)
    live = await sessions.session_log_tail(c.sessions, sc.actor, ok.id, lines=5)
    assert live.live and "python train.py" in live.text
    done = await wait_state(c, ok.id, SessionState.SUCCEEDED)
    assert done.job is not None and done.job.exit_code == 0 and done.billed_seconds >= 0
    final = await sessions.session_log_tail(c.sessions, sc.actor, ok.id, lines=2)
    assert not final.live and final.text.splitlines()[-1] == "[simulated] exited with code 0"

    bad = await sessions.session_create(
        c.sessions,
        sc.actor,
        sessions.SessionRequest(
            name="bad", kind=SessionKind.JOB, command=("sh", "-c"), args=("train; exit 3",), backoff_limit=1, **req
        ),
    )
    failed = await wait_state(c, bad.id, SessionState.FAILED, within=15)
    assert failed.job is not None and failed.job.exit_code == 3
    assert failed.state_reason.startswith("exit code 3")
    lines = failed.job.log_tail.splitlines()
    assert lines.count("[simulated] exited with code 3") == 2  # the run and its one retry
    assert (await sessions.session_log_tail(c.sessions, sc.actor, failed.id)).text.endswith("exited with code 3")


@pytest.mark.parametrize(
    ("request_fields", "field"),
    [
        ({"command": ("jupyter", "lab")}, "command"),
        ({"args": ("--port", "1")}, "args"),
        ({"backoff_limit": 1}, "backoffLimit"),
        ({"kind": SessionKind.JOB, "backoff_limit": 11}, "backoffLimit"),
        ({"kind": SessionKind.JOB, "command": ("x" * 5000,)}, "command"),
        ({"kind": SessionKind.JOB, "args": tuple("a" for _ in range(65))}, "args"),
    ],
)
async def test_a_bad_command_is_refused_naming_the_field_and_nothing_is_written(
    setup: Any, request_fields: dict[str, Any], field: str
) -> None:
    c, sc, req = setup
    with pytest.raises(DomainError) as info:
        await sessions.session_create(c.sessions, sc.actor, sessions.SessionRequest(name="x", **req, **request_fields))
    assert info.value.field == field
    async with c.uow() as uow:
        _, total = await uow.sessions.search(SessionFilter(owner_id=sc.user), 0, 10)
    assert total == 0


def test_the_simulated_exit_code_is_the_last_exit_its_command_names() -> None:
    from uuid import uuid4

    from domain.inventory.ports import WorkloadSpec
    from infra.cluster.simulated import SimulatedCluster

    def spec(*parts: str) -> WorkloadSpec:
        return WorkloadSpec(uuid4(), "u", "img", 1, 1, command=parts, is_job=True)

    assert SimulatedCluster.job_exit_code(spec("sh", "-c", "make || exit 2; exit 7")) == 7
    assert SimulatedCluster.job_exit_code(spec("python", "train.py")) == 0
    assert SimulatedCluster.job_exit_code(spec("sh", "-c", "exit 300")) == 300 % 256
