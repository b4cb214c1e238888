"""Usage history (issue 15) against PostgreSQL: the `usage.history` job rolls a running session's
minutes into `usage_minutes`, the history reads back per node and group within the viewer's
reach, and the idle-credits report joins the minutes with the ledger's charges of the session
(the rollup's arithmetic: tests/unit/sessions/test_history_unit.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any
from uuid import UUID, uuid4

from sqlalchemy import text

from domain.sessions import history as h
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from tests.integration.billing.support import charges_of
from tests.integration.sessions.test_lifecycle import catalog_for, member, wait_state
from tests.support.api import Gql, World, gid, unique
from workers import jobs

HISTORY = """
query($since: DateTime!, $until: DateTime, $by: UsageHistoryDimension!, $step: Int) {
  usageHistory(since: $since, until: $until, by: $by, stepSeconds: $step) {
    since until by stepSeconds
    series { key id name points { at sessions cardEquivalents gpuUtilPercent cpuMillicores noDataMinutes } }
  }
}"""
IDLE = """
query($since: DateTime!, $until: DateTime, $by: IdleCreditsDimension!) {
  idleCreditsReport(since: $since, until: $until, by: $by) {
    belowPercent charged { micro } idleCharged { micro }
    rows { id name sessions minutes idleMinutes noDataMinutes charged { micro } idleCharged { micro } }
  }
}"""


class _At:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


def _minute(session_id: UUID, at: datetime, org: UUID, group: UUID, owner: UUID, **kw: Any) -> h.UsageMinute:
    base: dict[str, Any] = dict(
        cluster_id="c",
        node_id="n",
        card_equivalents=1.0,
        cpu_millicores_allocated=2000,
        memory_mib_allocated=4096,
        samples=60,
        gpu_util_mean=50.0,
        gpu_util_max=60.0,
        gpu_memory_mib_mean=1000.0,
        gpu_memory_mib_max=1200,
        cpu_millicores_mean=500.0,
        cpu_millicores_max=900,
        memory_mib_mean=2048.0,
        memory_mib_max=3000,
    )
    base.update(kw)
    return h.UsageMinute(session_id, at, organization_id=org, group_id=group, owner_id=owner, **base)


async def test_history_per_node_within_reach_and_a_rewrite_replaces_its_minutes(container: Any) -> None:
    store = container.history
    org, group, owner, cluster = uuid4(), uuid4(), uuid4(), unique("hist")
    t0 = h.minute_of(container.clock.now()) - timedelta(hours=1)
    a, b = uuid4(), uuid4()
    rows = [
        _minute(a, t0 + timedelta(minutes=i), org, group, owner, cluster_id=cluster, node_id="n1") for i in range(10)
    ]
    rows += [
        _minute(b, t0 + timedelta(minutes=i), org, group, owner, cluster_id=cluster, node_id="n2", card_equivalents=0.5)
        for i in range(5)
    ]
    rows.append(
        _minute(
            b,
            t0 + timedelta(minutes=5),
            org,
            group,
            owner,
            cluster_id=cluster,
            node_id="n2",
            samples=0,
            card_equivalents=0.5,
            gpu_util_mean=None,
            gpu_memory_mib_mean=None,
            cpu_millicores_mean=None,
            memory_mib_mean=None,
        )
    )
    assert await store.record(rows) == 16
    # the same minutes again, a's now busier: replaced, not added
    assert await store.record([replace(r, gpu_util_mean=90.0) if r.session_id == a else r for r in rows]) == 16
    query = h.history_query(t0, t0 + timedelta(minutes=10), h.HistoryDimension.NODE, 600)
    reach = h.HistoryReach(organization_ids=frozenset({org}))
    result = h.build_history(query, await store.cells(query, reach))
    by_key = {s.key: s.points for s in result.series}
    assert set(by_key) == {f"{cluster}/n1", f"{cluster}/n2"}
    (n1,) = by_key[f"{cluster}/n1"]
    assert (n1.at, n1.sessions, n1.card_equivalents, n1.gpu_util_percent, n1.no_data_minutes) == (t0, 1, 1.0, 90.0, 0)
    (n2,) = by_key[f"{cluster}/n2"]
    # 6 half-card minutes over a 10-minute step; the minute without samples adds no use
    assert (n2.card_equivalents, n2.gpu_util_percent, n2.cpu_millicores, n2.no_data_minutes) == (0.3, 50.0, 250.0, 1)
    elsewhere = h.HistoryReach(organization_ids=frozenset({uuid4()}), group_ids=frozenset({uuid4()}))
    assert await store.cells(query, elsewhere) == []
    by_group = await store.cells(
        replace(query, by=h.HistoryDimension.GROUP), h.HistoryReach(group_ids=frozenset({group}))
    )
    assert [(c.key, c.rows, c.sessions) for c in by_group] == [(str(group), 16, 2)]
    assert await store.forget_before(t0 + timedelta(minutes=5)) >= 10
    left = await store.cells(query, reach)
    assert sum(c.rows for c in left) == 6


async def test_the_job_records_a_running_sessions_minutes_and_idle_credits_come_from_its_charges(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    actor, token = await member(c, world, world.g2, credits=50, prefix="hist")
    s = await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name=unique("h"), image_id=cat["image"].id, preset_id=cat["preset"].id, offering_id=cat["offering"].id
        ),
    )
    s = await wait_state(c, s.id, SessionState.RUNNING)
    ratio = float(Fraction(s.placement["ratio"]))
    m0 = h.minute_of(s.running_since)
    summary = await jobs.record_usage_history(replace(c, clock=_At(m0 + timedelta(minutes=2, seconds=1))))
    assert int(summary.counts["sessions"]) >= 1 and int(summary.counts["minutes"]) >= 2
    async with c.engine.connect() as conn:
        written = (
            await conn.execute(
                text(
                    "SELECT minute, card_equivalents, cluster_id, node_id, organization_id, group_id, owner_id "
                    "FROM usage_minutes WHERE session_id = :s ORDER BY minute"
                ),
                {"s": s.id},
            )
        ).all()
    assert [tuple(r) for r in written] == [
        (m, ratio, s.cluster_id, s.placement["node_id"], world.org_a, world.g2, actor.user_id)
        for m in (m0, m0 + timedelta(minutes=1))
    ]

    billed = await c.sessions.billing.bill(c.clock.now() + timedelta(hours=1), [s.id], close=False)
    assert billed.charged_micro > 0
    await sessions.session_stop(c.sessions, actor, s.id)
    charged = await charges_of(c.engine, actor.user_id)
    # an hour of minutes ending where the job's end: 45 idle, 10 busy, 5 without samples
    minutes = []
    for i in range(60):
        at = m0 - timedelta(minutes=58) + timedelta(minutes=i)
        kw: dict[str, Any] = {"gpu_util_mean": 1.0} if i < 45 else {"gpu_util_mean": 80.0}
        if i >= 55:
            kw = {"samples": 0, "gpu_util_mean": None}
        minutes.append(_minute(s.id, at, world.org_a, world.g2, actor.user_id, card_equivalents=ratio, **kw))
    await c.history.record(minutes)

    window = {"since": (m0 - timedelta(days=1)).isoformat(), "until": (m0 + timedelta(days=1)).isoformat()}
    admin = Gql(http, world.tokens["org_admin"])
    report = (await admin(IDLE, by="USER", **window))["idleCreditsReport"]
    row = next(r for r in report["rows"] if r["id"] == gid("User", actor.user_id))
    assert (row["name"], row["sessions"], row["minutes"], row["idleMinutes"], row["noDataMinutes"]) == (
        actor.username,
        1,
        60,
        45,
        5,
    )
    assert int(row["charged"]["micro"]) == charged and int(row["idleCharged"]["micro"]) == charged * 45 // 60
    assert report["belowPercent"] == 5.0

    series = (await admin(HISTORY, by="GROUP", step=3600, **window))["usageHistory"]["series"]
    g2 = next(x for x in series if x["id"] == gid("Group", world.g2))
    assert g2["name"] == "G2" and g2["key"] == str(world.g2)
    assert sum(p["noDataMinutes"] for p in g2["points"]) >= 5
    # a member sees nothing; another organisation's admin sees none of it
    mine = await Gql(http, token)(HISTORY, by="GROUP", step=3600, **window)
    assert mine["usageHistory"]["series"] == []
    assert (await Gql(http, token)(IDLE, by="GROUP", **window))["idleCreditsReport"]["rows"] == []
    foreign = Gql(http, world.tokens["foreign_admin"])
    theirs = (await foreign(HISTORY, by="GROUP", step=3600, **window))["usageHistory"]["series"]
    assert all(x["id"] != gid("Group", world.g2) for x in theirs)
    their_rows = (await foreign(IDLE, by="GROUP", **window))["idleCreditsReport"]["rows"]
    assert all(r["id"] != gid("Group", world.g2) for r in their_rows)
    refused = await admin.raw(HISTORY, by="GROUP", step=90, **window)
    assert refused["data"] is None
    assert [(e["extensions"]["code"], e["extensions"]["field"]) for e in refused["errors"]] == [
        ("INVALID_VALUE", "stepSeconds")
    ]
