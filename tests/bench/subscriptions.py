"""`python -m tests.bench.subscriptions [--subscribers 2000] [--processes 8] [--seconds 20]`

Subscriptions at scale (issue 15, Must show 4): a real `gshare serve` (embedded, the simulated
cluster sampling its sessions at 1 Hz), one RUNNING session, and N `sessionUsage` subscribers
of it over graphql-transport-ws, spread over client processes separate from the server's.
Printed: delivered messages/s, delay p50/p99 (receipt − the sample's instant), server CPU per
delivered message (and the subscribers one core carries at 1 Hz), server memory per subscribed
socket; each against the issue's target and against a baseline of ONE subscriber measured in the
same run first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

USAGE = "subscription($id: ID!) { sessionUsage(sessionId: $id) { at cpuMillicores gpuUtilPercent } }"
OPENING = 25  # sockets of one client process being opened at once
DRAIN_SECONDS = 10.0  # after the window: its messages still on their way count (with their delay)
TARGETS = {"p99_ms": 500.0, "kib_per_socket": 60.0, "subscribers_per_core": 5000.0}
CLK_TCK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _client(url: str, token: str, sid: str, sockets: int, ready: Any, window: Any, done: Any, out: Any) -> None:
    """One client process: `sockets` WebSockets, one subscription each; the sample instant and
    delay of every message whose sample was taken in the measured window (`window`: wall-clock
    start and end, the end 0 while it lasts), received until `done` (a client behind keeps
    reading after the window: its messages count when they arrive, with their delay). At most
    OPENING sockets are being opened at a time (handshake to first message): the ramp follows
    the server's pace, so a loaded machine slows the opening instead of timing sockets out."""
    import websockets

    failures: list[str] = []
    opening = asyncio.Semaphore(OPENING)

    async def one(i: int, delays: list[float], counts: list[float], opened: asyncio.Event, n: list[int]) -> None:
        try:
            await subscribed(i, delays, counts, opened, n)
        except Exception as exc:  # a refused or dropped socket is counted, not waited for
            failures.append(repr(exc)[:200])
            n[0] += 1
            if n[0] == sockets:
                opened.set()

    async def subscribed(i: int, delays: list[float], ats: list[float], opened: asyncio.Event, n: list[int]) -> None:
        async with opening:
            ws = await websockets.connect(
                # no client keepalive: a client behind reads the pong behind its backlog and would close
                url,
                subprotocols=["graphql-transport-ws"],
                open_timeout=60,
                max_queue=None,
                ping_interval=None,
            )
            try:
                await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
                ack = json.loads(await asyncio.wait_for(ws.recv(), 60))
                assert ack["type"] == "connection_ack", ack
                await ws.send(
                    json.dumps({"id": "u", "type": "subscribe", "payload": {"query": USAGE, "variables": {"id": sid}}})
                )
                first = json.loads(await asyncio.wait_for(ws.recv(), 60))  # the current window
                assert first.get("type") == "next", first
            except BaseException:
                await ws.close()
                raise
        async with ws:
            n[0] += 1
            if n[0] == sockets:
                opened.set()
            while True:
                raw = await ws.recv()
                received = time.time()
                msg = json.loads(raw)
                if msg.get("type") == "ping":
                    await ws.send(json.dumps({"type": "pong"}))
                    continue
                if msg.get("type") != "next" or not window[0]:
                    continue
                samples = msg["payload"]["data"]["sessionUsage"]
                if len(samples) != 1:
                    continue  # the first message (the current window), not a live one
                at = datetime.fromisoformat(samples[0]["at"]).timestamp()
                if at >= window[0] and (not window[1] or at <= window[1]):
                    delays.append(received - at)
                    ats.append(at)

    async def main() -> None:
        delays: list[float] = []
        ats: list[float] = []
        opened = asyncio.Event()
        n = [0]
        tasks = [asyncio.create_task(one(i, delays, ats, opened, n)) for i in range(sockets)]
        await opened.wait()
        ready.put(sockets - len(failures))
        while not done.is_set():  # noqa: ASYNC110 - a multiprocessing.Event, not awaitable
            await asyncio.sleep(0.1)
        out.put((ats, delays, failures))
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    try:
        import uvloop  # the clients' own cost is not under test: the fastest loop there is

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())


def _idle_cores(server_pid: int, seconds: float) -> float:
    """The server's own background (the simulated cluster, the in-process jobs) with no
    subscriber: subtracted from each phase's CPU, so that CPU per message is the sockets' cost."""
    cpu0, t0 = _cpu_seconds(server_pid), time.monotonic()
    time.sleep(seconds)
    return (_cpu_seconds(server_pid) - cpu0) / (time.monotonic() - t0)


