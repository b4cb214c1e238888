"""Level-based reconcile of one GShareSession: compare desired children with actual, close the gap.

Each call reads the session and its children afresh and does only what is missing, so it can
be retried or repeated at any time: children are got-or-created by deterministic name, an
unchanged child (same `gshare.io/spec-hash`) is left alone, status is written only when it
changed, and a phase is reported to the control plane once (the `Reported` condition remembers
what was acknowledged, so a restarted operator does not report it again).

Errors: `TemporaryError` (API conflicts, throttling, 5xx, control plane unreachable) makes the
controller retry with backoff; a `PermanentError` (invalid spec, a child refused by the API
server) is written to the status as phase Failed and reported, and not retried until the
session changes.
"""

from __future__ import annotations

import base64
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kubernetes_asyncio import client
from kubernetes_asyncio.client.exceptions import ApiException

from gshare_operator import children
from gshare_operator.callbacks import CallbackClient, CallbackRefused, CallbackUnavailable
from gshare_operator.constants import (
    ANNOTATION_GENERATION,
    ANNOTATION_SPEC_HASH,
    FINALIZER,
    GROUP,
    LABEL_MANAGED_BY,
    LABEL_SESSION,
    MANAGED_BY,
    PLURAL,
    VERSION,
)
from gshare_operator.ssh import PortsExhausted, SshExposure, SshPorts

log = logging.getLogger(__name__)
JSON = dict[str, Any]
MERGE = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"

PERMANENT_WAITING_REASONS = frozenset({"InvalidImageName", "ErrImageNeverPull", "CreateContainerConfigError"})


class TemporaryError(Exception):
    """Try again later (with backoff)."""


