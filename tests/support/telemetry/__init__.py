"""A fake GPU node for the node agent's tests: a cgroup v2 tree laid out as the kubelet and the
runtimes do, the node's exporters serving recorded text (see SOURCES.md), session pods for the
Kubernetes API test server, and a registered cluster with sessions running on it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import delete

from domain.catalog import services as catalog
from domain.catalog.model import ImageScope
from domain.inventory.clusters import RegisteredCluster
from domain.sessions.model import Expiry, GpuAsk, Session, SessionKind, SessionState
from tests.support.api import SYSTEM, World, make_user, unique

HERE = Path(__file__).resolve().parent
NS = "gshare-sessions"
MIB = 1024 * 1024


def recorded(name: str) -> str:
    return (HERE / name).read_text()


# ------------------------------------------------------------------------------ cgroup v2 tree


def cgroup_root(tmp: Path) -> Path:
    root = tmp / "sys-fs-cgroup"
    root.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids rdma misc\n")
    return root


def pod_cgroup_dir(root: Path, uid: str, *, driver: str, qos: str) -> Path:
    """Where the kubelet makes a pod's cgroup (see operator/gshare_agent/cgroups.py)."""
    under = uid.replace("-", "_")
    if driver == "systemd":
        if qos == "guaranteed":
            return root / "kubepods.slice" / f"kubepods-pod{under}.slice"
        return root / "kubepods.slice" / f"kubepods-{qos}.slice" / f"kubepods-{qos}-pod{under}.slice"
    if driver == "cgroupfs":
        return root / "kubepods" / (f"pod{uid}" if qos == "guaranteed" else f"{qos}/pod{uid}")
    if driver == "kind":  # a kubelet with --cgroup-root=/kubelet.slice (kind with systemd)
        return (
            root
            / "kubelet.slice"
            / "kubelet-kubepods.slice"
            / f"kubelet-kubepods-{qos}.slice"
            / (f"kubelet-kubepods-{qos}-pod{under}.slice")
        )
    raise ValueError(driver)


def write_pod_cgroup(
    root: Path,
    uid: str,
    *,
    driver: str,
    qos: str,
    runtime: str,
    usage_usec: int,
    memory_current: int,
    inactive_file: int,
) -> Path:
    """The pod's cgroup with its counters, and a container child as `runtime` names it."""
    d = pod_cgroup_dir(root, uid, driver=driver, qos=qos)
    d.mkdir(parents=True, exist_ok=True)
    cid = uuid.uuid5(uuid.NAMESPACE_OID, uid).hex + uuid.uuid5(uuid.NAMESPACE_URL, uid).hex
    child = {
        ("containerd", "systemd"): f"cri-containerd-{cid}.scope",
        ("containerd", "kind"): f"cri-containerd-{cid}.scope",
        ("containerd", "cgroupfs"): cid,
        ("crio", "systemd"): f"crio-{cid}.scope",
        ("crio", "cgroupfs"): f"crio-{cid}",
    }[(runtime, driver)]
    (d / child).mkdir(exist_ok=True)
    set_counters(d, usage_usec=usage_usec, memory_current=memory_current, inactive_file=inactive_file)
    return d


def _write(path: Path, text: str) -> None:
    """In place, in one write, as a cgroup file stays the same file for the cgroup's life (the
    agent keeps it open and re-reads it from offset 0): never replaced by another inode."""
    data = text.encode()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.pwrite(fd, data, 0)
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def set_counters(d: Path, *, usage_usec: int, memory_current: int, inactive_file: int) -> None:
    # the kernel's layouts of cpu.stat and memory.stat (Documentation/admin-guide/cgroup-v2.rst)
    _write(
        d / "cpu.stat",
        f"usage_usec {usage_usec}\nuser_usec {usage_usec * 7 // 10}\nsystem_usec {usage_usec * 3 // 10}\n"
        "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\nnr_bursts 0\nburst_usec 0\n",
    )
    _write(d / "memory.current", f"{memory_current}\n")
    _write(
        d / "memory.stat",
        f"anon {memory_current - inactive_file}\nfile {inactive_file}\nkernel 1048576\n"
        f"active_anon {memory_current - inactive_file}\ninactive_anon 0\nactive_file 0\n"
        f"inactive_file {inactive_file}\nunevictable 0\n",
    )


# ------------------------------------------------------------------------------ exporters


class MetricsServer:
    """The node's exporters on 127.0.0.1: path → recorded text (changeable while serving)."""

    def __init__(self, pages: Mapping[str, str]) -> None:
        self.pages = dict(pages)
        self.hits: dict[str, int] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                server.hits[self.path] = server.hits.get(self.path, 0) + 1
                body = server.pages.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> MetricsServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


# ------------------------------------------------------------------------------ pods