def _phase(
    url: str, token: str, sid: str, subscribers: int, processes: int, seconds: float, server_pid: int, idle: float
) -> dict[str, float]:
    ctx = mp.get_context("spawn")
    ready, out = ctx.Queue(), ctx.Queue()
    window, done = ctx.Array("d", [0.0, 0.0]), ctx.Event()
    per = [subscribers // processes + (1 if i < subscribers % processes else 0) for i in range(processes)]
    per = [p for p in per if p]
    rss_before = _rss_kib(server_pid)
    procs = [ctx.Process(target=_client, args=(url, token, sid, n, ready, window, done, out), daemon=True) for n in per]
    for p in procs:
        p.start()
    opened = sum(ready.get(timeout=900) for _ in procs)
    time.sleep(2.0)  # settle
    rss_after = _rss_kib(server_pid)
    cpu0, t0 = _cpu_seconds(server_pid), time.monotonic()
    window[0] = time.time()
    time.sleep(seconds)
    window[1] = time.time()
    cpu1, t1 = _cpu_seconds(server_pid), time.monotonic()
    time.sleep(DRAIN_SECONDS)  # the window's last messages, and a client behind, arrive meanwhile
    done.set()
    messages, delays, failed = 0, [], []
    for _ in procs:
        ats, ds, fs = out.get(timeout=120)
        messages += len(ats)
        delays.extend(ds)
        failed.extend(fs)
    if failed:
        print(f"{len(failed)} of {subscribers} sockets failed, e.g. {failed[0]}")
    print(f"{opened} of {subscribers} sockets subscribed (memory per socket is per subscribed socket)")
    for p in procs:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    delays.sort()
    elapsed = t1 - t0
    cpu_per_message = max(0.0, (cpu1 - cpu0) - idle * elapsed) / max(messages, 1)
    return {
        "subscribers": subscribers,
        "messages_per_s": messages / elapsed,
        "p50_ms": 1000 * statistics.median(delays) if delays else float("nan"),
        "p99_ms": 1000 * delays[min(len(delays) - 1, int(0.99 * len(delays)))] if delays else float("nan"),
        "server_cores": (cpu1 - cpu0) / elapsed,
        "cpu_ms_per_message": 1000 * cpu_per_message,
        "subscribers_per_core": 1 / cpu_per_message if messages and cpu_per_message else float("nan"),
        "opened": opened,
        "kib_per_socket": (rss_after - rss_before) / max(opened, 1),
    }


def main() -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.subscriptions", description=__doc__.split("\n\n")[1])
    p.add_argument("--subscribers", type=int, default=2000)
    p.add_argument("--processes", type=int, default=8, help="client processes (the server is another)")
    p.add_argument("--seconds", type=float, default=20.0, help="measured window per phase")
    args = p.parse_args()

    from tests.e2e.test_sessions_e2e import gql, ok, setup_member
    from tests.support.serve import gshare_serve

    env = {
        "GSHARE_SIMULATED_START_DELAY": "0.5",
        "GSHARE_MAX_WEBSOCKETS_PER_USER": str(args.subscribers + 10),
        "GSHARE_MAX_SUBSCRIPTIONS_PER_USER": str(args.subscribers + 10),
        "GSHARE_LOG_LEVEL": "WARNING",
    }
    with (
        tempfile.TemporaryDirectory(prefix="gshare-bench-subs-") as tmp,
        gshare_serve(Path(tmp), env=env, timeout=180) as served,
    ):
        member, token, ids = setup_member(served)
        created = ok(
            gql(
                member,
                "mutation($i: SessionCreateInput!) { sessionCreate(input: $i) { session { id } errors { code field message } } }",
                i={
                    "name": "bench",
                    "imageId": ids["image"],
                    "presetId": ids["preset"],
                    "offeringId": ids["offering"],
                    "expiry": "H4",
                },
            )["sessionCreate"]
        )
        sid = created["session"]["id"]
        deadline = time.monotonic() + 60
        while (
            gql(member, "query($id: ID!) { node(id: $id) { ... on Session { state } } }", id=sid)["node"]["state"]
            != "RUNNING"
        ):
            if time.monotonic() > deadline:
                raise SystemExit("the session did not start")
            time.sleep(0.5)
        ws_url = served.url.replace("http", "ws") + "/graphql"
        print(f"gshare serve pid {served.pid}; session {sid} RUNNING; clients in {args.processes} processes")
        idle = _idle_cores(served.pid, args.seconds)
        print(f"server background with no subscriber: {idle:.3f} cores (subtracted below)")
        base = _phase(ws_url, token, sid, 1, 1, args.seconds, served.pid, idle)
        full = _phase(ws_url, token, sid, args.subscribers, args.processes, args.seconds, served.pid, idle)

    rows = [
        ("delivered messages/s", "messages_per_s", "{:.0f}", None),
        ("delay p50 (ms)", "p50_ms", "{:.0f}", None),
        ("delay p99 (ms)", "p99_ms", "{:.0f}", ("<", TARGETS["p99_ms"])),
        ("server cores busy", "server_cores", "{:.2f}", None),
        ("server CPU per message (ms)", "cpu_ms_per_message", "{:.3f}", None),
        ("subscribers per core at 1 Hz", "subscribers_per_core", "{:.0f}", (">=", TARGETS["subscribers_per_core"])),
        ("server memory per socket (KiB)", "kib_per_socket", "{:.1f}", ("<=", TARGETS["kib_per_socket"])),
    ]
    print(f"\n{'':34s}{'1 subscriber':>14s}{args.subscribers:>10d} subs{'ratio':>9s}   target")
    for label, key, fmt, target in rows:
        b, f = base[key], full[key]
        ratio = f / b if b and b == b else float("nan")
        verdict = ""
        if target is not None:
            op, value = target
            met = f < value if op == "<" else f >= value if op == ">=" else f <= value
            verdict = f"{op} {value:g}: {'met' if met else 'NOT met'}"
        print(f"{label:34s}{fmt.format(b):>14s}{fmt.format(f):>15s}{ratio:>9.2f}   {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
