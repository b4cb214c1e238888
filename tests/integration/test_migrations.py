"""The released schema: one Alembic head, the migrated schema equals the models, and every
revision upgrades (and downgrades) a database filled with realistic data without losing rows.

A new revision adds its own test beside these: fill at the previous head
(`database_at(previous_revision(rev))`), add the rows its change is about, upgrade to `rev`, and
check what became of them (see tests/support/migrations.py)."""

from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

import infra.db.models  # noqa: F401  (registers every table)
from infra.db import migrate
from infra.db.base import Base, make_engine
from tests.support.migrations import FILL_REVISION, database_at, revisions_in_order, row_counts


def test_there_is_exactly_one_head() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config("postgresql://unused"))
    assert len(script.get_heads()) == 1


def test_the_recorded_fill_holds_the_data_migrations_must_keep() -> None:
    db = database_at(FILL_REVISION)
    try:
        counts = asyncio.run(row_counts(db.url))
    finally:
        db.drop()
    for table in (
        "organizations",
        "users",
        "sessions",
        "session_meters",
        "credit_transfers",
        "credit_holds",
        "placements",
        "gpu_queue",
        "audit_log",
        "resource_policies",
        "credit_budgets",
    ):
        assert counts[table] > 0, table


async def _schema_diff(url: str) -> list[object]:
    engine = make_engine(url, pool_size=1)
    try:
        async with engine.connect() as conn:

            def _compare(sync_conn: Connection) -> list[object]:
                ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                return list(compare_metadata(ctx, Base.metadata))

            return await conn.run_sync(_compare)
    finally:
        await engine.dispose()


def test_the_migrated_schema_is_the_models_schema(database_url: str) -> None:
    """A model changed without a new revision (or a revision that does not match its model)."""
    assert asyncio.run(_schema_diff(database_url)) == []


@pytest.mark.parametrize("revision", revisions_in_order()[1:] or ["(none yet)"])
def test_each_revision_upgrades_a_filled_database_without_losing_rows(revision: str) -> None:
    if revision == "(none yet)":
        pytest.skip("only the initial revision exists")
    from tests.support.migrations import previous_revision

    db = database_at(previous_revision(revision))
    try:
        before = asyncio.run(row_counts(db.url))
        migrate.upgrade(db.url, revision)
        after = asyncio.run(row_counts(db.url))
        lost = {t: (n, after.get(t)) for t, n in before.items() if t in after and after[t] < n}
        assert lost == {}, f"{revision} lost rows: {lost}"
        migrate.downgrade(db.url, previous_revision(revision))
        migrate.upgrade(db.url, revision)
    finally:
        db.drop()


def test_upgrade_downgrade_upgrade_with_data_present() -> None:
    db = database_at("head")
    try:
        assert asyncio.run(migrate.current_revision(db.url)) == migrate.head_revision()
        before = asyncio.run(row_counts(db.url))
        migrate.downgrade(db.url, FILL_REVISION)
        migrate.upgrade(db.url)
        assert asyncio.run(migrate.current_revision(db.url)) == migrate.head_revision()
        after = asyncio.run(row_counts(db.url))
        assert {t: n for t, n in after.items() if t in before} == {t: n for t, n in before.items() if t in after}
        migrate.downgrade(db.url, "base")
        assert asyncio.run(migrate.current_revision(db.url)) is None
        migrate.upgrade(db.url)
    finally:
        db.drop()


def test_k8s_jobs_1_gives_stored_jobs_their_job_part_and_knows_succeeded() -> None:
    from tests.support.migrations import execute, fetch

    db = database_at("0001")
    try:
        # one more job beside the recorded fill's
        asyncio.run(
            execute(db.url, "UPDATE sessions SET kind = 'job' WHERE id = (SELECT id FROM sessions ORDER BY id LIMIT 1)")
        )
        migrate.upgrade(db.url, "k8s_jobs_1")
        rows = asyncio.run(fetch(db.url, "SELECT kind, job IS NOT NULL, job->>'backoff_limit' FROM sessions"))
        assert {(k, has) for k, has, _ in rows} <= {("job", True), ("interactive", False)}
        limits = [limit for k, _, limit in rows if k == "job"]
        assert len(limits) >= 2 and set(limits) == {"0"}
        asyncio.run(execute(db.url, "UPDATE sessions SET state = 'SUCCEEDED' WHERE kind = 'job'"))
        migrate.downgrade(db.url, "0001")
        states = asyncio.run(fetch(db.url, "SELECT DISTINCT state FROM sessions WHERE kind = 'job'"))
        assert states == [("STOPPED",)]
    finally:
        db.drop()


def test_k8s_volumes_1_gives_classes_access_modes_and_group_volumes_read_write_many() -> None:
    from tests.support.migrations import execute, fetch

    db = database_at("k8s_jobs_1")
    try:
        before = asyncio.run(fetch(db.url, "SELECT id, scope, storage_class FROM volumes"))
        assert {scope for _, scope, _ in before} == {"personal", "group"}, before
        migrate.upgrade(db.url, "k8s_volumes_1")
        after = dict(
            (i, (scope, mode, claims))
            for i, scope, mode, claims in asyncio.run(
                fetch(db.url, "SELECT id, scope, access_mode, claims::text FROM volumes")
            )
        )
        assert set(after) == {i for i, _, _ in before}
        assert {(scope, mode, claims) for scope, mode, claims in after.values()} == {
            ("personal", "ReadWriteOnce", "{}"),
            ("group", "ReadWriteMany", "{}"),
        }
        classes = dict(asyncio.run(fetch(db.url, "SELECT name, access_modes::text FROM storage_classes")))
        shared = {c for _, scope, c in before if scope == "group"}
        assert shared and all(classes[c] == '["ReadWriteOnce", "ReadWriteMany"]' for c in shared)
        assert all(m == '["ReadWriteOnce"]' for c, m in classes.items() if c not in shared)
        asyncio.run(execute(db.url, "UPDATE volumes SET access_mode = 'ReadWriteOncePod'"))
        migrate.downgrade(db.url, "k8s_jobs_1")
        columns = asyncio.run(
            fetch(db.url, "SELECT column_name FROM information_schema.columns WHERE table_name = 'volumes'")
        )
        assert {"access_mode", "claims"}.isdisjoint({c for (c,) in columns})
    finally:
        db.drop()


