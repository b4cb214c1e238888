"""Ledger throughput against PostgreSQL, beside pgbench TPC-B on the same server.

    python -m tests.bench.ledger [--clients 32] [--seconds 10] [--rounds 3] [--scale 32]
                                 [--processes 1] [--use-cases]

Server: GSHARE_BENCH_DATABASE_URL, else GSHARE_TEST_DATABASE_URL (else an embedded server).
Both runs get scratch databases that are dropped at the end. The ledger run posts transfers
through `SqlLedger.post` (the production hot path: lock both accounts in id order, insert the
transfer and move both balances, commit) with `--clients` concurrent clients over 32
organisations × 1 group × 50 members: 50 % allocations group → member, 25 % take-backs
member → group, 25 % charges member → the organisation's consumption sink. pgbench runs
TPC-B with the same number of clients, scale `--scale` (pgbench's guidance: scale ≥ clients,
so that it measures the server rather than contention on one branch row). Rounds alternate
ledger and pgbench runs (the machine may be shared) and the median ratio is printed.
`--use-cases` posts through `allocate` / `take_back` / `charge_wallet` instead, which adds the
authorisation look-up (one tenancy query per allocation or take-back).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import time
import uuid
from urllib.parse import urlsplit

ORGS = 32
MEMBERS = 50
C = 1_000_000


def _server_url() -> str | None:
    url = os.environ.get("GSHARE_BENCH_DATABASE_URL") or os.environ.get("GSHARE_TEST_DATABASE_URL")
    if url:
        os.environ["GSHARE_TEST_DATABASE_URL"] = url  # tests.support.database reads this one
    return url


async def _seed(url: str) -> list[tuple[uuid.UUID, uuid.UUID, list[uuid.UUID]]]:
    from sqlalchemy import Table
    from sqlalchemy.ext.asyncio import AsyncEngine

    from domain.common.clock import SystemClock
    from domain.credits.model import AccountRef, TransferKind, TransferRequest
    from infra.credits.sql import SqlLedger
    from infra.db.base import make_engine
    from infra.db.models.tenancy import GroupRow, MembershipRow, OrganizationRow, UserRow

    engine: AsyncEngine = make_engine(url, pool_size=2)
    world = [(uuid.uuid4(), uuid.uuid4(), [uuid.uuid4() for _ in range(MEMBERS)]) for _ in range(ORGS)]
    tables = [OrganizationRow.__table__, GroupRow.__table__, UserRow.__table__, MembershipRow.__table__]
    o, g, u, m = (t for t in tables if isinstance(t, Table))
    async with engine.begin() as conn:
        await conn.execute(o.insert(), [{"id": org, "name": org.hex, "slug": org.hex} for org, _, _ in world])
        await conn.execute(g.insert(), [{"id": grp, "organization_id": org, "name": "g"} for org, grp, _ in world])
        users = [(org, grp, user) for org, grp, us in world for user in us]
        await conn.execute(
            u.insert(),
            [{"id": x, "username": x.hex, "email": f"{x.hex}@b.example", "display_name": "b"} for *_, x in users],
        )
        await conn.execute(
            m.insert(),
            [{"user_id": x, "group_id": grp, "organization_id": org, "role": "member"} for org, grp, x in users],
        )
    ledger, now = SqlLedger(engine), SystemClock().now()

    def request(src: AccountRef, dst: AccountRef, amount: int) -> TransferRequest:
        return TransferRequest(uuid.uuid4(), f"seed-{uuid.uuid4()}", TransferKind.ALLOCATION, src, dst, amount, now)

    for org, grp, members in world:
        await ledger.post(request(AccountRef.system(), AccountRef.organization(org), 10**7 * C))
        await ledger.post(request(AccountRef.organization(org), AccountRef.group(grp), 10**6 * C))
        await ledger.post_many([request(AccountRef.group(grp), AccountRef.user(x), 1000 * C) for x in members])
    await engine.dispose()
    return world


async def _clients(
    url: str,
    world: list[tuple[uuid.UUID, uuid.UUID, list[uuid.UUID]]],
    clients: int,
    seconds: float,
    seed: int,
    use_cases: bool = False,
) -> tuple[int, int, int, float]:
    from domain.common.clock import SystemClock, UuidGenerator
    from domain.common.errors import DomainError
    from domain.credits import services as svc
    from domain.credits.model import AccountRef, Attribution, TransferKind, TransferRequest
    from domain.policies.model import ScopeChain
    from domain.tenancy.model import Actor
    from infra.credits.directory import SqlDirectory
    from infra.credits.sql import SqlLedger, make_ledger_engine

    engine = make_ledger_engine(url, pool_size=clients, max_overflow=0)
    ledger = SqlLedger(engine)
    directory, clock, ids = SqlDirectory(engine), SystemClock(), UuidGenerator()
    admin = Actor(uuid.uuid4(), "bench", is_super_admin=True)
    rng = random.Random(seed)
    done = refused = 0
    deadline = time.perf_counter() + seconds
    prefix = uuid.uuid4().hex[:8]

    async def client(n: int) -> None:
        nonlocal done, refused
        i = 0
        while time.perf_counter() < deadline:
            org, grp, members = rng.choice(world)
            user = rng.choice(members)
            wallet, group = AccountRef.user(user), AccountRef.group(grp)
            key, now, roll = f"{prefix}-{n}-{i}", datetime_now(), rng.random()
            i += 1
            if use_cases:  # through the use cases: authorisation reads the tenancy tables
                try:
                    if roll < 0.5:
                        await svc.allocate(
                            admin,
                            ledger,
                            directory,
                            clock,
                            ids,
                            source=group,
                            destination=wallet,
                            amount_micro=C,
                            idempotency_key=key,
                        )
                    elif roll < 0.75:
                        await svc.take_back(
                            admin,
                            ledger,
                            directory,
                            clock,
                            ids,
                            source=wallet,
                            destination=group,
                            amount_micro=C,
                            idempotency_key=key,
                        )
                    else:
                        await svc.charge_wallet(
                            ledger,
                            clock,
                            ids,
                            wallet=wallet,
                            chain=ScopeChain(user, grp, org),
                            amount_micro=C // 2,
                            idempotency_key=key,
                        )
                    done += 1
                except DomainError:
                    refused += 1
                continue
            if roll < 0.5:
                r = TransferRequest(uuid.uuid4(), key, TransferKind.ALLOCATION, group, wallet, C, now)
            elif roll < 0.75:
                r = TransferRequest(uuid.uuid4(), key, TransferKind.TAKE_BACK, wallet, group, C, now)
            else:
                r = TransferRequest(
                    uuid.uuid4(),
                    key,
                    TransferKind.CHARGE,
                    wallet,
                    AccountRef.consumption(org),
                    C // 2,
                    now,
                    attribution=Attribution(org, grp, user),
                )
            try:
                await ledger.post(r)
                done += 1
            except DomainError:
                refused += 1

    # warm the pool so connection set-up is not measured (pgbench excludes it too)
    async def warm() -> None:
        async with engine.connect():
            await asyncio.sleep(0.05)

    await asyncio.gather(*(warm() for _ in range(clients)))
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(client(n) for n in range(clients)))
    elapsed = time.perf_counter() - started
    retries = ledger.tx.retries
    await engine.dispose()
    return done, refused, retries, elapsed


def datetime_now():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    return datetime.now(UTC)


def _process_main(args: tuple[str, list, int, float, int, bool], out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(asyncio.run(_clients(*args)))


def run_ledger(
    url: str,
    world: list,  # type: ignore[type-arg]
    clients: int,
    seconds: float,
    processes: int,
    seed: int,
    use_cases: bool,
) -> tuple[float, int, int, int]:
    """(transfers/s, posted, refused, retried) for one timed run."""
    if processes == 1:
        done, refused, retries, elapsed = asyncio.run(_clients(url, world, clients, seconds, seed, use_cases))
    else:
        per = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
        ctx = multiprocessing.get_context("spawn")
        out: multiprocessing.Queue = ctx.Queue()  # type: ignore[type-arg]
        procs = [
            ctx.Process(target=_process_main, args=((url, world, n, seconds, seed * 100 + i, use_cases), out))
            for i, n in enumerate(per)
        ]
        for p in procs:
            p.start()
        results = [out.get() for _ in procs]
        for p in procs:
            p.join()
        done, refused, retries = (sum(r[k] for r in results) for k in range(3))
        elapsed = max(r[3] for r in results)
    return done / elapsed, done, refused, retries


async def _verify(url: str) -> None:
    from infra.credits.sql import SqlLedger
    from infra.db.base import make_engine

    engine = make_engine(url, pool_size=1)
    try:
        assert await SqlLedger(engine).total() == 0, "the ledger does not sum to zero"
    finally:
        await engine.dispose()


class PgBench:
    """A scratch database initialised with `pgbench -i`, then timed TPC-B runs against it."""

    def __init__(self, server_url: str, scale: int) -> None:
        from tests.support.database import TestDatabase, _admin, _with_database

        pgbench = shutil.which("pgbench")
        if pgbench is None:
            raise SystemExit("pgbench not found on PATH")
        self.pgbench = pgbench
        name = f"gshare_pgbench_{uuid.uuid4().hex[:10]}"
        asyncio.run(_admin(server_url, f'CREATE DATABASE "{name}"'))
        self.db = TestDatabase(_with_database(server_url, name), server_url, name)
        parts = urlsplit(server_url)
        self.env = dict(os.environ)
        if parts.password:
            self.env["PGPASSWORD"] = parts.password
        self.conn = ["-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432)]
        self.conn += ["-U", parts.username or "postgres"]
        subprocess.run(
            [pgbench, "-i", "-q", "-s", str(scale), *self.conn, name], check=True, env=self.env, capture_output=True
        )

    def run(self, clients: int, seconds: float) -> float:
        jobs = str(min(clients, os.cpu_count() or 2))
        cmd = [self.pgbench, "-c", str(clients), "-j", jobs, "-T", str(int(seconds)), "-n", *self.conn, self.db.name]
        out = subprocess.run(cmd, check=True, env=self.env, capture_output=True, text=True)
        match = re.search(r"tps = ([0-9.]+) \((?:without initial connection time|excluding connections)", out.stdout)
        if match is None:
            raise SystemExit(f"could not read pgbench output:\n{out.stdout}")
        return float(match.group(1))

    def drop(self) -> None:
        self.db.drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10, help="length of each timed run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating ledger/pgbench runs")
    parser.add_argument("--scale", type=int, default=32, help="pgbench scale factor")
    parser.add_argument("--processes", type=int, default=1, help="client processes for the ledger run")
    parser.add_argument(
        "--use-cases",
        action="store_true",
        help="post through the use cases (allocate/take_back/charge_wallet with SQL authorisation look-ups)"
        " instead of the Ledger port",
    )
    args = parser.parse_args()

    from tests.support.database import create_test_database

    _server_url()
    db = create_test_database(prefix="gshare_bench", durable=True)
    bench: PgBench | None = None
    ratios = []
    try:
        world = asyncio.run(_seed(db.url))
        bench = PgBench(db.server_url, args.scale)
        where = urlsplit(db.server_url)
        path = "use cases" if args.use_cases else "Ledger port"
        print(
            f"server {where.hostname}:{where.port}, {os.cpu_count()} cores, {args.clients} clients, "
            f"{args.seconds:g} s per run, pgbench TPC-B scale {args.scale}, ledger through the {path}"
        )
        for n in range(1, args.rounds + 1):
            rate, done, refused, retries = run_ledger(
                db.url, world, args.clients, args.seconds, args.processes, n, args.use_cases
            )
            tps = bench.run(args.clients, args.seconds)
            ratios.append(rate / tps)
            print(
                f"round {n}: ledger {rate:8.1f} transfers/s ({done} posted, {refused} refused, {retries} retried)"
                f" | pgbench {tps:8.1f} tps | ratio {rate / tps:.2f}"
            )
        asyncio.run(_verify(db.url))
    finally:
        db.drop()
        if bench is not None:
            bench.drop()
    ratios.sort()
    print(f"median ratio ledger/pgbench: {ratios[len(ratios) // 2]:.2f}  (target >= 0.5; ledger sums to zero)")


if __name__ == "__main__":
    main()
