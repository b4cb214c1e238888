"""Usage history (issue 15): the rollup of live samples into session-minutes, the history's
points, and the idle-credits arithmetic (domain.sessions.history)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest

from domain.common.errors import InvalidValueError
from domain.inventory.ports import UsageSample
from domain.sessions import history as h
from domain.sessions.model import Expiry, Session, SessionKind, SessionState
from domain.tenancy.model import Actor, Role

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def running(since: datetime, ratio: str = "1/2") -> Session:
    return Session(
        id=uuid4(),
        name="nb",
        owner_id=uuid4(),
        organization_id=uuid4(),
        group_id=uuid4(),
        kind=SessionKind.INTERACTIVE,
        state=SessionState.RUNNING,
        image_id=uuid4(),
        image_reference="img",
        preset_id=None,
        cpu_millicores=4000,
        memory_mib=16384,
        shm_mib=64,
        disk_gib=10,
        gpu=None,
        expiry=Expiry.NONE,
        created_at=since,
        updated_at=since,
        cluster_id="c1",
        placement={"cluster_id": "c1", "node_id": "n7", "ratio": ratio, "cpu_millicores": 4000, "memory_mib": 16384},
        running_since=since,
    )


def sample(
    s: Session, at: datetime, gpu: float, cpu: int = 500, memory: int = 1000, gpu_memory: int = 2000
) -> UsageSample:
    return UsageSample(s.id, at, cpu, memory, gpu, gpu_memory)


def test_each_whole_minute_since_the_session_runs_gets_its_samples_mean_and_max() -> None:
    s = running(T0 + timedelta(seconds=30))
    samples = [
        sample(s, T0 + timedelta(seconds=40), 10.0, cpu=100),
        sample(s, T0 + timedelta(seconds=50), 30.0, cpu=300),
    ]
    samples += [sample(s, T0 + timedelta(minutes=2, seconds=i), 90.0) for i in range(3)]
    rows = h.roll_up(s, samples, T0 + timedelta(minutes=3, seconds=5))
    # the minute it started in, one without samples, one with; not the current (incomplete) minute
    assert [r.minute for r in rows] == [T0, T0 + timedelta(minutes=1), T0 + timedelta(minutes=2)]
    first, gap, third = rows
    assert (first.samples, first.gpu_util_mean, first.gpu_util_max) == (2, 20.0, 30.0)
    assert (first.cpu_millicores_mean, first.cpu_millicores_max) == (200.0, 300)
    assert (first.memory_mib_mean, first.gpu_memory_mib_max) == (1000.0, 2000)
    # a minute without samples keeps its allocation and says nothing of its use
    assert gap.samples == 0 and gap.gpu_util_mean is None and gap.cpu_millicores_mean is None
    assert gap.card_equivalents == 0.5 and gap.cpu_millicores_allocated == 4000 and gap.memory_mib_allocated == 16384
    assert (third.samples, third.gpu_util_mean) == (3, 90.0)
    assert {(r.cluster_id, r.node_id, r.organization_id, r.group_id, r.owner_id) for r in rows} == {
        ("c1", "n7", s.organization_id, s.group_id, s.owner_id)
    }


def test_a_run_looks_back_four_whole_minutes_and_an_unplaced_session_has_none() -> None:
    s = running(T0 - timedelta(hours=1), ratio="2")
    rows = h.roll_up(s, [], T0 + timedelta(seconds=59))
    assert [r.minute for r in rows] == [T0 - timedelta(minutes=m) for m in (4, 3, 2, 1)]
    assert {r.card_equivalents for r in rows} == {2.0}
    assert h.roll_up(replace(s, placement=None), [], T0) == []


def test_only_admins_reach_history_and_only_of_their_scopes() -> None:
    org, g1, g2 = uuid4(), uuid4(), uuid4()
    assert h.reach_of(Actor(uuid4(), "root", is_super_admin=True)).covers(uuid4(), uuid4())
    org_admin = h.reach_of(Actor(uuid4(), "oa", org_admin_of=frozenset({org})))
    assert org_admin.covers(org, uuid4()) and not org_admin.covers(uuid4(), g1)
    ga = h.reach_of(Actor(uuid4(), "ga", group_roles={g1: Role.GROUP_ADMIN, g2: Role.MEMBER}))
    assert ga.covers(uuid4(), g1) and not ga.covers(uuid4(), g2)
    assert h.reach_of(Actor(uuid4(), "m", group_roles={g1: Role.MEMBER})).nothing


def test_a_query_is_aligned_to_minutes_and_bounded_in_points() -> None:
    q = h.history_query(T0 + timedelta(seconds=10), T0 + timedelta(hours=1, seconds=1), h.HistoryDimension.NODE, None)
    assert (q.since, q.until, q.step_seconds) == (T0, T0 + timedelta(hours=1, minutes=1), 60)
    week = h.history_query(T0, T0 + timedelta(days=7), h.HistoryDimension.GROUP, None)
    assert week.step_seconds == 3600 and week.points == 168
    assert week.bucket_of(T0 + timedelta(minutes=125)) == T0 + timedelta(hours=2)
    with pytest.raises(InvalidValueError) as bad:
        h.history_query(T0, T0 + timedelta(days=30), h.HistoryDimension.GROUP, 60)
    assert bad.value.field == "stepSeconds"
    with pytest.raises(InvalidValueError) as odd:
        h.history_query(T0, T0 + timedelta(hours=1), h.HistoryDimension.GROUP, 90)
    assert odd.value.field == "stepSeconds"
    with pytest.raises(InvalidValueError) as backwards:
        h.history_query(T0, T0 - timedelta(hours=1), h.HistoryDimension.GROUP, None)
    assert backwards.value.field == "until"


def _cell(key: str, bucket: datetime, **kw: float) -> h.HistoryCell:
    base = dict(
        rows=10,
        sessions=2,
        card_minutes=10.0,
        sampled_card_minutes=5.0,
        gpu_util_card_minutes=250.0,
        gpu_memory_mib_minutes=5000.0,
        cpu_millicores_minutes=1000.0,
        memory_mib_minutes=20000.0,
        cpu_allocated_minutes=40000.0,
        memory_allocated_minutes=80000.0,
        no_data_minutes=5,
    )
    base.update(kw)
    return h.HistoryCell(key, bucket, **base)  # type: ignore[arg-type]


def test_points_are_means_over_the_step_and_util_over_the_sampled_cards() -> None:
    q = h.history_query(T0, T0 + timedelta(minutes=20), h.HistoryDimension.CLUSTER, 300)
    r = h.build_history(
        q,
        [_cell("c2", T0), _cell("c1", T0 + timedelta(minutes=5)), _cell("c1", T0, sampled_card_minutes=0.0)],
    )
    assert [s.key for s in r.series] == ["c1", "c2"]
    c1 = r.series[0].points
    assert [p.at for p in c1] == [T0, T0 + timedelta(minutes=5)]
    assert c1[0].gpu_util_percent is None  # no GPU minute with samples: unknown, not 0
    p = c1[1]
    assert (p.card_equivalents, p.gpu_util_percent, p.gpu_memory_mib, p.cpu_millicores) == (2.0, 50.0, 1000.0, 200.0)
    assert (p.cpu_millicores_allocated, p.memory_mib_allocated, p.no_data_minutes, p.sessions) == (
        8000.0,
        16000.0,
        5,
        2,
    )


def _share(org: UUID, group: UUID, owner: UUID, minutes: int, idle: int, charged: int) -> h.SessionIdleShare:
    return h.SessionIdleShare(uuid4(), org, group, owner, minutes, idle, minutes - idle - 1, charged)


def test_idle_credits_are_each_sessions_charges_times_its_idle_share_floored() -> None:
    assert h.idle_charged(_share(uuid4(), uuid4(), uuid4(), 3, 1, 100)) == 33
    assert h.idle_charged(_share(uuid4(), uuid4(), uuid4(), 0, 0, 100)) == 0
    org, g1, g2, u1, u2 = (uuid4() for _ in range(5))
    shares = [
        _share(org, g1, u1, 60, 30, 1_000_000),
        _share(org, g1, u2, 60, 60, 500_000),
        _share(org, g2, u1, 10, 1, 90),
        _share(uuid4(), uuid4(), uuid4(), 60, 60, 7_000_000),  # out of reach
    ]
    reach = h.HistoryReach(organization_ids=frozenset({org}))
    r = h.build_idle_credits(T0, T0 + timedelta(days=1), 5.0, h.IdleCreditsDimension.GROUP, shares, reach)
    assert [(row.key, row.sessions, row.idle_charged_micro) for row in r.rows] == [(g1, 2, 1_000_000), (g2, 1, 9)]
    assert (r.charged_micro, r.idle_charged_micro) == (1_500_090, 1_000_009)
    by_user = h.build_idle_credits(T0, T0 + timedelta(days=1), 5.0, h.IdleCreditsDimension.USER, shares, reach)
    assert {row.key: row.idle_minutes for row in by_user.rows} == {u1: 31, u2: 60}


class _Store:
    def __init__(self, samples: dict[UUID, list[UsageSample]]) -> None:
        self.samples = samples

    async def recent(self, session_id: UUID, seconds: int = 300) -> list[UsageSample]:
        return self.samples.get(session_id, [])


class _History:
    def __init__(self) -> None:
        self.rows: dict[tuple[UUID, datetime], h.UsageMinute] = {}
        self.forgot_before: datetime | None = None

    async def record(self, minutes: list[h.UsageMinute]) -> int:
        self.rows.update({(m.session_id, m.minute): m for m in minutes})
        return len(minutes)

    async def forget_before(self, before: datetime) -> int:
        self.forgot_before = before
        old = [k for k in self.rows if k[1] < before]
        for k in old:
            del self.rows[k]
        return len(old)


async def test_a_repeated_run_writes_the_same_rows_and_the_retention_deletes_the_old() -> None:
    s = running(T0)
    store = _Store({s.id: [sample(s, T0 + timedelta(seconds=i), 1.0) for i in range(0, 120, 10)]})
    hist = _History()
    old = replace(h.roll_up(s, [], T0 + timedelta(minutes=1))[0], minute=T0 - timedelta(days=91))
    await hist.record([old])
    now = T0 + timedelta(minutes=2, seconds=30)
    first = await h.record_history([s], store, hist, now, timedelta(days=90))  # type: ignore[arg-type]
    assert (first.sessions, first.minutes, first.forgotten) == (1, 2, 1)
    assert hist.forgot_before == T0 + timedelta(minutes=2) - timedelta(days=90)
    snapshot = dict(hist.rows)
    again = await h.record_history([s], store, hist, now, timedelta(days=90))  # type: ignore[arg-type]
    assert (again.minutes, again.forgotten) == (2, 0) and hist.rows == snapshot
    assert [r.samples for r in sorted(hist.rows.values(), key=lambda r: r.minute)] == [6, 6]


# ---------------------------------------------------------------------- exact numbers (issue 20)


def test_a_minute_row_carries_its_placement_and_the_exact_means_of_its_samples() -> None:
    s = running(T0, ratio="1/4")
    got = [
        UsageSample(s.id, T0 + timedelta(seconds=1), 100, 1000, 10.0, 2000),
        UsageSample(s.id, T0 + timedelta(seconds=2), 200, 1001, 20.0, 2001),
        UsageSample(s.id, T0 + timedelta(seconds=3), 201, 1003, 20.5, 2003),
    ]
    (row,) = h.roll_up(s, got, T0 + timedelta(minutes=1, seconds=3))
    assert (row.cluster_id, row.node_id, row.card_equivalents, row.samples) == ("c1", "n7", 0.25, 3)
    assert (row.cpu_millicores_allocated, row.memory_mib_allocated) == (4000, 16384)
    assert (row.gpu_util_mean, row.gpu_util_max) == (16.833, 20.5)  # 50.5 / 3, to three places
    assert (row.gpu_memory_mib_mean, row.gpu_memory_mib_max) == (2001.333, 2003)
    assert (row.cpu_millicores_mean, row.cpu_millicores_max) == (167.0, 201)
    assert (row.memory_mib_mean, row.memory_mib_max) == (1001.333, 1003)


def test_a_placement_without_cluster_node_or_ratio_gives_the_sessions_cluster_and_no_cards() -> None:
    s = replace(running(T0), placement={"cpu_millicores": 1})
    (row,) = h.roll_up(s, [], T0 + timedelta(minutes=1))
    assert (row.cluster_id, row.node_id, row.card_equivalents, row.samples, row.gpu_util_mean) == (
        "c1", "", 0.0, 0, None,
    )  # fmt: skip
    (bare,) = h.roll_up(replace(s, cluster_id=None), [], T0 + timedelta(minutes=1))
    assert bare.cluster_id == ""


def test_a_query_ends_on_the_minute_after_its_last_instant_and_picks_its_step_at_the_bounds() -> None:
    assert h.history_query(T0, T0 + timedelta(microseconds=1), h.HistoryDimension.NODE, None).until == T0 + h.MINUTE
    # exactly DEFAULT_POINTS minutes still fit one-minute steps; one more does not
    assert h.history_query(T0, T0 + timedelta(minutes=500), h.HistoryDimension.NODE, None).step_seconds == 60
    assert h.history_query(T0, T0 + timedelta(minutes=501), h.HistoryDimension.NODE, None).step_seconds == 300
    # longer than the coarsest step can show in DEFAULT_POINTS: the coarsest step
    long = h.history_query(T0, T0 + timedelta(days=600), h.HistoryDimension.NODE, None)
    assert (long.step_seconds, long.points) == (86400, 600)
    # exactly MAX_POINTS points are allowed
    assert h.history_query(T0, T0 + timedelta(minutes=h.MAX_POINTS), h.HistoryDimension.NODE, 60).points == 1500


def test_a_query_refuses_an_empty_period_and_a_bad_step_in_words() -> None:
    with pytest.raises(InvalidValueError) as empty:
        h.HistoryQuery(T0, T0, h.HistoryDimension.NODE, 60)
    assert (empty.value.field, empty.value.message) == ("until", "until must be after since")
    with pytest.raises(InvalidValueError) as step:
        h.HistoryQuery(T0, T0 + timedelta(hours=1), h.HistoryDimension.NODE, 30)
    assert step.value.message == "the step must be a whole number of minutes, at least 60"


def test_points_are_rounded_to_their_stated_places() -> None:
    q = h.history_query(T0, T0 + timedelta(minutes=10), h.HistoryDimension.CLUSTER, 300)
    cell = _cell(
        "c1",
        T0,
        card_minutes=1.23456,
        sampled_card_minutes=0.5,
        gpu_util_card_minutes=0.5 * 33.3333,
        gpu_memory_mib_minutes=1000.0 / 3,
        cpu_millicores_minutes=2000.0 / 3,
        memory_mib_minutes=4000.0 / 3,
        cpu_allocated_minutes=5000.0 / 3,
        memory_allocated_minutes=7000.0 / 3,
    )
    (series,) = h.build_history(q, [cell]).series
    (p,) = series.points
    assert (p.card_equivalents, p.gpu_util_percent) == (0.2469, 33.33)
    assert (p.gpu_memory_mib, p.cpu_millicores, p.memory_mib) == (66.7, 133.3, 266.7)
    assert (p.cpu_millicores_allocated, p.memory_mib_allocated) == (333.3, 466.7)


def test_idle_credits_at_the_edges_of_a_share() -> None:
    assert h.idle_charged(_share(uuid4(), uuid4(), uuid4(), 0, 5, 100)) == 0  # no minutes: nothing to share
    assert h.idle_charged(_share(uuid4(), uuid4(), uuid4(), 1, 1, 100)) == 100  # one idle minute of one
    org, g, u1, u2, u3 = (uuid4() for _ in range(5))
    reach = h.HistoryReach(organization_ids=frozenset({org}))
    shares = [
        _share(uuid4(), uuid4(), uuid4(), 60, 60, 7),  # out of reach, listed first: the rest still count
        _share(org, g, u1, 10, 5, 300),
        _share(org, g, u2, 10, 5, 200),
        _share(org, g, u3, 10, 0, 500),
    ]
    r = h.build_idle_credits(T0, T0 + timedelta(days=1), 5.0, h.IdleCreditsDimension.USER, shares, reach)
    # most idle credits first, then most charged, then by key
    assert [(row.key, row.idle_charged_micro, row.charged_micro) for row in r.rows] == [
        (u1, 150, 300), (u2, 100, 200), (u3, 0, 500),
    ]  # fmt: skip
    first = r.rows[0]
    assert (first.sessions, first.minutes, first.idle_minutes, first.no_data_minutes) == (1, 10, 5, 4)
    a, b = sorted((uuid4(), uuid4()), key=str)
    tie = h.build_idle_credits(
        T0, T0 + timedelta(days=1), 5.0, h.IdleCreditsDimension.USER,
        [_share(org, g, b, 10, 5, 100), _share(org, g, a, 10, 5, 100)], reach,
    )  # fmt: skip
    assert [row.key for row in tie.rows] == [a, b]


class _Cells:
    def __init__(self, cells: list[h.HistoryCell], shares: list[h.SessionIdleShare]) -> None:
        self._cells, self._shares = cells, shares
        self.asked: list[tuple[object, ...]] = []

    async def cells(self, query: h.HistoryQuery, reach: h.HistoryReach) -> list[h.HistoryCell]:
        self.asked.append(("cells", query, reach))
        return self._cells

    async def idle_shares(
        self, since: datetime, until: datetime, below_percent: float, reach: h.HistoryReach
    ) -> list[h.SessionIdleShare]:
        self.asked.append(("idle", since, until, below_percent, reach))
        return self._shares


async def test_the_history_is_read_for_the_viewers_reach_and_a_plain_member_reads_nothing() -> None:
    org = uuid4()
    q = h.history_query(T0, T0 + timedelta(minutes=10), h.HistoryDimension.CLUSTER, 300)
    store = _Cells([_cell("c1", T0)], [])
    admin = Actor(uuid4(), "oa", org_admin_of=frozenset({org}))
    got = await h.usage_history(store, admin, q)  # type: ignore[arg-type]
    assert got == h.build_history(q, [_cell("c1", T0)])
    assert store.asked == [("cells", q, h.HistoryReach(organization_ids=frozenset({org})))]
    member = Actor(uuid4(), "m", group_roles={uuid4(): Role.MEMBER})
    assert await h.usage_history(store, member, q) == h.UsageHistoryResult(q, ())  # type: ignore[arg-type]
    assert len(store.asked) == 1


async def test_the_idle_credits_report_checks_its_period_and_threshold_and_reads_the_viewers_reach() -> None:
    org, g, u = uuid4(), uuid4(), uuid4()
    shares = [_share(org, g, u, 10, 5, 300)]
    store = _Cells([], shares)
    admin = Actor(uuid4(), "oa", org_admin_of=frozenset({org}))
    until = T0 + timedelta(days=1)
    by = h.IdleCreditsDimension.GROUP
    got = await h.idle_credits_report(store, admin, T0, until, by, 100)  # type: ignore[arg-type]
    reach = h.HistoryReach(organization_ids=frozenset({org}))
    assert got == h.build_idle_credits(T0, until, 100, by, shares, reach)
    assert store.asked == [("idle", T0, until, 100, reach)]
    default = await h.idle_credits_report(store, admin, T0, until, by)  # type: ignore[arg-type]
    assert default.below_percent == h.IDLE_GPU_UTIL_PERCENT == 5.0
    member = Actor(uuid4(), "m", group_roles={g: Role.MEMBER})
    nothing = await h.idle_credits_report(store, member, T0, until, by)  # type: ignore[arg-type]
    assert (nothing.rows, nothing.charged_micro, len(store.asked)) == ((), 0, 2)
    for since, to, below, field, message in [
        (T0, T0, 5.0, "until", "until must be after since"),
        (until, T0, 5.0, "until", "until must be after since"),
        (T0, until, 0.0, "belowPercent", "a percentage above 0 and at most 100"),
        (T0, until, 100.5, "belowPercent", "a percentage above 0 and at most 100"),
    ]:
        with pytest.raises(InvalidValueError) as bad:
            await h.idle_credits_report(store, admin, since, to, by, below)  # type: ignore[arg-type]
        assert (bad.value.field, bad.value.message) == (field, message)


async def test_a_run_asks_the_store_for_its_lookback_and_writes_nothing_when_nothing_ran() -> None:
    s = running(T0)
    asked: list[int] = []

    class Store(_Store):
        async def recent(self, session_id: UUID, seconds: int = 300) -> list[UsageSample]:
            asked.append(seconds)
            return []

    hist = _History()
    out = await h.record_history([s], Store({}), hist, T0 + timedelta(minutes=2), timedelta(days=1))  # type: ignore[arg-type]
    assert asked == [(h.LOOKBACK_MINUTES + 1) * 60] == [300]
    assert (out.sessions, out.minutes) == (1, 2)
    idle = await h.record_history([], Store({}), hist, T0 + timedelta(minutes=2), timedelta(days=1))  # type: ignore[arg-type]
    assert (idle.sessions, idle.minutes) == (0, 0)
