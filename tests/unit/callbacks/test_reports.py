"""Verified operator reports become domain values."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.inventory.model import SharingMode
from domain.inventory.ports import WorkloadPhase
from infra.callbacks.reports import ReportInvalid, inventory_nodes, status_report


def report(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "type": "session.status",
        "cluster": "c1",
        "name": "s-x",
        "sessionId": str(uuid4()),
        "phase": "Running",
        "reason": "PodReady",
        "message": "",
        "node": "gpu-1",
        "endpoints": [{"name": "jupyterlab", "url": "https://j/"}],
        "observedAt": "2026-11-29T12:00:00Z",
    }
    base.update(over)
    return base


@pytest.mark.parametrize(
    ("phase", "expected"),
    [
        ("Pending", WorkloadPhase.SCHEDULED),
        ("Starting", WorkloadPhase.STARTING),
        ("Running", WorkloadPhase.RUNNING),
        ("Failed", WorkloadPhase.FAILED),
        ("Succeeded", WorkloadPhase.SUCCEEDED),
        ("Deleted", WorkloadPhase.STOPPED),
    ],
)
def test_phases_map_to_workload_phases(phase: str, expected: WorkloadPhase) -> None:
    result = status_report("c1", report(phase=phase))
    assert result is not None and result.phase is expected


def test_running_report_carries_node_and_endpoints() -> None:
    raw = report()
    result = status_report("c1", raw)
    assert result is not None
    assert str(result.session_id) == raw["sessionId"]
    assert result.node_id == "c1/gpu-1"
    assert [(e.name, e.url) for e in result.endpoints] == [("jupyterlab", "https://j/")]
    assert result.observed_at.isoformat() == "2026-11-29T12:00:00+00:00"


def test_terminating_changes_nothing() -> None:
    assert status_report("c1", report(phase="Terminating")) is None


@pytest.mark.parametrize(
    "bad",
    [
        {"cluster": "c2"},
        {"phase": "Exploded"},
        {"sessionId": "not-a-uuid"},
        {"type": "inventory"},
        {"observedAt": "yesterday"},
    ],
)
def test_unusable_reports_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ReportInvalid):
        status_report("c1", report(**bad))


def test_inventory_report_becomes_nodes() -> None:
    inventory = {
        "type": "inventory",
        "cluster": "c1",
        "nodes": [
            {
                "name": "gpu-1",
                "ready": True,
                "unschedulable": False,
                "sharingMode": "hami",
                "sharingModeLabelled": True,
                "labels": {"gshare.io/sharing-mode": "hami", "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"},
                "capacity": {"cpu": "32", "memory": "256Gi", "nvidia.com/gpu": "20", "nvidia.com/gpumem": "163840"},
                "allocatable": {
                    "cpu": "31500m",
                    "memory": "250Gi",
                    "nvidia.com/gpu": "20",
                    "nvidia.com/gpumem": "163840",
                },
                "cards": [
                    {"uuid": "GPU-a", "vramMiB": 81920, "cores": 100, "type": "NVIDIA-A100-SXM4-80GB", "healthy": True},
                    {
                        "uuid": "GPU-b",
                        "vramMiB": 81920,
                        "cores": 100,
                        "type": "NVIDIA-A100-SXM4-80GB",
                        "healthy": False,
                    },
                ],
            },
            {
                "name": "ts-1",
                "ready": False,
                "unschedulable": True,
                "labels": {
                    "nvidia.com/gpu.count": "1",
                    "nvidia.com/gpu.memory": "24576",
                    "nvidia.com/gpu.replicas": "4",
                },
                "capacity": {"nvidia.com/gpu.shared": "4", "nvidia.com/gpu": "1"},
                "allocatable": {"nvidia.com/gpu.shared": "4", "nvidia.com/gpu": "0"},
                "cards": [],
            },
        ],
    }
    gpu, ts = inventory_nodes("c1", inventory)
    assert gpu.id == "c1/gpu-1" and gpu.sharing_mode is SharingMode.HAMI
    assert [c.uuid for c in gpu.cards] == ["GPU-a"]  # the unhealthy card is not offered
    assert gpu.cards[0].model == "A100-SXM4-80GB"
    assert gpu.cpu_millicores == 31500 and gpu.memory_mib == 250 * 1024
    assert ts.sharing_mode is SharingMode.TIMESLICING  # inferred: no sharing-mode label
    assert ts.cards[0].timeslice_replicas == 4
    assert ts.cordoned and not ts.schedulable
    assert ts.stale_resources == ("nvidia.com/gpu",)
    with pytest.raises(ReportInvalid):
        inventory_nodes("c2", inventory)


def test_the_operators_report_instants_keep_their_microseconds() -> None:
    """A pod replaced within the second its node was lost must start its new run after the
    loss: the operator's observedAt and lostAt reach the control plane to the microsecond
    (whole seconds started the new run before the loss; seen failing the production-shape test)."""
    from datetime import UTC, datetime

    from gshare_operator.reconciler import _fmt_precise

    at = datetime(2026, 12, 1, 19, 38, 22, 372772, tzinfo=UTC)
    r = status_report(
        "c1", report(observedAt=_fmt_precise(at), phase="Failed", reason="NodeLost", lostAt=_fmt_precise(at))
    )
    assert r.observed_at == at and r.lost_at == at
