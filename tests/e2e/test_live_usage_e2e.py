"""Issue 15, Must show 2, end to end with real processes.

`gshare serve` and `gshare worker` (PostgreSQL + Redis) drive a registered Kubernetes cluster:
the Kubernetes API test server, the real operator and the test kubelet in this process (the
operator calls back over HTTP). A HAMi session runs on node n-hami; `gshare agent` runs as a
process for that node (kubeconfig, a cgroup v2 tree in a temp dir, HAMi's vGPU monitor serving
recorded text with the pod's GPU at 0 %) and posts to the serve process. A GraphQL subscriber of
`sessionUsage` gets each sample within 2 s of its sampling. Idle reclaim pauses the session
after the policy's idle timeout although the worker that first saw it idle was killed
(SIGKILL) and another started: the idle mark lives in Redis."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from kubernetes_asyncio.client import ApiClient

from domain.policies.model import PolicyScope, PolicyScopeKind, ResourcePolicy
from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import REGISTER, e2e_catalog, funded_member
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import hami_node
from tests.support.api import build_world, gid
from tests.support.database import TestDatabase, create_test_database
from tests.support.serve import free_port
from tests.support.services import require_redis
from tests.support.telemetry import (
    MIB,
    NS,
    MetricsServer,
    cgroup_root,
    private_pem,
    public_pem,
    recorded,
    set_counters,
    write_pod_cgroup,
)
from tests.support.ws import graphql_ws, subscribe

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
IDLE_TIMEOUT = 10
IDLE_WINDOW = 3
IDLE_MARKS = "gshare:idle-since"


@pytest.fixture
def usage_db() -> Iterator[TestDatabase]:
    db = create_test_database(prefix="gshare_usage")
    yield db
    db.drop()


class Proc:
    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.log = name, log
        self._out = log.open("w")
        self.p = subprocess.Popen(args, env=env, stdout=self._out, stderr=subprocess.STDOUT, cwd=ROOT)

    def tail(self) -> str:
        return self.log.read_text()[-3000:]

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.p.poll() is None:
            self.p.send_signal(sig)
            try:
                self.p.wait(15)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self._out.close()


async def until(check: Any, within: float, what: str, every: float = 0.1) -> Any:
    deadline = time.monotonic() + within
    while True:
        got = await check() if asyncio.iscoroutinefunction(check) else check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within} s: {what}")
        await asyncio.sleep(every)


@contextlib.asynccontextmanager
async def kube() -> AsyncIterator[KubeApiServer]:
    server = KubeApiServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def cpu_ticker(directory: Path, stop: threading.Event) -> None:
    """The pod's cgroup counters moving as a quiet pod's do: 20 millicores, 1.5 GiB resident."""
    usage = 10_000_000
    while not stop.wait(0.25):
        usage += 5_000
        set_counters(directory, usage_usec=usage, memory_current=1536 * MIB, inactive_file=512 * MIB)


async def test_agent_process_feeds_a_subscriber_and_idle_reclaim_survives_a_worker_restart(
    usage_db: TestDatabase, tmp_path: Path
) -> None:
    redis_url = require_redis()
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    from infra.bootstrap import build_container
    from infra.settings import Settings

    c = build_container(Settings(database_url=usage_db.url, redis_url=redis_url, demo=False), usage_db.url)
    procs: list[Proc] = []
    stop_ticker = threading.Event()
    try:
        async with kube() as api:
            cluster_id = f"live-{os.getpid()}"
            api.seed(hami_node("n-hami", cards=2, uuid_salt=cluster_id))
            port = free_port()
            env = {
                **os.environ,
                "GSHARE_DATABASE_URL": usage_db.url,
                "GSHARE_REDIS_URL": redis_url,
                "GSHARE_SIMULATED_CLUSTER": "false",
                "GSHARE_WORKER_METRICS_PORT": "0",
                "GSHARE_DATA_DIR": str(tmp_path / "data"),
                "GSHARE_PORT": str(port),
                "GSHARE_BOOTSTRAP_ADMIN_PASSWORD": "e2e-admin-password",
                "GSHARE_WORKER_JOB_PERIODS": "sessions.idle_reclaim=1",
                "GSHARE_IDLE_WINDOW_SECONDS": str(IDLE_WINDOW),
            }
            url = f"http://127.0.0.1:{port}"
            serve = Proc("serve", [sys.executable, "-m", "cli", "serve"], env, tmp_path / "serve.log")
            procs.append(serve)

            async def ready() -> bool:
                assert serve.p.poll() is None, serve.tail()
                with contextlib.suppress(httpx.HTTPError):
                    async with httpx.AsyncClient() as h:
                        return (await h.get(url + "/readyz", timeout=1)).status_code == 200
                return False

            await until(ready, 90, "gshare serve ready", every=0.3)

            world = await build_world(c)
            key = Ed25519PrivateKey.generate()
            kubeconfig = api.write_kubeconfig(tmp_path / "cp.kubeconfig", token="cp-token", user="gshare-cp")
            async with httpx.AsyncClient(base_url=url, timeout=20) as h:

                async def gql(token: str, query: str, **variables: Any) -> dict[str, Any]:
                    resp = await h.post(
                        "/graphql",
                        json={"query": query, "variables": variables},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    body = resp.json()
                    assert not body.get("errors"), body
                    return body["data"]  # type: ignore[no-any-return]

                registered = await gql(
                    world.tokens["super_admin"],
                    REGISTER,
                    input={
                        "id": cluster_id,
                        "name": f"Live {cluster_id}",
                        "kubeconfig": kubeconfig.read_text(),
                        "callbackPublicKey": public_pem(key),
                        "placementPolicy": "BEST_FIT",
                    },
                )
                assert registered["clusterRegister"]["errors"] == [], registered

                # the operator (in this process) reports the node and runs the session's pod
                sys.path.insert(0, str(ROOT / "operator"))
                from gshare_operator.app import Operator
                from gshare_operator.callbacks import CallbackClient
                from gshare_operator.settings import OperatorSettings
                from gshare_operator.signing import CallbackSigner

                op_api, kubelet_api = ApiClient(api.configuration()), ApiClient(api.configuration())
                callbacks = CallbackClient(f"{url}/callbacks", CallbackSigner(cluster_id, key))
                operator = Operator(
                    OperatorSettings(
                        cluster_id=cluster_id,
                        namespace=NS,
                        identity="op-live",
                        callback_url=f"{url}/callbacks",
                        ingress_domain="sessions.e2e.test",
                        ingress_class="nginx",
                        leader_election=False,
                        inventory_interval=60.0,
                        resync=60.0,
                    ),
                    op_api,
                    callbacks,
                )
                op_task = asyncio.create_task(operator.run())
                kubelet = Kubelet(kubelet_api, server=api)
                kubelet.start()
                try:

                    async def node_known() -> bool:
                        async with c.uow() as uow:
                            return any(
                                n.name == "n-hami" for n in (await uow.capacity.inventory()).nodes_of(cluster_id)
                            )

                    await until(node_known, 30, "the operator's inventory reached the control plane")
                    cat = await e2e_catalog(c)
                    actor, token = await funded_member(c, world, credits_=1000)
                    await c.credits.policies.put(
                        ResourcePolicy(
                            PolicyScope(PolicyScopeKind.USER, actor.user_id), idle_timeout_seconds=IDLE_TIMEOUT
                        )
                    )
                    await gql(
                        token,
                        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }",
                        g=gid("Group", world.g1),
                    )
                    created = (
                        await gql(
                            token,
                            "mutation($input: SessionCreateInput!) { sessionCreate(input: $input) { session { id } errors { code message } } }",
                            input={
                                "name": "live-usage",
                                "imageId": gid("Image", cat.image.id),
                                "presetId": gid("Preset", cat.presets["hami"].id),
                                "offeringId": gid("Offering", cat.offerings["hami"].id),
                                "clusterId": cluster_id,
                                "expiry": "H4",
                            },
                        )
                    )["sessionCreate"]
                    assert created["errors"] == [], created
                    from strawberry import relay

                    sid = UUID(relay.GlobalID.from_id(created["session"]["id"]).node_id)

                    async def running() -> bool:
                        async with c.uow() as uow:
                            s = await uow.sessions.get(sid)
                        return s is not None and s.state == SessionState.RUNNING

                    await until(running, 30, "the session RUNNING on the cluster")
                    pod = api.get("pods", f"s-{sid}", NS)
                    assert pod is not None and pod["spec"].get("nodeName") == "n-hami", pod

                    # the node: the pod's cgroup (systemd driver, containerd) and HAMi's monitor
                    root = cgroup_root(tmp_path)
                    pod_dir = write_pod_cgroup(
                        root,
                        pod["metadata"]["uid"],
                        driver="systemd",
                        qos="burstable",
                        runtime="containerd",
                        usage_usec=10_000_000,
                        memory_current=1536 * MIB,
                        inactive_file=512 * MIB,
                    )
                    ticker = threading.Thread(target=cpu_ticker, args=(pod_dir, stop_ticker), daemon=True)
                    ticker.start()
                    hami = (
                        recorded("hami_vgpu_monitor_legacy.prom")
                        .replace('podname="s-hami-a"', f'podname="s-{sid}"')
                        .replace("} 99\n", "} 0\n")  # the recorded pod's utilisation, now idle
                    )
                    with MetricsServer({"/metrics": hami}) as exporter:
                        agent_kubeconfig = api.write_kubeconfig(
                            tmp_path / "agent.kubeconfig", token="agent-token", user="gshare-agent"
                        )
                        agent = Proc(
                            "agent",
                            [
                                sys.executable,
                                "-m",
                                "cli",
                                "agent",
                                "--cluster-id",
                                cluster_id,
                                "--node-name",
                                "n-hami",
                                "--callback-url",
                                f"{url}/callbacks",
                                "--private-key",
                                str(private_pem(key, tmp_path / "key.pem")),
                                "--kubeconfig",
                                str(agent_kubeconfig),
                                "--cgroup-root",
                                str(root),
                                "--hami-metrics-url",
                                f"{exporter.url}/metrics",
                            ],
                            env,
                            tmp_path / "agent.log",
                        )
                        procs.append(agent)

                        # a subscriber sees the samples, each within 2 s of its sampling
                        ws_url = url.replace("http", "ws") + "/graphql"
                        async with graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as ws:
                            usage = await subscribe(
                                ws,
                                "u",
                                "subscription($s: ID!) { sessionUsage(sessionId: $s) { at cpuMillicores memoryMib gpuUtilPercent gpuMemoryMib } }",
                                s=gid("Session", sid),
                            )
                            await usage.next(within=10)  # the current window (maybe empty)
                            delays, seen = [], []
                            while len(seen) < 3:
                                batch = (await usage.next(within=15))["sessionUsage"]
                                received = time.time()
                                for sample in batch:
                                    delays.append(received - datetime.fromisoformat(sample["at"]).timestamp())
                                    seen.append(sample)
                            assert max(delays) < 2.0, delays
                            last = seen[-1]
                            assert (last["memoryMib"], last["gpuUtilPercent"], last["gpuMemoryMib"]) == (
                                1024,
                                0.0,
                                2012,
                            ), last
                            assert 0 < last["cpuMillicores"] < 100, last
                        assert agent.p.poll() is None, agent.tail()
                        status = Path(f"/proc/{agent.p.pid}/status").read_text()  # noqa: ASYNC240 - procfs, instant
                        hwm_kib = int(
                            next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))
                        )
                        print(f"agent peak RSS {hwm_kib / 1024:.1f} MiB (kubeconfig, editable install)")

                        # idle reclaim: worker 1 marks the session idle, and is killed
                        r.hdel(IDLE_MARKS, str(sid))
                        worker_args = [sys.executable, "-m", "cli", "worker", "--threads", "2"]
                        first = Proc("worker-1", worker_args, env, tmp_path / "worker-1.log")
                        procs.append(first)
                        mark = await until(lambda: r.hget(IDLE_MARKS, str(sid)), 60, "worker 1 marked the session idle")
                        first.stop(signal.SIGKILL)
                        marked_at = datetime.fromisoformat(mark).timestamp()
                        async with c.uow() as uow:
                            assert (await uow.sessions.get(sid)).state == SessionState.RUNNING  # type: ignore[union-attr]
                        # the next worker starts well after the mark: were the mark lost, it would
                        # need a whole timeout of its own
                        await asyncio.sleep(max(0.0, marked_at + IDLE_TIMEOUT - 5 - time.time()))
                        second = Proc("worker-2", worker_args, env, tmp_path / "worker-2.log")
                        procs.append(second)
                        await until(lambda: "workers started" in second.log.read_text(), 60, "worker 2 started")
                        ready_at = time.time()

                        async def paused() -> float | None:
                            assert r.hget(IDLE_MARKS, str(sid)) in (mark, None)  # never re-marked
                            async with c.uow() as uow:
                                s = await uow.sessions.get(sid)
                            # the worker's pause reaches the cluster (its own adapters, issue 14):
                            # the operator deletes the pod and reports it gone
                            pausing = s is not None and s.state in (SessionState.PAUSING, SessionState.PAUSED)
                            return time.time() if pausing else None

                        paused_at = await until(paused, 40, "idle reclaim paused the session", every=0.2)
                        idle_for = paused_at - marked_at
                        assert idle_for >= IDLE_TIMEOUT, idle_for
                        # paused as soon as due (or as soon as worker 2 ran, if later), not after a
                        # fresh mark of its own: that would need the timeout less one idle window
                        due = max(marked_at + IDLE_TIMEOUT, ready_at)
                        assert paused_at - due < 3, (paused_at - due, second.tail())
                        assert paused_at - ready_at < IDLE_TIMEOUT - IDLE_WINDOW, (paused_at - ready_at, second.tail())

                        async def gone() -> bool:
                            async with c.uow() as uow:
                                s = await uow.sessions.get(sid)
                            return s is not None and s.state == SessionState.PAUSED

                        await until(gone, 30, "the pause reached the cluster: PAUSED")
                        assert api.get("pods", f"s-{sid}", NS) is None
                finally:
                    kubelet_task_stop = kubelet.stop()
                    op_task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await op_task
                    await kubelet_task_stop
                    await callbacks.close()
                    await op_api.close()
                    await kubelet_api.close()
    finally:
        stop_ticker.set()
        for p in reversed(procs):
            await asyncio.to_thread(p.stop)  # off the loop: a process may call a server running on it
        r.close()
        await c.aclose()
