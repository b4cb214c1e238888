"""Alembic environment: async engine, whole metadata, one transaction per migration."""

from __future__ import annotations

import asyncio

from alembic import context
from alembic.operations import ops
from sqlalchemy.engine import Connection

import infra.db.models  # noqa: F401  (registers every table on Base.metadata)
from infra.db.base import Base, make_engine

config = context.config
target_metadata = Base.metadata


def _extra_ddl(context_: object, revision: object, directives: list[ops.MigrationScript]) -> None:
    """Autogenerate cannot see triggers; tables declare them in `info` and we emit them:
    `info={"append_only": True}` refuses UPDATE/DELETE/TRUNCATE on the table;
    `info={"ddl": [(upgrade_sql, downgrade_sql), ...]}` adds arbitrary statements."""
    if not directives or not config.attributes.get("emit_declared_ddl"):
        return  # only `python -m infra.db.regen_initial` writes the whole schema
    script = directives[0]
    up, down = script.upgrade_ops, script.downgrade_ops
    assert up is not None and down is not None
    statements: list[tuple[str, str]] = [
        (
            "CREATE OR REPLACE FUNCTION gshare_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'P0001'; END $$",
            "DROP FUNCTION IF EXISTS gshare_refuse_change()",
        )
    ]
    for table in target_metadata.sorted_tables:
        if table.info.get("append_only"):
            statements.append(
                (
                    f"CREATE TRIGGER {table.name}_append_only BEFORE UPDATE OR DELETE ON {table.name} "
                    "FOR EACH ROW EXECUTE FUNCTION gshare_refuse_change()",
                    f"DROP TRIGGER IF EXISTS {table.name}_append_only ON {table.name}",
                )
            )
            statements.append(
                (
                    f"CREATE TRIGGER {table.name}_no_truncate BEFORE TRUNCATE ON {table.name} "
                    "FOR EACH STATEMENT EXECUTE FUNCTION gshare_refuse_change()",
                    f"DROP TRIGGER IF EXISTS {table.name}_no_truncate ON {table.name}",
                )
            )
        statements.extend(table.info.get("ddl", []))
    up.ops.extend(ops.ExecuteSQLOp(u) for u, _ in statements)
    down.ops[:0] = [ops.ExecuteSQLOp(d) for _, d in reversed(statements)]


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        transaction_per_migration=True,
        compare_type=True,
        process_revision_directives=_extra_ddl,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _main() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "", pool_size=1)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run against a database")

connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    asyncio.run(_main())
