"""Operator tests: the real operator, the real kubernetes-asyncio client, over HTTP, against the
in-process API test server; callbacks go to a tiny receiver that verifies them with the
control plane's `infra.callbacks` verifier."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from kubernetes_asyncio.client import ApiClient

from infra.callbacks import (
    CallbackRejected,
    CallbackVerifier,
    InMemoryClusterKeyStore,
    InMemoryReplayCache,
)
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.fixtures import kube_api, kube_client
from tests.k8s.kubelet import Kubelet

_OPERATOR_DIR = str(Path(__file__).resolve().parents[3] / "operator")
if _OPERATOR_DIR not in sys.path:
    sys.path.insert(0, _OPERATOR_DIR)

from gshare_operator.app import Operator  # noqa: E402
from gshare_operator.callbacks import CallbackClient  # noqa: E402
from gshare_operator.settings import OperatorSettings  # noqa: E402
from gshare_operator.signing import CallbackSigner  # noqa: E402

__all__ = ["kube_api", "kube_client"]

CLUSTER = "c-test"
NS = "gshare-sessions"


@dataclass
class Receiver:
    """The control plane's callback endpoint, reduced to verifying and recording."""

    verifier: CallbackVerifier
    reports: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    url: str = ""
    fail_with: int | None = None

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        if self.fail_with is not None:
            return web.json_response({"error": "unavailable"}, status=self.fail_with)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        try:
            verified, report = await self.verifier.verify_report(token, body)
        except CallbackRejected as exc:
            self.refusals.append(str(exc.code))
            return web.json_response({"code": str(exc.code)}, status=401)
        self.reports.append((request.match_info["kind"], verified.cluster_id, report))
        return web.json_response({"ok": True}, status=202)

    def session_reports(self, name: str | None = None) -> list[dict[str, Any]]:
        return [r for kind, _, r in self.reports if kind == "session-status" and (name is None or r["name"] == name)]

    def phases(self, name: str) -> list[str]:
        return [r["phase"] for r in self.session_reports(name)]

    def inventories(self) -> list[dict[str, Any]]:
        return [r for kind, _, r in self.reports if kind == "inventory"]


@pytest.fixture
def signing_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
async def receiver(signing_key: Ed25519PrivateKey) -> AsyncIterator[Receiver]:
    keys = InMemoryClusterKeyStore()
    keys.register(CLUSTER, signing_key.public_key())
    recv = Receiver(CallbackVerifier(keys, InMemoryReplayCache()))
    app = web.Application()
    app.router.add_post("/callbacks/{kind}", recv.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    recv.url = f"http://127.0.0.1:{port}/callbacks"
    yield recv
    await runner.cleanup()


@pytest.fixture
def key_file(tmp_path: Path, signing_key: Ed25519PrivateKey) -> Path:
    path = tmp_path / "callback-key.pem"
    path.write_bytes(
        signing_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return path


HAMI_CARDS = ["GPU-8e1b44e2-0c1d-4d7c-9a55-3f1c2b7a0001", "GPU-8e1b44e2-0c1d-4d7c-9a55-3f1c2b7a0002"]

GPU_NODES: list[dict[str, Any]] = [
    {
        "name": "hami-1",
        "labels": {
            "gshare.io/sharing-mode": "hami",
            "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
            "nvidia.com/gpu.count": "2",
            "nvidia.com/gpu.memory": "81920",
        },
        "annotations": {
            "hami.io/node-nvidia-register": "".join(
                f"{uuid},10,81920,100,NVIDIA-A100-SXM4-80GB,0,true:" for uuid in HAMI_CARDS
            ),
        },
        "resources": {"nvidia.com/gpu": "20", "nvidia.com/gpumem": "163840", "nvidia.com/gpucores": "200"},
    },
    {
        "name": "ts-1",
        "labels": {
            "gshare.io/sharing-mode": "timeslicing",
            "nvidia.com/gpu.product": "NVIDIA-A30",
            "nvidia.com/gpu.replicas": "4",
            "nvidia.com/gpu.count": "2",
            "nvidia.com/gpu.memory": "24576",
        },
        "resources": {"nvidia.com/gpu.shared": "8"},
    },
    {
        "name": "mig-1",
        "labels": {
            "gshare.io/sharing-mode": "exclusive",
            "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
            "nvidia.com/gpu.count": "1",
            "nvidia.com/gpu.memory": "81920",
            "nvidia.com/mig.config": "all-1g.10gb",
            "nvidia.com/mig.config.state": "success",
            "nvidia.com/mig.strategy": "mixed",
        },
        "resources": {"nvidia.com/mig-1g.10gb": "7"},
    },
    {
        "name": "ex-1",
        "labels": {
            "gshare.io/sharing-mode": "exclusive",
            "nvidia.com/gpu.product": "NVIDIA-L40S",
            "nvidia.com/gpu.count": "8",
            "nvidia.com/gpu.memory": "46068",
        },
        "resources": {"nvidia.com/gpu": "8"},
        # Left over from an earlier time-slicing configuration: still in capacity, while the
        # kubelet shows 0 allocatable once no device plugin serves it (a stale resource).
        "stale": {"nvidia.com/gpu.shared": "4"},
    },
]


def node_manifest(spec: dict[str, Any]) -> dict[str, Any]:
    resources = {"cpu": "64", "memory": "512Gi", "pods": "110", **spec["resources"]}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": spec["name"],
            "labels": {"kubernetes.io/hostname": spec["name"], **spec["labels"]},
            "annotations": dict(spec.get("annotations") or {}),
        },
        "status": {
            "capacity": {**resources, **spec.get("stale", {})},
            "allocatable": {**resources, **{k: "0" for k in spec.get("stale", {})}},
            "conditions": [{"type": "Ready", "status": "True"}],
        },
    }


