"""One metering tick over many RUNNING sessions against PostgreSQL, beside a bare UPDATE.

    python -m tests.bench.metering [--sizes 10000,25000,50000,100000] [--rounds 3]

Server: GSHARE_BENCH_DATABASE_URL, else GSHARE_TEST_DATABASE_URL (else an embedded server).
For each size a scratch database (dropped at the end) is seeded with that many RUNNING GPU
sessions (two per user, ten organisations), each with an open one-hour hold on a funded
wallet. Then, alternately, `rounds` times:

- the bare update: one statement, `UPDATE sessions SET billed_seconds = billed_seconds + 1
  WHERE state = 'RUNNING' AND gpu IS NOT NULL` (one number in each of the rows a tick bills);
- one tick: `SqlBilling.bill(now, None, close=False)` one minute later each time, the
  production path (lock sessions with their meters, wallets and holds; insert one charge
  transfer per session with its key; renew every hold; update wallets, consumption accounts
  and the sessions' meters; commit). A tick does not write the sessions rows themselves:
  what a session has been charged lives in a narrow table of its own (`session_meters`).

Each is preceded by VACUUM ANALYZE so that both start from the same table state. Printed:
the median times, their ratio (target ≤ 3, judged at the largest size), and per size the
tick's and the bare UPDATE's time per session (linear growth keeps them flat). When the
server runs on this machine, also the CPU time its backends spent on each (from /proc): on a
shared machine it varies less than wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

C = 1_000_000
RATE = 1_000_007
ORGS = 10
BARE_UPDATE = "UPDATE sessions SET billed_seconds = billed_seconds + 1 WHERE state = 'RUNNING' AND gpu IS NOT NULL"
# the writes any exact tick must make (each alone, as one bare statement): each session's
# meter, one charge transfer per session (with the table's indexes and its reference check),
# each hold, each wallet
FLOOR = {
    "update meters": "UPDATE session_meters SET charged_micro = charged_micro + 1",
    "insert transfers": (
        "INSERT INTO credit_transfers (id, idempotency_key, kind, source_account_id, destination_account_id, "
        "amount_micro, created_at, organization_id, group_id, user_id, hold_id, memo) "
        "SELECT gen_random_uuid(), 'floor:' || s.id, 'charge', h.account_id, c.id, 1, now(), "
        "s.organization_id, s.group_id, s.owner_id, s.hold_id, '' "
        "FROM sessions s JOIN credit_holds h ON h.id = s.hold_id "
        "JOIN credit_accounts c ON c.kind = 'consumption' AND c.organization_id = s.organization_id "
        "WHERE s.state = 'RUNNING'"
    ),
    "update holds": "UPDATE credit_holds SET charged_micro = charged_micro + 1, updated_at = now() WHERE status = 'open'",
    "update wallets": "UPDATE credit_accounts SET balance_micro = balance_micro + 1 WHERE kind = 'user'",
}


def _server_url() -> str | None:
    url = os.environ.get("GSHARE_BENCH_DATABASE_URL") or os.environ.get("GSHARE_TEST_DATABASE_URL")
    if url:
        os.environ["GSHARE_TEST_DATABASE_URL"] = url  # tests.support.database reads this one
    return url


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def processes_cpu(pids: list[int]) -> float | None:
    """User + system CPU seconds of these processes (Linux /proc); None when unreadable."""
    total = 0.0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return total


async def backends_cpu(admin: Any) -> float | None:
    """CPU seconds of every backend of the bench database (a server on this machine)."""
    pids = [r[0] for r in await admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")]
    return processes_cpu(pids)


async def seed(url: str, sessions: int, t0: datetime) -> None:
    import asyncpg

    from domain.credits.model import AccountRef

    users = [uuid.uuid4() for _ in range(max(1, sessions // 2))]
    orgs = [uuid.uuid4() for _ in range(ORGS)]
    groups = [uuid.uuid4() for _ in range(ORGS)]
    image, offering = uuid.uuid4(), uuid.uuid4()
    wallet_credit = 1000 * C
    conn = await asyncpg.connect(_plain(url))
    try:
        async with conn.transaction():
            await conn.execute(
                "INSERT INTO organizations (id, name, slug, description) "
                "SELECT o, o::text, o::text, '' FROM unnest($1::uuid[]) o",
                orgs,
            )
            await conn.execute(
                "INSERT INTO groups (id, organization_id, name, description, is_default) "
                "SELECT g, o, 'bench', '', false FROM unnest($1::uuid[], $2::uuid[]) AS x(g, o)",
                groups,
                orgs,
            )
            await conn.execute(
                "INSERT INTO users (id, username, email, display_name, is_super_admin, is_active) "
                "SELECT u, u::text, u::text || '@bench.example', 'bench', false, true FROM unnest($1::uuid[]) u",
                users,
            )
            await conn.execute(
                "INSERT INTO images (id, name, reference, scope, description) "
                "VALUES ($1, 'bench', 'bench:latest', 'global', '')",
                image,
            )
            await conn.execute(
                "INSERT INTO offerings (id, vendor, name, vram_mib, cores, min_cuda, hourly_rate_micro, "
                "resource_name, description, enabled) "
                "VALUES ($1, 'NVIDIA', 'A100-80GB', 81920, 100, '11.0', $2, 'nvidia.com/gpu', '', true)",
                offering,
                RATE,
            )
            await conn.execute(
                "INSERT INTO credit_accounts (id, kind, user_id, balance_micro) "
                "SELECT w, 'user', u, $3 FROM unnest($1::uuid[], $2::uuid[]) AS x(w, u)",
                [AccountRef.user(u).id for u in users],
                users,
                wallet_credit,
            )
            await conn.execute(
                "INSERT INTO credit_accounts (id, kind, balance_micro) VALUES ($1, 'system', $2)",
                AccountRef.system().id,
                -wallet_credit * len(users),
            )
            gpu = json.dumps(
                {
                    "offering_id": str(offering),
                    "offering_name": "A100-80GB",
                    "vram_mib": 20480,
                    "cores": 25,
                    "cards": 1,
                    "exclusive": False,
                    "shared": False,
                    "ratio": "1/4",
                    "hourly_rate_micro": RATE,
                    "forced_kind": None,
                }
            )
            await conn.execute(
                """
                INSERT INTO sessions (id, name, owner_id, organization_id, group_id, kind, state, state_reason,
                    image_id, image_reference, offering_id, cpu_millicores, memory_mib, shm_mib, disk_gib, gpu,
                    expiry, priority, preemptible, env, mounts, hold_seq, running_since, billed_seconds,
                    endpoints, version, created_at, updated_at, started_at)
                SELECT gen_random_uuid(), 'bench-' || i, ($1::uuid[])[1 + i % cardinality($1::uuid[])],
                       ($2::uuid[])[1 + i % $4], ($3::uuid[])[1 + i % $4], 'interactive', 'RUNNING', 'running',
                       $5, 'bench:latest', $6, 1000, 2048, 256, 10, $7::jsonb,
                       'none', 0, false, '{}', '[]', 1, $8, 0, '{}', 0, $8, $8, $8
                FROM generate_series(0, $9 - 1) i
                """,
                users,
                orgs,
                groups,
                ORGS,
                image,
                offering,
                gpu,
                t0 - timedelta(minutes=10),
                sessions,
            )
            hold = RATE // 4  # one hour of a quarter card
            await conn.execute(
                """
                INSERT INTO credit_holds (id, idempotency_key, account_id, user_id, amount_micro, reserved_micro,
                    charged_micro, status, organization_id, group_id, memo, created_at, updated_at)
                SELECT gen_random_uuid(), 'bench-hold-' || s.id, a.id, s.owner_id, $1, $1, 0, 'open',
                       s.organization_id, s.group_id, '', $2, $2
                FROM sessions s JOIN credit_accounts a ON a.kind = 'user' AND a.user_id = s.owner_id
                """,
                hold,
                t0,
            )
            await conn.execute(
                "UPDATE sessions s SET hold_id = h.id FROM credit_holds h WHERE h.idempotency_key = 'bench-hold-' || s.id"
            )
            await conn.execute(
                "UPDATE credit_accounts a SET held_micro = x.held FROM "
                "(SELECT account_id, sum(amount_micro) AS held FROM credit_holds GROUP BY account_id) x "
                "WHERE a.id = x.account_id"
            )
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


async def measure(
    url: str, sessions: int, rounds: int
) -> tuple[list[float], list[float], dict[str, float], list[float], list[float]]:
    import asyncpg

    from infra.billing.sql import SqlBilling
    from infra.db.base import make_engine

    t0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    await seed(url, sessions, t0)
    engine = make_engine(url, pool_size=2)
    billing = SqlBilling(engine)
    admin = await asyncpg.connect(_plain(url))
    bare: list[float] = []
    ticks: list[float] = []
    bare_cpu: list[float] = []  # server CPU seconds, when readable
    tick_cpu: list[float] = []
    try:
        now = t0
        warm = await billing.bill(now, None, close=False)  # opens the consumption accounts
        assert warm.transfers == sessions, warm
        for _ in range(rounds):
            await admin.execute("VACUUM ANALYZE")
            cpu = await backends_cpu(admin)
            started = time.perf_counter()
            status = await admin.execute(BARE_UPDATE)
            bare.append(time.perf_counter() - started)
            after = await backends_cpu(admin)
            if cpu is not None and after is not None:
                bare_cpu.append(after - cpu)
            assert status == f"UPDATE {sessions}", status
            await admin.execute("VACUUM ANALYZE")
            now += timedelta(minutes=1)
            cpu = await backends_cpu(admin)
            started = time.perf_counter()
            result = await billing.bill(now, None, close=False)
            ticks.append(time.perf_counter() - started)
            after = await backends_cpu(admin)
            if cpu is not None and after is not None:
                tick_cpu.append(after - cpu)
            assert result.sessions == sessions and result.transfers == sessions, result
        held = await admin.fetchval("SELECT sum(held_micro) FROM credit_accounts")
        open_holds = await admin.fetchval("SELECT sum(amount_micro) FROM credit_holds WHERE status = 'open'")
        total = await admin.fetchval("SELECT sum(balance_micro) FROM credit_accounts")
        assert held == open_holds and total == 0, (held, open_holds, total)
        floor: dict[str, float] = {}
        for name, sql in FLOOR.items():  # last: these writes are not balanced transfers
            await admin.execute("VACUUM ANALYZE")
            started = time.perf_counter()
            await admin.execute(sql)
            floor[name] = time.perf_counter() - started
    finally:
        await admin.close()
        await engine.dispose()
    return bare, ticks, floor, bare_cpu, tick_cpu


def run_size(sessions: int, rounds: int) -> tuple[float, float]:
    from tests.support.database import create_test_database

    db = create_test_database(prefix="gshare_bench_meter", durable=True)
    try:
        bare, ticks, floor, bare_cpu, tick_cpu = asyncio.run(measure(db.url, sessions, rounds))
    finally:
        db.drop()
    b, t = statistics.median(bare), statistics.median(ticks)
    print(
        f"{sessions:>7} sessions: bare UPDATE {b * 1000:8.1f} ms, one tick {t * 1000:8.1f} ms, "
        f"ratio {t / b:4.2f}  (tick {t / sessions * 1e6:5.2f} µs/session; "
        f"rounds: bare {[round(x * 1000) for x in bare]} ms, tick {[round(x * 1000) for x in ticks]} ms)",
        flush=True,
    )
    if bare_cpu and tick_cpu:
        bc, tc = statistics.median(bare_cpu), statistics.median(tick_cpu)
        print(
            f"{'':>7}  server CPU (its backends, /proc): bare UPDATE {bc * 1000:.0f} ms, one tick {tc * 1000:.0f} ms, "
            f"ratio {tc / bc:4.2f}",
            flush=True,
        )
    parts = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in floor.items())
    least = sum(floor.values())
    print(
        f"{'':>7}  the writes a tick cannot avoid, each as one bare statement: {parts}; "
        f"together {least * 1000:.0f} ms = {least / b:.2f} × the bare UPDATE (the tick is {t / least:.2f} × that)",
        flush=True,
    )
    return b, t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--sizes",
        default="10000,25000,50000,100000",
        help="comma-separated session counts, ascending; the ratio target is judged at the largest",
    )
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sizes = sorted(int(n) for n in args.sizes.split(","))
    _server_url()
    measured = [(n, *run_size(n, args.rounds)) for n in sizes]
    print("per session, by size (linear growth keeps both columns flat):")
    for n, bare, tick in measured:
        print(
            f"  {n:>7}: tick {tick / n * 1e6:6.2f} µs, bare UPDATE {bare / n * 1e6:6.2f} µs, ratio {tick / bare:4.2f}"
        )
    (small, _, small_tick), (big, big_bare, big_tick) = measured[0], measured[-1]
    print(
        f"tick at {big} vs {small} sessions: ×{big_tick / small_tick:.1f} for ×{big / small:.0f} the sessions "
        "(a step where the tables outgrow the server's shared_buffers shows in the bare UPDATE as well)"
    )
    print(f"ratio tick / bare UPDATE at {big}: {big_tick / big_bare:.2f} (target ≤ 3)")


if __name__ == "__main__":
    main()