def test_k8s_registries_1_leaves_stored_registries_without_credentials() -> None:
    from tests.support.migrations import execute, fetch

    db = database_at("placement_1")
    try:
        # the recorded fill has no registry: two, one global and one of an organisation
        asyncio.run(
            execute(
                db.url,
                "INSERT INTO registries (id, name, url, organization_id, description, created_at) VALUES "
                "('00000000-0000-0000-0000-00000000aa01', 'ngc', 'nvcr.io', NULL, '', now()), "
                "('00000000-0000-0000-0000-00000000aa02', 'harbor', 'https://harbor.example.org', "
                "(SELECT id FROM organizations ORDER BY id LIMIT 1), '', now())",
            )
        )
        before = asyncio.run(fetch(db.url, "SELECT id, name, url FROM registries ORDER BY id"))
        assert len(before) == 2
        migrate.upgrade(db.url, "k8s_registries_1")
        after = asyncio.run(
            fetch(db.url, "SELECT id, name, url, username, password_sealed FROM registries ORDER BY id")
        )
        assert after == [(*row, None, None) for row in before]
        migrate.downgrade(db.url, "placement_1")
        assert asyncio.run(fetch(db.url, "SELECT id, name, url FROM registries ORDER BY id")) == before
    finally:
        db.drop()


def test_operations_1_keeps_stored_run_summaries_without_counts() -> None:
    from tests.support.migrations import execute, fetch

    db = database_at("simshare_1")
    try:
        asyncio.run(
            execute(
                db.url,
                "INSERT INTO periodic_runs (job, period_start, period_end, outcome, claimed_at, claimed_by, "
                "attempts, summary) VALUES ('credits.refills', '2026-12-01T10:00:00Z', '2026-12-01T10:01:00Z', "
                "'succeeded', now(), 'test', 1, '0 schedule(s) applied, 0 transfer(s)')",
            )
        )
        before = asyncio.run(fetch(db.url, "SELECT job, period_start, summary FROM periodic_runs ORDER BY 1, 2"))
        migrate.upgrade(db.url, "operations_1")
        after = asyncio.run(
            fetch(db.url, "SELECT job, period_start, summary, summary_counts FROM periodic_runs ORDER BY 1, 2")
        )
        assert after == [(*row, None) for row in before]
        migrate.downgrade(db.url, "simshare_1")
        assert (
            asyncio.run(fetch(db.url, "SELECT job, period_start, summary FROM periodic_runs ORDER BY 1, 2")) == before
        )
    finally:
        db.drop()


def test_history_1_adds_an_empty_usage_history_beside_the_kept_data() -> None:
    from tests.support.migrations import execute, fetch

    db = database_at("operations_1")
    try:
        before = asyncio.run(row_counts(db.url))
        migrate.upgrade(db.url, "history_1")
        after = asyncio.run(row_counts(db.url))
        assert after.pop("usage_minutes") == 0
        assert after == before
        # a minute of a stored running session, as the rollup writes it
        asyncio.run(
            execute(
                db.url,
                "INSERT INTO usage_minutes (session_id, minute, cluster_id, node_id, organization_id, group_id, "
                "owner_id, card_equivalents, cpu_millicores_allocated, memory_mib_allocated, samples) "
                "SELECT id, date_trunc('minute', now()), coalesce(cluster_id, ''), '', organization_id, group_id, "
                "owner_id, 1, cpu_millicores, memory_mib, 0 FROM sessions ORDER BY id LIMIT 1",
            )
        )
        assert asyncio.run(fetch(db.url, "SELECT count(*) FROM usage_minutes")) == [(1,)]
        migrate.downgrade(db.url, "operations_1")
        assert "usage_minutes" not in asyncio.run(row_counts(db.url))
        assert asyncio.run(row_counts(db.url)) == before
    finally:
        db.drop()


def test_console_1_gives_stored_sessions_an_empty_reason_code_and_keeps_their_reasons() -> None:
    from tests.support.migrations import fetch

    db = database_at("history_1")
    try:
        before = asyncio.run(fetch(db.url, "SELECT id, state, state_reason FROM sessions ORDER BY id"))
        assert before
        migrate.upgrade(db.url, "console_1")
        after = asyncio.run(
            fetch(
                db.url,
                "SELECT id, state, state_reason, state_reason_code, state_reason_params FROM sessions ORDER BY id",
            )
        )
        assert after == [(*row, "", "{}") for row in before]  # (the raw driver reads JSONB as text)
        migrate.downgrade(db.url, "history_1")
        assert asyncio.run(fetch(db.url, "SELECT id, state, state_reason FROM sessions ORDER BY id")) == before
    finally:
        db.drop()
