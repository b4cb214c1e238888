"""The operator's verified reports as domain values.

`CallbackVerifier.verify_report` proves who sent a report; these functions turn its JSON
(documented in `operator/gshare_operator/callbacks.py` and `inventory.py`) into what the core
understands: a `StatusReport` for the session state machine, `Node`s for the inventory.
Node ids are `<cluster>/<node name>`, as in `infra.cluster.kubernetes`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.inventory.model import Node
from domain.inventory.ports import EndpointUrl, StatusReport, WorkloadPhase
from infra.cluster.publications import HAMI_REGISTER, NodePublication, node_from_publication, node_id_for

# Operator phases → workload phases. `Terminating` says nothing new (the control plane asked
# for the deletion, or the pod is being replaced) and is ignored.
PHASES: dict[str, WorkloadPhase | None] = {
    "Pending": WorkloadPhase.SCHEDULED,
    "Starting": WorkloadPhase.STARTING,
    "Running": WorkloadPhase.RUNNING,
    "Failed": WorkloadPhase.FAILED,
    "Succeeded": WorkloadPhase.SUCCEEDED,
    "Deleted": WorkloadPhase.STOPPED,
    "Terminating": None,
}


class ReportInvalid(ValueError):
    """A verified report whose content cannot be used."""


def _when(value: Any) -> datetime:
    if not value:
        return datetime.now(UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError as exc:
        raise ReportInvalid(f"bad timestamp {value!r}") from exc
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def status_report(cluster_id: str, report: Mapping[str, Any]) -> StatusReport | None:
    """The session status a report carries, or None when it changes nothing for the core."""
    if report.get("type") != "session.status":
        raise ReportInvalid("not a session status report")
    if report.get("cluster") != cluster_id:
        raise ReportInvalid("report is about another cluster")
    phase_name = str(report.get("phase"))
    if phase_name not in PHASES:
        raise ReportInvalid(f"unknown phase {phase_name!r}")
    phase = PHASES[phase_name]
    if phase is None:
        return None
    try:
        session_id = UUID(str(report["sessionId"]))
    except (KeyError, ValueError) as exc:
        raise ReportInvalid("report has no valid sessionId") from exc
    node = report.get("node")
    message = str(report.get("message") or "")
    reason = str(report.get("reason") or "")
    return StatusReport(
        session_id=session_id,
        phase=phase,
        observed_at=_when(report.get("observedAt")),
        node_id=node_id_for(cluster_id, str(node)) if node else None,
        endpoints=tuple(
            EndpointUrl(str(e["name"]), str(e["url"]))
            for e in report.get("endpoints") or []
            if isinstance(e, Mapping) and "name" in e and "url" in e
        ),
        message=f"{reason}: {message}" if reason and message else message or reason,
        exit_code=_exit_code(report.get("exitCode")),
        reason=reason[:100],
        lost_at=_when(report["lostAt"]) if report.get("lostAt") else None,
        log_tail=str(report["logTail"]) if isinstance(report.get("logTail"), str) else None,
    )


def _exit_code(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**31) <= value < 2**31:
        raise ReportInvalid(f"bad exitCode {value!r}")
    return value


def inventory_nodes(
    cluster_id: str, report: Mapping[str, Any], *, models: Mapping[str, str] | None = None
) -> tuple[Node, ...]:
    """The nodes an inventory report describes, as domain `Node`s."""
    if report.get("type") != "inventory":
        raise ReportInvalid("not an inventory report")
    if report.get("cluster") != cluster_id:
        raise ReportInvalid("report is about another cluster")
    nodes = []
    for entry in report.get("nodes") or []:
        if not isinstance(entry, Mapping) or not entry.get("name"):
            raise ReportInvalid("inventory entries need a name")
        annotations = dict(entry.get("annotations") or {})
        if HAMI_REGISTER not in annotations and entry.get("cards"):
            # operators before the `annotations` field sent HAMi's cards already parsed
            annotations[HAMI_REGISTER] = json.dumps(
                [
                    {
                        "id": c["uuid"],
                        "devmem": c.get("vramMiB", 0),
                        "devcore": c.get("cores", 100),
                        "type": c.get("type", ""),
                        "health": bool(c.get("healthy", True)),
                    }
                    for c in entry["cards"]
                    if isinstance(c, Mapping) and c.get("uuid")
                ]
            )
        publication = NodePublication(
            name=str(entry["name"]),
            labels=dict(entry.get("labels") or {}),
            capacity=entry.get("capacity") or {},
            allocatable=entry.get("allocatable") or {},
            annotations=annotations,
            unschedulable=bool(entry.get("unschedulable", False)),
            ready=bool(entry.get("ready", False)),
        )
        nodes.append(node_from_publication(cluster_id, publication, models=models))
    return tuple(sorted(nodes, key=lambda n: n.id))


def inventory_claims(report: Mapping[str, Any]) -> dict[UUID, str]:
    """The phases of the volumes' claims an inventory report carries (`volumes`), by volume id;
    an operator before the field reports none."""
    claims: dict[UUID, str] = {}
    entries = report.get("volumes") or []
    if not isinstance(entries, list):
        raise ReportInvalid("volumes must be a list")
    for entry in entries:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("phase"), str):
            raise ReportInvalid("volume entries need a volumeId and a phase")
        try:
            claims[UUID(str(entry.get("volumeId")))] = entry["phase"]
        except ValueError as exc:
            raise ReportInvalid(f"bad volumeId {str(entry.get('volumeId'))[:60]!r}") from exc
    return claims


def inventory_sessions(report: Mapping[str, Any]) -> tuple[frozenset[UUID], datetime] | None:
    """The sessions the cluster has (its GShareSessions) and when they were listed; None from
    an operator before the field."""
    entries = report.get("sessions")
    if entries is None or not report.get("sessionsListedAt"):
        return None
    if not isinstance(entries, list):
        raise ReportInvalid("sessions must be a list")
    try:
        present = frozenset(UUID(str(e)) for e in entries)
    except ValueError as exc:
        raise ReportInvalid("sessions are session ids") from exc
    return present, _when(report.get("sessionsListedAt"))
