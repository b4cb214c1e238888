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
from tests.k8s.nodes import H100_CARDS, amd_node, exclusive_node, hami_node, mig_node, timesliced_node

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


# The nodes are the recorded real ones of tests/k8s/nodes.py (each source named there), under
# short names: 2 of HAMi #961's H100 cards, PR #503's V100s time-sliced 4 ways with
# renameByDefault, gpu-operator #637's mixed-strategy A100 node, the V100s unshared, 8 MI300X.
HAMI_CARDS = [uuid for uuid, _ in H100_CARDS[:2]]


def gpu_nodes() -> list[dict[str, Any]]:
    ex = exclusive_node("ex-1")
    # left over from an earlier time-slicing configuration: still in capacity, while kubelet
    # shows 0 allocatable once no device plugin serves it (a stale resource)
    ex["status"]["capacity"]["nvidia.com/gpu.shared"] = "32"
    ex["status"]["allocatable"]["nvidia.com/gpu.shared"] = "0"
    return [hami_node("hami-1", cards=2), timesliced_node("ts-1"), mig_node("mig-1"), ex, amd_node("amd-1")]


GPU_NODE_NAMES = ("hami-1", "ts-1", "mig-1", "ex-1", "amd-1")


@pytest.fixture
def cluster(kube_api: KubeApiServer) -> KubeApiServer:
    for node in gpu_nodes():
        kube_api.seed(node)
    return seed_claims(kube_api)


def seed_claims(kube_api: KubeApiServer) -> KubeApiServer:
    """The claims the tests' sessions mount, already bound (the scheduler holds a pod whose
    claim is missing or unbound)."""
    for claim, mode in (("home-alice", "ReadWriteOnce"), ("datasets", "ReadWriteMany")):
        kube_api.seed(
            {
                "apiVersion": "v1",
                "kind": "PersistentVolumeClaim",
                "metadata": {"name": claim, "namespace": NS},
                "spec": {
                    "accessModes": [mode],
                    "storageClassName": "nfs",
                    "resources": {"requests": {"storage": "10Gi"}},
                },
                "status": {"phase": "Bound", "accessModes": [mode], "capacity": {"storage": "10Gi"}},
            }
        )
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
async def kubelet(kube_client: ApiClient, kube_api: KubeApiServer) -> AsyncIterator[Kubelet]:
    k = Kubelet(kube_client, server=kube_api)
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
