"""The hostile-input attacks (tests/support/hostile.py) against a real `gshare serve`, shape by
shape: the server's median time per attack beside a trivial `{ me { id } }` measured in the
same run, the memory (RSS) the server process gained while the shape ran, and whether every
`{ me { id } }` / `/healthz` a bystander of another organisation sent meanwhile was answered.
Last, the WebSocket flood of issue 13 (one token opening 500 sockets x 20 `viewer`
subscriptions, reading nothing, then its user changed so that every subscription fans out):
what the per-user caps let in, and the bystander's `{ me { id } }` round trip during the
fan-out beside its own baseline taken just before.

    python -m tests.bench.hostile [--repeats 5] [--flood-sockets 500]

Needs GSHARE_BENCH_DATABASE_URL or GSHARE_TEST_DATABASE_URL (the bench creates and drops its own
database). Judged as in the suite: no attack over 50 x the trivial query, no shape growing the
server by more than 50 MB, no bystander request unanswered. Exit status 1 when one fails.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from tests.support import hostile
from tests.support.database import create_test_database
from tests.support.serve import gshare_serve

RATIO = 50
MEMORY_MB = 50


rss_mb = hostile.rss_mb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each hand-written attack")
    parser.add_argument("--flood-sockets", type=int, default=500, help="sockets of the WebSocket flood")
    args = parser.parse_args()
    if os.environ.get("GSHARE_BENCH_DATABASE_URL"):
        os.environ["GSHARE_TEST_DATABASE_URL"] = os.environ["GSHARE_BENCH_DATABASE_URL"]
    db = create_test_database(prefix="gshare_bench_hostile", durable=True)
    env = {"GSHARE_DATABASE_URL": db.url, "GSHARE_SIMULATED_CLUSTER": "false", "GSHARE_WORKER_METRICS_PORT": "0"}
    failed = False
    try:
        with tempfile.TemporaryDirectory() as tmp, gshare_serve(Path(tmp), env=env) as served:
            target = hostile.prepare(served.url, served.admin_password)
            trivial = hostile.trivial_ms(target, repeats=50)
            load = os.getloadavg()[0]
            print(f"trivial {{ me {{ id }} }}: {trivial:.2f} ms server time (median of 50)")
            print(f"machine load average {load:.1f} on {os.cpu_count()} cores (shared: other work may run)\n")
            print(f"{'shape':32} {'attacks':>7} {'median ms':>10} {'max ms':>9} {'max x':>7} {'RSS +MB':>8}  bystander")
            shapes: dict[str, list[hostile.Attack]] = {}
            for attack in hostile.document_attacks() + hostile.body_attacks() + hostile.argument_attacks():
                shapes.setdefault(attack.shape, []).append(attack)
            start_rss = rss_mb(served.pid)
            with hostile.Bystander(target) as bystander:
                for shape, attacks in shapes.items():
                    before = rss_mb(served.pid)
                    repeats = 1 if "every argument" in shape else args.repeats
                    results = hostile.run(target, attacks, bystander, repeats=repeats)
                    gained = rss_mb(served.pid) - before
                    times = [r.server_ms for r in results]
                    probes = list({id(p): p for r in results for p in r.probes}.values())
                    answered = sum(p.ok for p in probes)
                    faults = [f for r in results for f in r.faults()]
                    worst = max(times) / trivial
                    bad = bool(faults) or worst > RATIO or gained > MEMORY_MB or answered < len(probes)
                    failed |= bad
                    print(
                        f"{shape:32} {len(attacks):7d} {statistics.median(times):10.2f} {max(times):9.2f} "
                        f"{worst:7.1f} {gained:8.1f}  {answered}/{len(probes)} answered{'  FAIL' if bad else ''}"
                    )
                    for fault in faults[:3]:
                        print(f"    {fault[:200]}")
            flood = hostile.websocket_flood(
                target, sockets=args.flood_sockets, per_socket=20, updates=3, pid=served.pid
            )
            gained = flood.rss_gained_mb or 0.0
            bad = flood.ratio > RATIO or gained > MEMORY_MB or bool(flood.unanswered)
            failed |= bad
            before_ms = statistics.median(flood.baseline_ms)
            during_ms = statistics.median(flood.during_ms)
            print(
                f"{'websocket flood (one token)':32} {flood.sockets_asked:7d} {during_ms:10.2f} {max(flood.during_ms):9.2f} "
                f"{flood.ratio:7.1f} {gained:8.1f}  {len(flood.during_ms) - len(flood.unanswered)}/"
                f"{len(flood.during_ms)} answered{'  FAIL' if bad else ''}"
            )
            print(
                f"    {flood.sockets_accepted}/{flood.sockets_asked} sockets accepted "
                f"(closed: {flood.socket_refusals}), {flood.subscriptions_live}/{flood.subscriptions_asked} "
                f"subscriptions live ({len(flood.subscription_refusals)} refused TOO_MANY_SUBSCRIPTIONS), "
                f"{flood.updates} fan-outs; bystander {{ me {{ id }} }} round trip median {before_ms:.1f} ms before, "
                f"{during_ms:.1f} ms during (x = during / before)"
            )
            print(f"\nserver RSS {start_rss:.0f} MB before the attacks, {rss_mb(served.pid):.0f} MB after")
            slowest = max(p.ms for p in bystander.probes)
            print(
                f"bystander: {len(bystander.probes)} requests, all answered: {all(p.ok for p in bystander.probes)}, "
                f"slowest {slowest:.0f} ms (client side)"
            )
            failed |= not all(p.ok for p in bystander.probes)
    finally:
        db.drop()
    print("\nverdict:", "FAIL" if failed else f"ok (no attack over {RATIO}x, no shape over {MEMORY_MB} MB)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
