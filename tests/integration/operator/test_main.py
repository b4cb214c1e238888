"""`python -m gshare_operator` (what `gshare operator` runs) as a real process against the
API test server: configured by kubeconfig and arguments, it runs a session, reports it, and
on SIGTERM releases its lease and exits 0."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from gshare_operator.settings import load_settings
from kubernetes_asyncio import client

from tests.integration.operator.conftest import CLUSTER, Receiver, eventually
from tests.integration.operator.test_operator import GPU_REQUESTS, apply_session, session
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet

ROOT = Path(__file__).resolve().parents[3]


async def test_operator_process_runs_reports_and_stops_cleanly(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    kubelet: Kubelet,
    receiver: Receiver,
    key_file: Path,
    tmp_path: Path,
) -> None:
    kubeconfig = cluster.write_kubeconfig(tmp_path / "kubeconfig", token="op-token")
    env = {k: v for k, v in os.environ.items() if k != "KUBERNETES_SERVICE_HOST"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "operator"), str(ROOT)])
    env["GSHARE_CLUSTER_ID"] = CLUSTER  # from the environment, the rest as arguments
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gshare_operator",
        "--kubeconfig",
        str(kubeconfig),
        "--callback-url",
        receiver.url,
        "--private-key",
        str(key_file),
        "--identity",
        "op-process",
        "--ingress-domain",
        "sessions.example.test",
        "--log-level",
        "WARNING",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await apply_session(kube_client, session("s-proc", GPU_REQUESTS["hami"]))
        await eventually(lambda: "Running" in receiver.phases("s-proc"), within=20)
        assert any(user == "test" for user in {r.user for r in cluster.requests})
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), 10)
        assert process.returncode == 0, stderr.decode()[-2000:]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    lease = cluster.get("leases", "gshare-operator", "gshare-system")
    assert lease is not None and not lease["spec"].get("holderIdentity")


def test_settings_come_from_arguments_then_environment() -> None:
    settings = load_settings(
        ["--namespace", "sessions-b", "--workers", "2"],
        {
            "GSHARE_CLUSTER_ID": "c9",
            "GSHARE_OPERATOR_NAMESPACE": "ignored",
            "GSHARE_INVENTORY_INTERVAL": "30",
            "POD_NAME": "op-7",
            "KUBERNETES_SERVICE_HOST": "10.0.0.1",
        },
    )
    assert settings.cluster_id == "c9"
    assert settings.namespace == "sessions-b"
    assert settings.workers == 2
    assert settings.inventory_interval == 30.0
    assert settings.identity == "op-7"
    assert settings.in_cluster is True
    assert settings.leader_election is True


def test_settings_refuse_what_cannot_work() -> None:
    with pytest.raises(SystemExit):
        load_settings([], {})
    with pytest.raises(SystemExit):
        load_settings(["--cluster-id", "c1", "--callback-url", "https://cp"], {})