@pytest.fixture
def cluster(kube_api: KubeApiServer) -> KubeApiServer:
    for spec in GPU_NODES:
        kube_api.seed(node_manifest(spec))
    return kube_api


@dataclass
class OperatorFactory:
    api: KubeApiServer
    receiver: Receiver
    signing_key: Ed25519PrivateKey
    running: list[tuple[Operator, asyncio.Task[None], ApiClient, CallbackClient]] = field(default_factory=list)

    def settings(self, identity: str, **over: Any) -> OperatorSettings:
        values: dict[str, Any] = {
            "cluster_id": CLUSTER,
            "namespace": NS,
            "identity": identity,
            "callback_url": self.receiver.url,
            "ingress_domain": "sessions.example.test",
            "ingress_class": "nginx",
            "lease_duration": 2.0,
            "renew_deadline": 1.5,
            "retry_period": 0.1,
            "inventory_interval": 60.0,
            "resync": 60.0,
        }
        values.update(over)
        return OperatorSettings(**values)

    async def start(self, identity: str = "op-a", *, token: str | None = None, **over: Any) -> Operator:
        settings = self.settings(identity, **over)
        api_client = ApiClient(self.api.configuration(token=token))
        callbacks = CallbackClient(self.receiver.url, CallbackSigner(CLUSTER, self.signing_key))
        operator = Operator(settings, api_client, callbacks)
        operator.controller._backoff_base = 0.05  # keep retries fast in tests
        task = asyncio.create_task(operator.run(), name=f"operator-{identity}")
        self.running.append((operator, task, api_client, callbacks))
        return operator

    async def stop(self, operator: Operator) -> None:
        for entry in list(self.running):
            if entry[0] is operator:
                self.running.remove(entry)
                _, task, api_client, callbacks = entry
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                await callbacks.close()
                await api_client.close()

    async def stop_all(self) -> None:
        for operator, *_ in list(self.running):
            await self.stop(operator)


@pytest.fixture
async def operators(
    cluster: KubeApiServer, receiver: Receiver, signing_key: Ed25519PrivateKey
) -> AsyncIterator[OperatorFactory]:
    factory = OperatorFactory(cluster, receiver, signing_key)
    yield factory
    await factory.stop_all()


@pytest.fixture
async def kubelet(kube_client: ApiClient) -> AsyncIterator[Kubelet]:
    k = Kubelet(kube_client)
    k.start()
    yield k
    await k.stop()


async def eventually(
    check: Callable[[], Any] | Callable[[], Awaitable[Any]],
    within: float = 5.0,
    interval: float = 0.02,
    message: str = "condition not reached",
) -> Any:
    deadline = time.monotonic() + within
    last: Any = None
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        last = result
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{message} (last: {last!r})")
        await asyncio.sleep(interval)