class PermanentError(Exception):
    """Retrying will not help; report it."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(frozen=True)
class ReconcileResult:
    requeue_after: float | None = None


def _retryable(exc: ApiException) -> bool:
    return exc.status in (0, 404, 409, 429) or exc.status >= 500


def _api_failure(exc: ApiException, what: str) -> Exception:
    if _retryable(exc):
        return TemporaryError(f"{what}: {exc.status} {exc.reason}")
    return PermanentError("ApplyRejected", f"{what} refused by the API server: {exc.status} {exc.reason}")


LOG_TAIL_LINES = 100
LOG_TAIL_CHARS = 16 * 1024


def _exit_code(pod: Any) -> int | None:
    for cs in (pod.status.container_statuses if pod.status else None) or []:
        if cs.name == children.CONTAINER_NAME and cs.state and cs.state.terminated:
            return int(cs.state.terminated.exit_code)
    return None


def _fmt(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _fmt_precise(when: datetime) -> str:
    """The instants of a callback report, to the microsecond: the control plane orders reports
    and starts and stops billing clocks by them, and whole seconds (Kubernetes' own status
    format, kept in the CR's status) would start a run up to a second before it started."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class SessionReconciler:
    def __init__(
        self,
        api_client: client.ApiClient,
        settings: children.ChildSettings,
        callbacks: CallbackClient | None = None,
        *,
        pod_grace_seconds: int = 10,
        node_lost_after: float = 60.0,
        finalizer_report_timeout: float = 600.0,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        ssh: SshExposure | None = None,
    ) -> None:
        self._api_client = api_client
        self.ssh = SshPorts(api_client, ssh) if ssh is not None else None
        self.core = client.CoreV1Api(api_client)
        self.networking = client.NetworkingV1Api(api_client)
        self.custom = client.CustomObjectsApi(api_client)
        self.settings = settings
        self.namespace = settings.namespace
        self.callbacks = callbacks
        self._grace = pod_grace_seconds
        self._node_lost_after = node_lost_after
        self._unready_since: dict[str, datetime] = {}
        # node name -> since when it is lost; session (CR) name -> when its node was lost
        self._lost_since: dict[str, datetime] = {}
        self._lost_at: dict[str, datetime] = {}
        self._finalizer_report_timeout = finalizer_report_timeout
        self._clock = clock

    # --- entry point ----------------------------------------------------------------------

    async def reconcile(self, name: str) -> ReconcileResult:
        try:
            cr = await self.custom.get_namespaced_custom_object(GROUP, VERSION, self.namespace, PLURAL, name)
        except ApiException as exc:
            if exc.status == 404:
                return await self._remove_orphans(name)
            raise _api_failure(exc, f"reading session {name}") from exc
        if cr["metadata"].get("deletionTimestamp"):
            return await self._finalize(cr)
        if FINALIZER not in (cr["metadata"].get("finalizers") or []):
            cr = await self._add_finalizer(cr)
        try:
            return await self._converge(cr)
        except PermanentError as exc:
            log.warning("session %s: %s", name, exc.message)
            status = self._failed_status(cr, exc.reason, exc.message)
            await self._publish(cr, status)
            return ReconcileResult()

    # --- convergence ----------------------------------------------------------------------

    async def _converge(self, cr: JSON) -> ReconcileResult:
        try:
            pod_manifest = children.desired_pod(cr, self.settings)
            service = children.desired_service(cr, self.settings)
            ingress = children.desired_ingress(cr, self.settings)
            urls = children.endpoint_urls(cr, self.settings)
        except children.InvalidSession as exc:
            raise PermanentError("InvalidSpec", str(exc)) from exc
        name = cr["metadata"]["name"]
        await self._ensure_secret(cr)
        await self._ensure(
            cr,
            "service",
            service,
            read=lambda: self.core.read_namespaced_service(name, self.namespace),
            create=lambda body: self.core.create_namespaced_service(self.namespace, body),
            patch=lambda body: self.core.patch_namespaced_service(name, self.namespace, body, _content_type=MERGE),
            delete=lambda: self.core.delete_namespaced_service(name, self.namespace),
        )
        await self._ensure(
            cr,
            "ingress",
            ingress,
            read=lambda: self.networking.read_namespaced_ingress(name, self.namespace),
            create=lambda body: self.networking.create_namespaced_ingress(self.namespace, body),
            patch=lambda body: self.networking.patch_namespaced_ingress(
                name, self.namespace, body, _content_type=MERGE
            ),
            delete=lambda: self.networking.delete_namespaced_ingress(name, self.namespace),
        )
        urls = await self._expose_ssh(cr, urls)
        pod, requeue = await self._ensure_pod(cr, pod_manifest)
        if pod is not None and await self._retry_job(cr, pod):
            return ReconcileResult(requeue_after=0.5)
        node_lost = False
        if pod is not None and not pod.metadata.deletion_timestamp:
            health, recheck = await self._node_health(pod)
            node_lost = health == "lost"
            if node_lost:
                # the report says since when: the session is not billed for the time it was not running
                self._lost_at[name] = self._lost_since.get(pod.spec.node_name) or self._clock()
            else:
                self._lost_at.pop(name, None)
            if recheck is not None:
                requeue = recheck if requeue is None else min(requeue, recheck)
        status = self._status(cr, pod, urls, node_lost=node_lost)
        await self._publish(cr, status)
        return ReconcileResult(requeue_after=requeue)

    async def _expose_ssh(self, cr: JSON, urls: list[JSON]) -> list[JSON]:
        """The session's SSH through the ingress controller's TCP services (gshare_operator.ssh)."""
        ssh = next((e for e in children.endpoints(cr) if e["name"] == "ssh"), None)
        if self.ssh is None or ssh is None:
            return urls
        try:
            port = await self.ssh.ensure(self.namespace, cr["metadata"]["name"], ssh["port"])
        except ApiException as exc:
            raise _api_failure(exc, "writing the SSH port") from exc
        except PortsExhausted as exc:
            raise TemporaryError(str(exc)) from exc
        return [{**u, "url": self.ssh.exposure.url(port)} if u["name"] == "ssh" else u for u in urls]

    async def _node_health(self, pod: Any) -> tuple[str, float | None]:
        """ "ok", "suspect" (not Ready for less than `node_lost_after`; recheck after the rest)
        or "lost" (gone, or not Ready for longer): a lost node's sessions are reported Failed."""
        node_name = pod.spec.node_name if pod.spec else None
        if not node_name:
            return "ok", None
        try:
            node = await self.core.read_node(node_name)
        except ApiException as exc:
            if exc.status == 404:
                # gone: since it was last seen not ready, else since this operator noticed
                self._lost_since[node_name] = self._unready_since.get(node_name) or self._lost_since.get(
                    node_name, self._clock()
                )
                return "lost", None
            raise _api_failure(exc, f"reading node {node_name}") from exc
        ready = next((c for c in (node.status.conditions or []) if c.type == "Ready"), None) if node.status else None
        if ready is not None and ready.status == "True":
            self._unready_since.pop(node_name, None)
            self._lost_since.pop(node_name, None)
            return "ok", None
        since = ready.last_transition_time if ready is not None else None
        if not isinstance(since, datetime):
            # No transition time to age: count from when this operator first saw it unready.
            since = self._unready_since.setdefault(node_name, self._clock())
        elif since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        age = (self._clock() - since).total_seconds()
        if age >= self._node_lost_after:
            self._lost_since[node_name] = since
            return "lost", None
        return "suspect", max(0.1, self._node_lost_after - age)

    async def _add_finalizer(self, cr: JSON) -> JSON:
        finalizers = list(cr["metadata"].get("finalizers") or [])
        patch = [
            {"op": "test", "path": "/metadata/resourceVersion", "value": cr["metadata"]["resourceVersion"]},
            {"op": "add", "path": "/metadata/finalizers", "value": [*finalizers, FINALIZER]},
        ]
        try:
            return await self.custom.patch_namespaced_custom_object(
                GROUP,
                VERSION,
                self.namespace,
                PLURAL,
                cr["metadata"]["name"],
                patch,
                _content_type=JSON_PATCH,
            )
        except ApiException as exc:
            if exc.status == 422:  # the test failed: someone else wrote first; start over
                raise TemporaryError("session changed while adding the finalizer") from exc
            raise _api_failure(exc, "adding the finalizer") from exc

    def _owned(self, cr: JSON, obj: Any, what: str) -> None:
        """Refuse to touch an object with our name that belongs to someone else."""
        refs = obj.metadata.owner_references or []
        if any(ref.uid == cr["metadata"]["uid"] for ref in refs):
            return
        if any(ref.kind == "GShareSession" for ref in refs):
            # A child of an earlier session with this name, not yet garbage-collected.
            raise TemporaryError(f"{what} {obj.metadata.name} still belongs to an older session")
        raise PermanentError("NameTaken", f"{what} {obj.metadata.name} exists and is not ours")

    async def _ensure_secret(self, cr: JSON) -> None:
        name = children.secret_name(cr["metadata"]["name"])
        try:
            existing = await self.core.read_namespaced_secret(name, self.namespace)
        except ApiException as exc:
            if exc.status != 404:
                raise _api_failure(exc, f"reading secret {name}") from exc
            try:
                await self.core.create_namespaced_secret(self.namespace, children.desired_secret(cr, self.settings))
            except ApiException as create_exc:
                if create_exc.status == 409:
                    raise TemporaryError(f"secret {name} appeared meanwhile") from create_exc
                raise _api_failure(create_exc, f"creating secret {name}") from create_exc
            return
        self._owned(cr, existing, "secret")
        data = existing.data or {}
        token = base64.b64decode(data.get("token", "")).decode() or None
        if token is None:
            raise PermanentError("SecretDamaged", f"secret {name} has no token")
        desired = children.desired_secret(cr, self.settings, token=token)
        if data != desired["data"]:
            body = {"data": {k: desired["data"].get(k) for k in set(data) | set(desired["data"])}}
            try:
                await self.core.patch_namespaced_secret(name, self.namespace, body, _content_type=MERGE)
            except ApiException as exc:
                raise _api_failure(exc, f"updating secret {name}") from exc

    async def _ensure(
        self,
        cr: JSON,
        what: str,
        desired: JSON | None,
        *,
        read: Callable[[], Any],
        create: Callable[[JSON], Any],
        patch: Callable[[JSON], Any],
        delete: Callable[[], Any],
    ) -> None:
        try:
            existing = await read()
        except ApiException as exc:
            if exc.status != 404:
                raise _api_failure(exc, f"reading {what}") from exc
            existing = None
        if existing is None:
            if desired is None:
                return
            try:
                await create(desired)
            except ApiException as exc:
                if exc.status == 409:
                    raise TemporaryError(f"{what} appeared meanwhile") from exc
                raise _api_failure(exc, f"creating {what}") from exc
            return
        self._owned(cr, existing, what)
        if desired is None:
            try:
                await delete()
            except ApiException as exc:
                if exc.status != 404:
                    raise _api_failure(exc, f"deleting {what}") from exc
            return
        current = (existing.metadata.annotations or {}).get(ANNOTATION_SPEC_HASH)
        if current == desired["metadata"]["annotations"][ANNOTATION_SPEC_HASH]:
            return
        body = {
            "metadata": {
                "labels": desired["metadata"]["labels"],
                "annotations": desired["metadata"]["annotations"],
                "resourceVersion": existing.metadata.resource_version,
            },
            "spec": desired["spec"],
        }
        try:
            await patch(body)
        except ApiException as exc:
            raise _api_failure(exc, f"updating {what}") from exc

    async def _ensure_pod(self, cr: JSON, desired: JSON) -> tuple[Any | None, float | None]:
        name = cr["metadata"]["name"]
        try:
            pod = await self.core.read_namespaced_pod(name, self.namespace)
        except ApiException as exc:
            if exc.status != 404:
                raise _api_failure(exc, f"reading pod {name}") from exc
            pod = None
        if pod is None:
            if self._pod_lost(cr):
                return None, None
            try:
                pod = await self.core.create_namespaced_pod(self.namespace, desired)
            except ApiException as exc:
                if exc.status == 409:
                    raise TemporaryError(f"pod {name} appeared meanwhile") from exc
                raise _api_failure(exc, f"creating pod {name}") from exc
            return pod, None
        self._owned(cr, pod, "pod")
        if pod.metadata.deletion_timestamp:
            return pod, 1.0
        annotations = pod.metadata.annotations or {}
        if annotations.get(ANNOTATION_SPEC_HASH) == desired["metadata"]["annotations"][ANNOTATION_SPEC_HASH]:
            return pod, None
        try:
            built_for = int(annotations.get(ANNOTATION_GENERATION, "0"))
        except ValueError:
            built_for = 0
        if built_for >= int(cr["metadata"].get("generation", 1)):
            # Same session, different rendering (a newer operator): never restart a running
            # session for that; the new rendering applies to the next pod.
            return pod, None
        # The session changed and a pod's spec is immutable: replace it (next pass creates it).
        log.info("session %s changed; replacing its pod", name)
        await self._delete_pod(pod)
        return None, 0.5

    async def _retry_job(self, cr: JSON, pod: Any) -> bool:
        """A job's failed run is retried while runs are left (Kubernetes' Job back-off limit,
        done here so that every session pod stays the operator's): the failed pod is deleted
        and the next pass creates a new one. True when a retry was started."""
        if not children.is_job(cr) or (pod.status.phase if pod.status else None) != "Failed":
            return False
        status = cr.get("status") or {}
        attempts = int(status.get("attempts") or 1)
        if attempts > children.backoff_limit(cr) or pod.metadata.deletion_timestamp:
            return False
        log.info("job %s: run %d failed; retrying", cr["metadata"]["name"], attempts)
        await self._delete_pod(pod)
        await self._write_status(
            cr,
            {
                **status,
                "attempts": attempts + 1,
                "phase": "Pending",
                "reason": "Retrying",
                "message": (f"run {attempts} failed (exit code {_exit_code(pod)}); retrying"),
            },
        )
        return True

    def _pod_lost(self, cr: JSON) -> bool:
        """A pod that ran and vanished is not recreated here: the control plane re-places it
        (a job's failed run being retried excepted)."""
        status = cr.get("status") or {}
        if status.get("observedGeneration") != cr["metadata"].get("generation"):
            return False
        if status.get("reason") == "Retrying":
            return False
        return bool(status.get("startedAt")) or status.get("reason") == "PodLost"

    async def _delete_pod(self, pod: Any) -> None:
        try:
            await self.core.delete_namespaced_pod(
                pod.metadata.name,
                self.namespace,
                grace_period_seconds=self._grace,
                body=client.V1DeleteOptions(preconditions=client.V1Preconditions(uid=pod.metadata.uid)),
            )
        except ApiException as exc:
            if exc.status not in (404, 409):
                raise _api_failure(exc, f"deleting pod {pod.metadata.name}") from exc

    # --- status ---------------------------------------------------------------------------

    def _status(self, cr: JSON, pod: Any | None, urls: list[JSON], *, node_lost: bool = False) -> JSON:
        spec = cr["spec"]
        placement_node = ((spec.get("gpu") or {}).get("placement") or {}).get("node") or spec.get("node")
        previous = cr.get("status") or {}
        scheduled: JSON | None = None
        if pod is None:
            if self._pod_lost(cr):
                phase, reason, message = "Failed", "PodLost", "the session's pod is gone"
            else:
                phase, reason, message = "Pending", "Creating", "creating the session's pod"
        else:
            pod_status = pod.status or client.V1PodStatus()
            conditions = {c.type: c for c in pod_status.conditions or []}
            scheduled = (
                {
                    "status": conditions["PodScheduled"].status,
                    "reason": conditions["PodScheduled"].reason or "Scheduled",
                    "message": conditions["PodScheduled"].message or "",
                }
                if "PodScheduled" in conditions
                else None
            )
            waiting = [cs.state.waiting for cs in pod_status.container_statuses or [] if cs.state and cs.state.waiting]
            ready = "Ready" in conditions and conditions["Ready"].status == "True"
            if pod.metadata.deletion_timestamp:
                phase, reason, message = "Terminating", "PodTerminating", "the pod is stopping"
            elif node_lost:
                phase, reason = "Failed", "NodeLost"
                message = f"node {pod.spec.node_name} is gone or has not been ready for {self._node_lost_after:.0f}s"
            elif pod_status.phase == "Running" and ready:
                phase, reason, message = "Running", "PodReady", ""
            elif pod_status.phase == "Running":
                phase, reason, message = "Starting", "NotReady", "waiting for the session to be ready"
            elif pod_status.phase == "Succeeded":
                phase, reason, message = "Succeeded", "Completed", "the session exited"
            elif pod_status.phase == "Failed":
                phase = "Failed"
                reason = pod_status.reason or "PodFailed"
                message = pod_status.message or "the session's pod failed"
                if _exit_code(pod) is not None:
                    reason, message = "Error", f"the container exited with code {_exit_code(pod)}"
            elif waiting and waiting[0].reason in PERMANENT_WAITING_REASONS:
                phase, reason, message = "Failed", waiting[0].reason, waiting[0].message or ""
            elif scheduled and scheduled["status"] == "False":
                phase, reason, message = "Pending", scheduled["reason"], scheduled["message"]
            elif waiting:
                phase, reason, message = "Starting", waiting[0].reason or "Waiting", waiting[0].message or ""
            else:
                phase, reason, message = "Starting", "ContainerCreating", "starting the session"
        status: JSON = {
            "phase": phase,
            "reason": reason,
            "message": message,
            "observedGeneration": cr["metadata"].get("generation"),
            "accessSecretName": children.secret_name(cr["metadata"]["name"]),
            "endpoints": urls,
        }
        node = (pod.spec.node_name if pod is not None and pod.spec else None) or placement_node
        if node:
            status["node"] = node
        if pod is not None and pod.status and pod.status.pod_ip:
            status["podIP"] = pod.status.pod_ip
        if children.is_job(cr):
            status["attempts"] = int(previous.get("attempts") or 1)
            if pod is not None and phase in ("Succeeded", "Failed") and _exit_code(pod) is not None:
                status["exitCode"] = _exit_code(pod)
        same_generation = previous.get("observedGeneration") == status["observedGeneration"]
        started = previous.get("startedAt") if same_generation else None
        if phase == "Running" and not started:
            start_time = pod.status.start_time if pod is not None and pod.status else None
            started = _fmt(start_time) if isinstance(start_time, datetime) else _fmt(self._clock())
        if started:
            status["startedAt"] = started
        status_conditions = [
            self._condition(previous, "Ready", "True" if phase == "Running" else "False", reason, message, cr),
        ]
        if scheduled is not None:
            status_conditions.append(
                self._condition(
                    previous, "Scheduled", scheduled["status"], scheduled["reason"], scheduled["message"], cr
                )
            )
        reported = self._find_condition(previous, "Reported")
        if reported is not None:
            status_conditions.append(reported)
        status["conditions"] = status_conditions
        return status

    def _failed_status(self, cr: JSON, reason: str, message: str) -> JSON:
        previous = cr.get("status") or {}
        status = {
            "phase": "Failed",
            "reason": reason,
            "message": message,
            "observedGeneration": cr["metadata"].get("generation"),
            "conditions": [self._condition(previous, "Ready", "False", reason, message, cr)],
        }
        reported = self._find_condition(previous, "Reported")
        if reported is not None:
            status["conditions"].append(reported)
        return status

    @staticmethod
    def _find_condition(status: JSON, type_: str) -> JSON | None:
        return next((c for c in status.get("conditions") or [] if c.get("type") == type_), None)

    def _condition(self, previous: JSON, type_: str, value: str, reason: str, message: str, cr: JSON) -> JSON:
        before = self._find_condition(previous, type_)
        changed_at = before["lastTransitionTime"] if before and before.get("status") == value else _fmt(self._clock())
        return {
            "type": type_,
            "status": value,
            "reason": reason or "Unknown",
            "message": message or "",
            "lastTransitionTime": changed_at,
            "observedGeneration": cr["metadata"].get("generation"),
        }

    async def _publish(self, cr: JSON, status: JSON) -> None:
        """Report a new phase to the control plane, then write the status (once, if changed)."""
        error: Exception | None = None
        reported = self._find_condition(status, "Reported")
        if self.callbacks is not None and (
            reported is None or reported.get("status") != "True" or reported.get("reason") != status["phase"]
        ):
            try:
                report = self._report(cr, status)
                if children.is_job(cr) and status["phase"] in ("Succeeded", "Failed"):
                    report["exitCode"] = status.get("exitCode")
                    report["logTail"] = await self._log_tail(cr)
                await self.callbacks.session_status(report)
                outcome = ("True", status["phase"], f"reported {status['phase']} to the control plane")
            except CallbackUnavailable as exc:
                outcome = ("False", "CallbackUnavailable", str(exc))
                error = TemporaryError(str(exc))
            except CallbackRefused as exc:
                outcome = ("False", "CallbackRefused", str(exc))
                log.error("control plane refused the report for %s: %s", cr["metadata"]["name"], exc)
            condition = {
                "type": "Reported",
                "status": outcome[0],
                "reason": outcome[1],
                "message": outcome[2][:1000],
                "lastTransitionTime": _fmt(self._clock()),
                "observedGeneration": cr["metadata"].get("generation"),
            }
            if reported is not None and reported.get("status") == outcome[0] and reported.get("reason") == outcome[1]:
                condition = reported
            status["conditions"] = [c for c in status["conditions"] if c["type"] != "Reported"] + [condition]
        await self._write_status(cr, status)
        if error is not None:
            raise error

    async def _log_tail(self, cr: JSON) -> str | None:
        """The last lines of a finished job's log, sent with its final report (the pod and its
        log go when the control plane deletes the session)."""
        try:
            text = await self.core.read_namespaced_pod_log(
                cr["metadata"]["name"], self.namespace, container=children.CONTAINER_NAME, tail_lines=LOG_TAIL_LINES
            )
        except ApiException as exc:
            log.warning("log of %s unavailable: %s %s", cr["metadata"]["name"], exc.status, exc.reason)
            return None
        return str(text)[-LOG_TAIL_CHARS:]

    async def _write_status(self, cr: JSON, status: JSON) -> None:
        previous = cr.get("status") or {}
        if previous == status:
            return
        body = {"status": {**{k: None for k in previous if k not in status}, **status}}
        try:
            await self.custom.patch_namespaced_custom_object_status(
                GROUP,
                VERSION,
                self.namespace,
                PLURAL,
                cr["metadata"]["name"],
                body,
                _content_type=MERGE,
            )
        except ApiException as exc:
            raise _api_failure(exc, "writing status") from exc

    def _report(self, cr: JSON, status: JSON) -> JSON:
        meta = cr["metadata"]
        return {
            "namespace": self.namespace,
            "name": meta["name"],
            "uid": meta["uid"],
            "sessionId": cr["spec"].get("sessionId"),
            "generation": meta.get("generation"),
            "phase": status["phase"],
            "reason": status.get("reason", ""),
            "message": status.get("message", ""),
            "node": status.get("node"),
            "podIP": status.get("podIP"),
            "startedAt": status.get("startedAt"),
            "endpoints": status.get("endpoints", []),
            "observedAt": _fmt_precise(self._clock()),
            **({"lostAt": _fmt_precise(self._lost_at[meta["name"]])} if meta["name"] in self._lost_at else {}),
        }

    # --- deletion -------------------------------------------------------------------------

    async def _finalize(self, cr: JSON) -> ReconcileResult:
        finalizers = list(cr["metadata"].get("finalizers") or [])
        if FINALIZER not in finalizers:
            return ReconcileResult()
        name = cr["metadata"]["name"]
        remaining = 0
        for what, read, delete in self._children_ops(name):
            try:
                obj = await read()
            except ApiException as exc:
                if exc.status == 404:
                    continue
                raise _api_failure(exc, f"reading {what}") from exc
            refs = obj.metadata.owner_references or []
            if not any(ref.uid == cr["metadata"]["uid"] for ref in refs):
                continue
            remaining += 1
            if obj.metadata.deletion_timestamp:
                if what == "pod" and (await self._node_health(obj))[0] == "lost":
                    # A dead kubelet never confirms the deletion: force it, as the node
                    # lifecycle controller would, so the session's cleanup is not stuck.
                    with contextlib.suppress(ApiException):
                        await self.core.delete_namespaced_pod(name, self.namespace, grace_period_seconds=0)
                continue
            try:
                await delete(obj)
            except ApiException as exc:
                if exc.status not in (404, 409):
                    raise _api_failure(exc, f"deleting {what}") from exc
        if self.ssh is not None:
            try:
                await self.ssh.release(self.namespace, name)
            except ApiException as exc:
                raise _api_failure(exc, "giving back the SSH port") from exc
        if remaining:
            return ReconcileResult(requeue_after=0.5)
        if self.callbacks is not None:
            try:
                await self.callbacks.session_status(
                    self._report(
                        cr,
                        {
                            "phase": "Deleted",
                            "reason": "Deleted",
                            "message": "the session and its children are gone",
                            "node": (cr.get("status") or {}).get("node"),
                        },
                    )
                )
            except CallbackUnavailable as exc:
                if not self._finalizer_overdue(cr):
                    raise TemporaryError(str(exc)) from exc
                log.error("giving up reporting the deletion of %s: %s", name, exc)
            except CallbackRefused as exc:
                log.error("control plane refused the deletion report of %s: %s", name, exc)
        patch = [
            {"op": "test", "path": "/metadata/finalizers", "value": finalizers},
            {"op": "replace", "path": "/metadata/finalizers", "value": [f for f in finalizers if f != FINALIZER]},
        ]
        try:
            await self.custom.patch_namespaced_custom_object(
                GROUP, VERSION, self.namespace, PLURAL, name, patch, _content_type=JSON_PATCH
            )
        except ApiException as exc:
            if exc.status == 404:
                return ReconcileResult()
            if exc.status == 422:
                raise TemporaryError("finalizers changed meanwhile") from exc
            raise _api_failure(exc, "removing the finalizer") from exc
        return ReconcileResult()

    async def _remove_orphans(self, name: str) -> ReconcileResult:
        """The session is gone: children still labelled for it are orphans (their owner
        reference was stripped, e.g. deleted with propagationPolicy=Orphan while no operator
        ran, or never set by an older operator) and are deleted. Only objects this operator
        labelled for this very session; a reconcile of the same name never runs twice at once,
        so a session of that name created again meanwhile cannot lose a child made for it."""
        removed = 0
        for what, read, delete in self._children_ops(name):
            try:
                obj = await read()
            except ApiException as exc:
                if exc.status == 404:
                    continue
                raise _api_failure(exc, f"reading {what}") from exc
            labels = obj.metadata.labels or {}
            if labels.get(LABEL_SESSION) != name or labels.get(LABEL_MANAGED_BY) != MANAGED_BY:
                continue
            if obj.metadata.deletion_timestamp:
                continue
            log.warning("session %s is gone: deleting its orphaned %s", name, what)
            try:
                await delete(obj)
            except ApiException as exc:
                if exc.status not in (404, 409):
                    raise _api_failure(exc, f"deleting orphaned {what}") from exc
            removed += 1
        if removed and self.ssh is not None:
            try:
                await self.ssh.release(self.namespace, name)
            except ApiException as exc:
                raise _api_failure(exc, "giving back the SSH port") from exc
        return ReconcileResult()

    def _finalizer_overdue(self, cr: JSON) -> bool:
        stamp = cr["metadata"].get("deletionTimestamp")
        try:
            since = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
        except ValueError:
            return False
        return (self._clock() - since).total_seconds() > self._finalizer_report_timeout

    def _children_ops(self, name: str) -> list[tuple[str, Callable[[], Any], Callable[[Any], Any]]]:
        ns = self.namespace
        secret = children.secret_name(name)
        return [
            ("pod", lambda: self.core.read_namespaced_pod(name, ns), self._delete_pod),
            (
                "service",
                lambda: self.core.read_namespaced_service(name, ns),
                lambda obj: self.core.delete_namespaced_service(name, ns),
            ),
            (
                "ingress",
                lambda: self.networking.read_namespaced_ingress(name, ns),
                lambda obj: self.networking.delete_namespaced_ingress(name, ns),
            ),
            (
                "secret",
                lambda: self.core.read_namespaced_secret(secret, ns),
                lambda obj: self.core.delete_namespaced_secret(secret, ns),
            ),
        ]
