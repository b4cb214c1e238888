"""Batch jobs on Kubernetes, end to end: sessionCreate(kind: JOB, command, args) → a GShareSession
with `job` → the operator's pod with `restartPolicy: Never` → the test kubelet really runs the
command → exit 0 ends SUCCEEDED and billed for its seconds; exit 3 is retried up to the
back-off limit and ends FAILED with the code; the last log lines are readable through the API
by whoever may see the job; a preempted job's pod is deleted and the job re-queued."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from strawberry import relay

from domain.credits.model import AccountRef
from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.support.api import Gql, World, gid

CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""
JOB = """
query($id: ID!) {
  node(id: $id) {
    ... on Session {
      state stateReason kind command args backoffLimit exitCode runningSeconds
      env { name value }
      logTail(lines: 20) { lines live reason }
    }
  }
}"""
EXCLUSIVE_RATE_PER_SECOND = 2 * 1000  # two whole cards at 3.6 credits an hour each, in micro-credits


async def _job(gql: Gql, cat: Any, e2e: E2ECluster, name: str, command: list[str], **extra: Any) -> UUID:
    data = await gql(
        CREATE,
        input={
            "name": name,
            "kind": "JOB",
            "imageId": gid("Image", cat.image.id),
            "presetId": gid("Preset", cat.presets["exclusive"].id),
            "offeringId": gid("Offering", cat.offerings["exclusive"].id),
            "clusterId": e2e.id,
            "command": command,
            **extra,
        },
    )
    created = data["sessionCreate"]
    assert created["errors"] == [], created["errors"]
    return UUID(relay.GlobalID.from_id(created["session"]["id"]).node_id)


async def _member(c: Any, world: World, cp_http: Any) -> tuple[Any, Gql]:
    actor, token = await funded_member(c, world, credits_=1000)
    gql = Gql(cp_http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )
    return actor, gql


async def test_a_job_runs_to_completion_or_fails_with_its_exit_code(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any
) -> None:
    c = container
    await e2e.start_operator()
    cat = await e2e_catalog(c)
    actor, gql = await _member(c, world, cp_http)
    _, stranger = await _member(c, world, cp_http)

    ok = await _job(
        gql,
        cat,
        e2e,
        "train-ok",
        ["sh", "-c"],
        args=['echo "epoch 1 loss=$LOSS"; sleep 1.2; echo done'],
        env=[{"name": "LOSS", "value": "0.42"}],
    )
    await eventually(lambda: e2e.api.get("pods", f"s-{ok}", NS), within=10, message="job pod")
    pod = e2e.api.get("pods", f"s-{ok}", NS)
    assert pod["spec"]["restartPolicy"] == "Never"
    assert pod["spec"]["containers"][0]["command"] == ["sh", "-c"]
    assert "ports" not in pod["spec"]["containers"][0]  # a job has no endpoints

    done = await wait_state(c, ok, SessionState.SUCCEEDED, within=20)
    assert done.job is not None and done.job.exit_code == 0
    # billed for the seconds it ran, at the exclusive rate (settled after the report)
    assert done.billed_seconds >= 1

    async def settled() -> Any:
        s = await wait_state(c, ok, SessionState.SUCCEEDED)
        return s if s.charged_micro == s.billed_seconds * EXCLUSIVE_RATE_PER_SECOND else None

    await eventually(settled, within=10, message="the job's seconds charged")
    view = (await gql(JOB, id=gid("Session", ok)))["node"]
    assert view["state"] == "SUCCEEDED" and view["exitCode"] == 0 and view["kind"] == "JOB"
    assert view["command"] == ["sh", "-c"] and view["backoffLimit"] == 0
    assert view["env"] == [{"name": "LOSS", "value": "0.42"}]
    assert view["logTail"] == {"lines": ["epoch 1 loss=0.42", "done"], "live": False, "reason": None}
    # the finished job's resource and pod are gone; what it printed stays readable
    await eventually(lambda: e2e.api.get("gsharesessions", f"s-{ok}", NS) is None, within=10)
    # whoever may not see the job does not see its log either
    assert (await stranger(JOB, id=gid("Session", ok)))["node"] is None

    failing = await _job(gql, cat, e2e, "train-fails", ["sh", "-c", "echo 'loading data'; exit 3"], backoffLimit=1)
    failed = await wait_state(c, failing, SessionState.FAILED, within=20)
    assert failed.job is not None and failed.job.exit_code == 3
    assert failed.state_reason.startswith("exit code 3")
    assert kubelet.exit_codes[f"s-{failing}"] == 3
    view = (await gql(JOB, id=gid("Session", failing)))["node"]
    assert view["state"] == "FAILED" and view["exitCode"] == 3 and view["backoffLimit"] == 1
    assert view["logTail"]["lines"] == ["loading data"]
    await eventually(lambda: e2e.api.get("gsharesessions", f"s-{failing}", NS) is None, within=10)

    b = (await c.credits.ledger.balances([AccountRef.user(actor.user_id)]))[AccountRef.user(actor.user_id)]
    assert b.held_micro == 0


async def test_a_job_is_retried_up_to_its_back_off_limit(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any
) -> None:
    c = container
    operator = await e2e.start_operator()
    cat = await e2e_catalog(c)
    _, gql = await _member(c, world, cp_http)
    runs: list[str] = []
    original = kubelet.mark_terminated

    async def counting(name: str, exit_code: int, started: str, reason: str | None = None) -> None:
        runs.append(name)
        await original(name, exit_code, started, reason)

    kubelet.mark_terminated = counting  # type: ignore[method-assign]
    job = await _job(gql, cat, e2e, "flaky", ["sh", "-c", "exit 2"], backoffLimit=2)
    await wait_state(c, job, SessionState.FAILED, within=30)
    assert runs == [f"s-{job}"] * 3  # the first run and two retries
    await operator.controller.wait_idle()


async def test_a_preempted_job_is_requeued(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any
) -> None:
    c = container
    await e2e.start_operator()
    cat = await e2e_catalog(c)
    _, gql = await _member(c, world, cp_http)
    # two long jobs take the exclusive node's four cards
    jobs = [await _job(gql, cat, e2e, f"long-{i}", ["sh", "-c", "sleep 30"]) for i in range(2)]
    for job in jobs:
        await wait_state(c, job, SessionState.RUNNING, within=15)
    data = await gql(
        CREATE,
        input={
            "name": "interactive",
            "imageId": gid("Image", cat.image.id),
            "presetId": gid("Preset", cat.presets["exclusive"].id),
            "offeringId": gid("Offering", cat.offerings["exclusive"].id),
            "clusterId": e2e.id,
        },
    )
    assert data["sessionCreate"]["errors"] == []
    sid = UUID(relay.GlobalID.from_id(data["sessionCreate"]["session"]["id"]).node_id)
    await wait_state(c, sid, SessionState.RUNNING, within=20)

    async def states() -> list[SessionState]:
        async with c.uow() as uow:
            return [(await uow.sessions.get(j)).state for j in jobs]  # type: ignore[union-attr]

    async def one_requeued() -> bool:
        return SessionState.QUEUED in await states()

    await eventually(one_requeued, within=15, message="a job preempted and re-queued")
    preempted = [j for j, s in zip(jobs, await states(), strict=True) if s is SessionState.QUEUED]
    assert len(preempted) == 1, await states()
    # its pod was deleted (and its run with it); it waits in the queue to run again
    await eventually(lambda: e2e.api.get("pods", f"s-{preempted[0]}", NS) is None, within=10)
    assert (await gql(JOB, id=gid("Session", preempted[0])))["node"]["state"] == "QUEUED"
    for s in (*jobs, sid):
        await gql("mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code } } }", id=gid("Session", s))
