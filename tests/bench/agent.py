"""`python -m tests.bench.agent [--pods 100] [--seconds 60]`

The node agent's footprint (issue 15: under 30 MiB resident and 1 % of a core at 100 pods):
`gshare agent` as a process on a fake node - N session pods in the Kubernetes API test server,
their cgroup v2 directories in a temp dir (counters moving), HAMi's vGPU monitor serving
recorded text naming every pod - posting each second to a local receiver that checks the batch.
Printed: peak and current RSS, CPU of a core, posts received and samples per post; and the same
agent with ONE pod, measured in the same run, as the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.k8s.apiserver import KubeApiServer
from tests.support.telemetry import (
    MIB,
    MetricsServer,
    cgroup_root,
    private_pem,
    recorded,
    session_pod,
    set_counters,
    write_pod_cgroup,
)

CLK_TCK = os.sysconf("SC_CLK_TCK")
ROOT = Path(__file__).resolve().parents[2]


class Receiver:
    def __init__(self) -> None:
        self.posts: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.posts.append(len(json.loads(body)["samples"]))
                self.send_response(202)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/callbacks"


def _proc(pid: int) -> tuple[float, int, int]:
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / CLK_TCK
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return cpu, int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])


def measure(pods: int, seconds: float, tmp: Path) -> dict[str, float]:
    loop = asyncio.new_event_loop()
    api = KubeApiServer()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    asyncio.run_coroutine_threadsafe(api.start(), loop).result(30)
    root = cgroup_root(tmp)
    dirs = []
    hami = []
    legacy = recorded("hami_vgpu_monitor_legacy.prom").splitlines()
    util_line = next(line for line in legacy if line.startswith("Device_utilization_desc_of_container{"))
    mem_line = next(line for line in legacy if line.startswith("vGPU_device_memory_usage_in_bytes{"))
    for i in range(pods):
        sid = f"00000000-0000-4000-8000-{i:012d}"
        pod = api.seed(session_pod(f"s-{sid}", "", "bench-node", sid))
        dirs.append(
            write_pod_cgroup(
                root,
                pod["metadata"]["uid"],
                driver="systemd",
                qos="burstable",
                runtime="containerd",
                usage_usec=1_000_000,
                memory_current=GIB_MEM,
                inactive_file=0,
            )
        )
        hami.append(util_line.replace('podname="s-hami-a"', f'podname="s-{sid}"'))
        hami.append(mem_line.replace('podname="s-hami-a"', f'podname="s-{sid}"'))
    stop = threading.Event()

    def hami_text(step: int) -> str:
        # the utilisation and memory of every pod move each time, as on a busy node: the agent
        # cannot get away with parsing an unchanged text once
        lines = [line.replace(" 99", f" {step % 100}").replace(" 2.109867008e+09", f" {2e9 + step}") for line in hami]
        return "# TYPE Device_utilization_desc_of_container gauge\n" + "\n".join(lines) + "\n"

    receiver = Receiver()
    key = private_pem(Ed25519PrivateKey.generate(), tmp / "key.pem")
    kubeconfig = api.write_kubeconfig(tmp / "kc", token="agent", user="gshare-agent")
    with MetricsServer({"/metrics": hami_text(0)}) as exporter:

        def tick() -> None:
            usage, step = 1_000_000, 0
            while not stop.wait(0.5):
                usage += 50_000
                step += 1
                for d in dirs:
                    set_counters(d, usage_usec=usage, memory_current=GIB_MEM, inactive_file=MIB * 100)
                exporter.pages["/metrics"] = hami_text(step)

        threading.Thread(target=tick, daemon=True).start()
        agent = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cli",
                "agent",
                "--cluster-id",
                "bench",
                "--node-name",
                "bench-node",
                "--callback-url",
                receiver.url,
                "--private-key",
                str(key),
                "--kubeconfig",
                str(kubeconfig),
                "--cgroup-root",
                str(root),
                "--hami-metrics-url",
                f"{exporter.url}/metrics",
                "--log-level",
                "WARNING",
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(5)  # start-up and the first pod list
            cpu0, t0, posts0 = _proc(agent.pid)[0], time.monotonic(), len(receiver.posts)
            time.sleep(seconds)
            cpu1, hwm, rss = _proc(agent.pid)
            elapsed = time.monotonic() - t0
            got = receiver.posts[posts0:]
        finally:
            agent.terminate()
            agent.wait(10)
            stop.set()
    receiver.server.shutdown()
    asyncio.run_coroutine_threadsafe(api.stop(), loop).result(30)
    loop.call_soon_threadsafe(loop.stop)
    return {
        "pods": pods,
        "peak_rss_mib": hwm / 1024,
        "rss_mib": rss / 1024,
        "cpu_percent_of_a_core": 100 * (cpu1 - cpu0) / elapsed,
        "posts_per_s": len(got) / elapsed,
        "samples_per_post": sum(got) / len(got) if got else 0.0,
    }


GIB_MEM = 1024 * MIB


def main() -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.agent", description=__doc__.split("\n\n")[1])
    p.add_argument("--pods", type=int, default=100)
    p.add_argument("--seconds", type=float, default=60.0)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="gshare-bench-agent-") as tmp:
        (Path(tmp) / "one").mkdir()
        (Path(tmp) / "many").mkdir()
        base = measure(1, args.seconds, Path(tmp) / "one")
        full = measure(args.pods, args.seconds, Path(tmp) / "many")
    print(f"\n{'':26s}{'1 pod':>10s}{args.pods:>8d} pods{'ratio':>8s}   target")
    for label, key, fmt, target in (
        ("peak RSS (MiB)", "peak_rss_mib", "{:.1f}", ("<", 30.0)),
        ("RSS now (MiB)", "rss_mib", "{:.1f}", None),
        ("CPU (% of a core)", "cpu_percent_of_a_core", "{:.2f}", ("<", 1.0)),
        ("posts/s", "posts_per_s", "{:.2f}", None),
        ("samples per post", "samples_per_post", "{:.0f}", None),
    ):
        b, f = base[key], full[key]
        verdict = ""
        if target is not None:
            verdict = f"< {target[1]:g}: {'met' if f < target[1] else 'NOT met'}"
        print(f"{label:26s}{fmt.format(b):>10s}{fmt.format(f):>13s}{(f / b if b else float('nan')):>8.2f}   {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