def session_pod(
    name: str, uid: str, node: str, session_id: str | None, *, namespace: str = NS, phase: str = "Running"
) -> dict[str, Any]:
    """A session pod as the operator makes it (labels of gshare_operator.children)."""
    labels = {"app.kubernetes.io/managed-by": "gshare-operator", "app.kubernetes.io/component": "session"}
    if session_id is not None:
        labels |= {"gshare.io/session": name, "gshare.io/session-id": session_id}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "uid": uid, "labels": labels},
        "spec": {"nodeName": node, "containers": [{"name": "session", "image": "nvcr.io/nvidia/pytorch:24.05-py3"}]},
        "status": {"phase": phase, "qosClass": "Guaranteed"},
    }


# ------------------------------------------------------------------------------ the control plane


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def serving(app: Any) -> AsyncIterator[str]:
    """The ASGI app on a real socket (uvicorn in this event loop): the agent speaks HTTP."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn exposes a flag, not an event
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


def public_pem(key: Ed25519PrivateKey) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def private_pem(key: Ed25519PrivateKey, path: Path) -> Path:
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return path


@dataclass
class Telemetered:
    """A registered Kubernetes cluster (its callback key) and sessions RUNNING on it."""

    cluster_id: str
    key: Ed25519PrivateKey
    sessions: dict[str, Session]


async def add_cluster(c: Any, key: Ed25519PrivateKey | None = None) -> tuple[str, Ed25519PrivateKey]:
    from infra.clusters.repository import SqlClusterRecords

    key = key or Ed25519PrivateKey.generate()
    cluster_id = f"tel-{uuid.uuid4().hex[:8]}"
    async with c.uow() as uow:
        await SqlClusterRecords(uow).add(
            RegisteredCluster(cluster_id, f"Telemetry {cluster_id}", "kubernetes", "best-fit", None, public_pem(key))
        )
        await uow.commit()
    return cluster_id, key


async def running_session(
    c: Any, world: World, cluster_id: str, *, gpu: bool = True, owner: uuid.UUID | None = None
) -> Session:
    """A RUNNING session on `cluster_id`, written directly (its admission is not under test)."""
    if owner is None:
        owner, _ = await make_user(c, world.org_a, unique("tel"), groups=[world.g1])
    now = datetime.now(UTC)
    async with c.uow() as uow:
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("tel-img"),
            reference="nvcr.io/nvidia/pytorch:24.05-py3",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        ask = None
        if gpu:
            off = await catalog.offering_create(
                uow,
                SYSTEM,
                c.ids,
                c.clock,
                vendor="NVIDIA",
                name=unique("TEL-A100"),
                vram_mib=81920,
                min_cuda="11.0",
                hourly_rate_micro=3_600_000,
            )
            ask = GpuAsk(off.id, off.name, 20480, 25, 1, False, True, Fraction(1, 4), 3_600_000)
        s = Session(
            id=uuid.uuid4(),
            name=unique("tel"),
            owner_id=owner,
            organization_id=world.org_a,
            group_id=world.g1,
            kind=SessionKind.INTERACTIVE,
            state=SessionState.RUNNING,
            image_id=image.id,
            image_reference=image.reference,
            preset_id=None,
            cpu_millicores=2000,
            memory_mib=4096,
            shm_mib=512,
            disk_gib=10,
            gpu=ask,
            expiry=Expiry.D1,
            created_at=now,
            updated_at=now,
            cluster_id=cluster_id,
            running_since=now,
            started_at=now,
        )
        await uow.sessions.add(s)
        await uow.commit()
    return s


async def forget(c: Any, cluster_id: str, session_ids: list[uuid.UUID]) -> None:
    from infra.clusters.repository import SqlClusterRecords
    from infra.db.models.sessions import SessionRow

    async with c.uow() as uow:
        await uow.capacity.lock()
        await uow.session.execute(delete(SessionRow).where(SessionRow.id.in_(session_ids)))
        await SqlClusterRecords(uow).remove(cluster_id)
        await uow.commit()


class PrometheusServer:
    """A Prometheus HTTP API answering `POST /api/v1/query` from prometheus_*.json (the answer
    for the query's metric; `SESSION_*` placeholders replaced by `names`), recording each query
    and its Authorization header."""

    ANSWERS = (
        ("container_cpu_usage_seconds_total", "prometheus_cpu.json"),
        ("container_memory_working_set_bytes", "prometheus_memory.json"),
        ("hami_container_device_utilization_ratio", "prometheus_hami_util.json"),
        ("hami_vgpu_memory_used_bytes", "prometheus_hami_memory.json"),
        ("DCGM_FI_DEV_GPU_UTIL", "prometheus_dcgm_util.json"),
        ("DCGM_FI_DEV_FB_USED", "prometheus_dcgm_memory.json"),
    )

    def __init__(self, names: Mapping[str, str]) -> None:
        from urllib.parse import parse_qs

        self.queries: list[tuple[str, str | None]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                form = parse_qs(self.rfile.read(length).decode())
                query = (form.get("query") or [""])[0]
                server.queries.append((query, self.headers.get("Authorization")))
                name = next((f for metric, f in server.ANSWERS if metric in query), "prometheus_empty.json")
                text = recorded(name)
                for placeholder, value in names.items():
                    text = text.replace(placeholder, value)
                data = text.encode()
                self.send_response(200 if self.path == "/prom/api/v1/query" else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/prom"

    def __enter__(self) -> PrometheusServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
