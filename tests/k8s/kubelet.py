"""A test kubelet (and scheduler) for the test API server.

It plays the parts a cluster would, through kubernetes-asyncio over HTTP:

- **kube-scheduler** for pods of the default scheduler: binds each pending pod to the node its
  `nodeName` or `nodeSelector["kubernetes.io/hostname"]` names (the `pods/binding`
  subresource), and refuses (`PodScheduled=False, Unschedulable`) a node that does not exist or
  whose allocatable lacks room for an extended resource the pod asks for, counting what the
  pods already bound there hold (NodeResourcesFit: a resource the node does not list at all
  is "Insufficient" too).
- **HAMi's scheduler** for pods whose `schedulerName` is HAMi's (`hami-scheduler` by default):
  `nvidia.com/gpu` cards with `nvidia.com/gpumem` MiB (the whole card when unset) and
  `nvidia.com/gpucores` percent each, fitted against the node's `hami.io/node-nvidia-register`
  registration (per card: at most `count` tasks, devmem, devcore, 100 cores = exclusive)
  minus what the other pods' `hami.io/vgpu-devices-allocated` hold, restricted by
  `nvidia.com/use-gpuuuid`; the decision is written as HAMi does (protocol.md,
  Project-HAMi/HAMi docs/develop/protocol.md: `hami.io/vgpu-devices-to-allocate`,
  `hami.io/vgpu-node`, `hami.io/vgpu-time`; the device plugin's `hami.io/vgpu-devices-allocated`).
  gpumem and gpucores are not in the node's allocatable and, as kubelet's admission does for
  extended resources a scheduler extender manages, are not checked against it.
- **kubelet**: reports the pod Running through the status subresource (phase, conditions,
  podIP, hostIP, startTime, containerStatuses). A pod with `restartPolicy: Never` whose
  container has a `command` is a job: the command (with `args` and `env`) is really run as a
  local process; its output becomes the container log (served by the API server's
  `pods/<name>/log`), and its exit code ends the pod `Succeeded` (0) or `Failed` with the
  container's `terminated.exitCode`. Deleting the pod kills the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from kubernetes_asyncio import client, watch
from kubernetes_asyncio.client.exceptions import ApiException

from infra.cluster.publications import HAMI_REGISTER, hami_devices

if TYPE_CHECKING:
    from tests.k8s.apiserver import KubeApiServer

log = logging.getLogger(__name__)
HOSTNAME_LABEL = "kubernetes.io/hostname"
HAMI_GPU, HAMI_MEM, HAMI_CORES = "nvidia.com/gpu", "nvidia.com/gpumem", "nvidia.com/gpucores"
HAMI_ALLOCATED = "hami.io/vgpu-devices-allocated"
HAMI_TO_ALLOCATE = "hami.io/vgpu-devices-to-allocate"
TERMINAL_PHASES = ("Succeeded", "Failed")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _quantity(value: Any) -> float:
    text = str(value)
    units = {
        "Ki": 2**10,
        "Mi": 2**20,
        "Gi": 2**30,
        "Ti": 2**40,
        "k": 1e3,
        "M": 1e6,
        "G": 1e9,
        "m": 1e-3,
    }
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


class Kubelet:
    __test__ = False

    def __init__(
        self,
        api_client: client.ApiClient,
        namespace: str = "gshare-sessions",
        *,
        start: bool = True,
        server: KubeApiServer | None = None,
        hami_scheduler: str = "hami-scheduler",
        run_jobs: bool = True,
        job_timeout: float = 60.0,
    ) -> None:
        self.api_client = api_client
        self.core = client.CoreV1Api(api_client)
        self.namespace = namespace
        self.start_pods = start
        self.server = server
        self.hami_scheduler = hami_scheduler
        self.run_jobs = run_jobs
        self.job_timeout = job_timeout
        self._task: asyncio.Task[None] | None = None
        self._ip = 10
        self.started: list[str] = []
        self._processes: dict[str, asyncio.Task[None]] = {}
        self._started_uids: set[str] = set()
        self._killed: set[asyncio.Task[None]] = set()
        self.exit_codes: dict[str, int] = {}
        self._retries: set[str] = set()
        self._retry_tasks: set[asyncio.Task[None]] = set()

    # --- one-shot -------------------------------------------------------------------------

    async def sync_once(self) -> list[str]:
        """Schedule and start every pending pod; return the names of pods started."""
        pods = await self.core.list_namespaced_pod(self.namespace)
        started = []
        for pod in pods.items:
            if await self.handle(self.api_client.sanitize_for_serialization(pod)):
                started.append(pod.metadata.name)
        return started

    async def handle(self, pod: dict[str, Any]) -> bool:
        """Schedule and start one pod given as its JSON form; True if it was started."""
        meta, spec, status = pod["metadata"], pod.get("spec") or {}, pod.get("status") or {}
        if meta.get("deletionTimestamp") or status.get("phase") not in (None, "Pending"):
            return False
        if not spec.get("nodeName") and not await self._claims_bound(pod):
            self._retry_later(meta["name"])  # kube-scheduler retries when the claim changes
            return False
        node_name = spec.get("nodeName")
        if not node_name:
            target = (spec.get("nodeSelector") or {}).get(HOSTNAME_LABEL)
            if not target:
                return False
            if spec.get("schedulerName") == self.hami_scheduler:
                if not await self._hami_schedule(pod, target):
                    return False
            elif not await self._fits(pod, target):
                return False
            await self.core.create_namespaced_pod_binding(
                meta["name"],
                self.namespace,
                client.V1Binding(
                    metadata=client.V1ObjectMeta(name=meta["name"]),
                    target=client.V1ObjectReference(kind="Node", name=target),
                ),
                # The API answers with a Status, which the generated V1Binding model refuses.
                _preload_content=False,
            )
            node_name = target
        if self.start_pods:
            if meta.get("uid") in self._started_uids:
                return False  # an event older than our own Running (watch events lag behind)
            self._started_uids.add(meta.get("uid", ""))
            await self.mark_running(meta["name"], node_name)
            if self.run_jobs and spec.get("restartPolicy") == "Never" and self._job_command(pod):
                self._processes[meta["name"]] = asyncio.create_task(self._run_job(pod), name=f"job-{meta['name']}")
            return True
        return False

    # --- scheduling -------------------------------------------------------------------------

    def _retry_later(self, name: str, delay: float = 0.2) -> None:
        if self._task is None or name in self._retries:
            return

        async def retry() -> None:
            await asyncio.sleep(delay)
            self._retries.discard(name)
            try:
                pod = await self.core.read_namespaced_pod(name, self.namespace)
                await self.handle(self.api_client.sanitize_for_serialization(pod))
            except ApiException as exc:
                if exc.status not in (404, 409):
                    raise

        self._retries.add(name)
        task = asyncio.create_task(retry(), name=f"retry-{name}")
        self._retry_tasks.add(task)
        task.add_done_callback(self._retry_tasks.discard)

    async def _claims_bound(self, pod: dict[str, Any]) -> bool:
        """kube-scheduler's VolumeBinding filter: a pod whose claim does not exist, or is not
        Bound (and its class binds immediately), is not scheduled; the messages are
        kube-scheduler's (pkg/scheduler/framework/plugins/volumebinding)."""
        for volume in pod["spec"].get("volumes") or []:
            claim = (volume.get("persistentVolumeClaim") or {}).get("claimName")
            if not claim:
                continue
            try:
                pvc = await self.core.read_namespaced_persistent_volume_claim(claim, self.namespace)
            except ApiException as exc:
                if exc.status == 404:
                    await self._unschedulable(
                        pod, f'0/1 nodes are available: persistentvolumeclaim "{claim}" not found.'
                    )
                    return False
                raise
            if (pvc.status.phase if pvc.status else None) != "Bound":
                await self._unschedulable(
                    pod, "0/1 nodes are available: 1 pod has unbound immediate PersistentVolumeClaims."
                )
                return False
        return True

    async def _node(self, pod: dict[str, Any], node_name: str) -> Any | None:
        try:
            return await self.core.read_node(node_name)
        except ApiException as exc:
            if exc.status == 404:
                await self._unschedulable(pod, f'node "{node_name}" not found')
                return None
            raise

    async def _pods_on(self, node_name: str, other_than: str) -> list[Any]:
        pods = await self.core.list_pod_for_all_namespaces(field_selector=f"spec.nodeName={node_name}")
        return [
            p
            for p in pods.items
            if p.metadata.name != other_than and (p.status.phase if p.status else None) not in TERMINAL_PHASES
        ]

    @staticmethod
    def _limits(containers: list[Any]) -> dict[str, float]:
        total: dict[str, float] = {}
        for container in containers:
            res = container.get("resources") if isinstance(container, dict) else container.resources
            limits = (res.get("limits") if isinstance(res, dict) else (res.limits if res else None)) or {}
            for resource, amount in limits.items():
                total[resource] = total.get(resource, 0.0) + _quantity(amount)
        return total

    async def _fits(self, pod: dict[str, Any], node_name: str) -> bool:
        node = await self._node(pod, node_name)
        if node is None:
            return False
        allocatable = (node.status.allocatable if node.status else None) or {}
        asked = {r: v for r, v in self._limits(pod["spec"].get("containers") or []).items() if "/" in r}
        if not asked:
            return True
        held: dict[str, float] = {}
        for other in await self._pods_on(node_name, pod["metadata"]["name"]):
            for r, v in self._limits(other.spec.containers or []).items():
                held[r] = held.get(r, 0.0) + v
        for resource, amount in sorted(asked.items()):
            if _quantity(allocatable.get(resource, 0)) - held.get(resource, 0.0) < amount:
                await self._unschedulable(pod, f"0/1 nodes are available: 1 Insufficient {resource}.")
                return False
        return True

    async def _hami_schedule(self, pod: dict[str, Any], node_name: str) -> bool:
        """HAMi's filter and bind for one pod on one node (see the module docstring)."""
        node = await self._node(pod, node_name)
        if node is None:
            return False
        meta = pod["metadata"]
        devices = [d for d in hami_devices((node.metadata.annotations or {}).get(HAMI_REGISTER)) if d["healthy"]]
        if not devices:
            await self._unschedulable(pod, f"node {node_name} has no HAMi-registered device")
            return False
        used: dict[str, list[tuple[int, int]]] = {d["uuid"]: [] for d in devices}
        for other in await self._pods_on(node_name, meta["name"]):
            for entry in ((other.metadata.annotations or {}).get(HAMI_ALLOCATED) or "").replace(";", ":").split(":"):
                fields = entry.split(",")
                if len(fields) == 4 and fields[0] in used:
                    used[fields[0]].append((int(fields[2]), int(fields[3])))
        annotations = meta.get("annotations") or {}
        wanted = [u for u in (annotations.get("nvidia.com/use-gpuuuid") or "").split(",") if u]
        excluded = {u for u in (annotations.get("nvidia.com/nouse-gpuuuid") or "").split(",") if u}
        chosen_all: list[str] = []
        for container in pod["spec"].get("containers") or []:
            limits = {k: _quantity(v) for k, v in ((container.get("resources") or {}).get("limits") or {}).items()}
            count = int(limits.get(HAMI_GPU, 0))
            if count == 0:
                continue
            chosen = []
            for d in devices:
                if len(chosen) == count:
                    break
                if (wanted and d["uuid"] not in wanted) or d["uuid"] in excluded:
                    continue
                mem = int(limits.get(HAMI_MEM, d["vram_mib"]))
                cores = int(limits.get(HAMI_CORES, 0))
                tasks = used[d["uuid"]]
                if len(tasks) >= d["count"] or any(c >= 100 for _, c in tasks) or (cores >= 100 and tasks):
                    continue
                if sum(m for m, _ in tasks) + mem > d["vram_mib"] or sum(c for _, c in tasks) + cores > d["cores"]:
                    continue
                chosen.append(f"{d['uuid']},NVIDIA,{mem},{cores}")
                tasks.append((mem, cores))
            if len(chosen) < count:
                await self._unschedulable(pod, f"0/1 nodes are available: 1 CardInsufficient on {node_name} (HAMi).")
                return False
            chosen_all.append("".join(f"{c}:" for c in chosen) + ";")
        decision = "".join(chosen_all)
        await self.core.patch_namespaced_pod(
            meta["name"],
            self.namespace,
            {
                "metadata": {
                    "annotations": {
                        HAMI_TO_ALLOCATE: decision,
                        HAMI_ALLOCATED: decision,
                        "hami.io/vgpu-node": node_name,
                        "hami.io/vgpu-time": str(int(time.time())),
                    }
                }
            },
        )
        return True

    async def _unschedulable(self, pod: dict[str, Any], message: str) -> None:
        conditions = (pod.get("status") or {}).get("conditions") or []
        if any(
            c.get("type") == "PodScheduled" and c.get("status") == "False" and c.get("message") == message
            for c in conditions
        ):
            return  # as Kubernetes: a condition that does not change is not written again
        await self.core.patch_namespaced_pod_status(
            pod["metadata"]["name"],
            self.namespace,
            {
                "status": {
                    "conditions": [
                        {
                            "type": "PodScheduled",
                            "status": "False",
                            "reason": "Unschedulable",
                            "message": message,
                            "lastTransitionTime": _now(),
                        }
                    ]
                }
            },
        )

    async def mark_running(self, name: str, node_name: str | None = None) -> None:
        pod = await self.core.read_namespaced_pod(name, self.namespace)
        node_name = node_name or pod.spec.node_name
        self._ip += 1
        now = _now()
        await self.core.patch_namespaced_pod_status(
            name,
            self.namespace,
            {
                "status": {
                    "phase": "Running",
                    "hostIP": "192.168.0.1",
                    "podIP": f"10.244.0.{self._ip}",
                    "podIPs": [{"ip": f"10.244.0.{self._ip}"}],
                    "startTime": now,
                    "conditions": [
                        {"type": t, "status": "True", "lastTransitionTime": now}
                        for t in ("PodScheduled", "Initialized", "ContainersReady", "Ready")
                    ],
                    "containerStatuses": [
                        {
                            "name": c.name,
                            "image": c.image,
                            "imageID": f"{c.image}@sha256:{'0' * 64}",
                            "ready": True,
                            "started": True,
                            "restartCount": 0,
                            "state": {"running": {"startedAt": now}},
                        }
                        for c in pod.spec.containers
                    ],
                }
            },
        )
        self.started.append(name)
        log.debug("pod %s running on %s", name, node_name)

    # --- jobs -------------------------------------------------------------------------------

    @staticmethod
    def _job_command(pod: dict[str, Any]) -> list[str]:
        containers = pod["spec"].get("containers") or []
        if not containers:
            return []
        return [*(containers[0].get("command") or []), *(containers[0].get("args") or [])]

    async def _run_job(self, pod: dict[str, Any]) -> None:
        name = pod["metadata"]["name"]
        container = pod["spec"]["containers"][0]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        env.update({e["name"]: str(e.get("value", "")) for e in container.get("env") or [] if "value" in e})
        started = _now()
        try:
            process = await asyncio.create_subprocess_exec(
                *self._job_command(pod),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # a process group of its own: the container, killed whole
            )
        except OSError as exc:
            # what the runtime reports when the executable does not exist
            self._log(name, container["name"], f"exec {container.get('command')}: {exc.strerror}\n")
            await self.mark_terminated(name, 128, started, reason="StartError")
            return
        try:
            assert process.stdout is not None
            async with asyncio.timeout(self.job_timeout):
                async for line in process.stdout:
                    self._log(name, container["name"], line.decode(errors="replace"))
                code = await process.wait()
        except (TimeoutError, asyncio.CancelledError):
            # every process of the container, as a runtime stops it: killing only the first left
            # its children (`sh -c "sleep 30"`) holding the output pipe open until they ended
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.communicate()  # to EOF, so that its pipe is closed with the loop still running
            raise
        self.exit_codes[name] = code
        with contextlib.suppress(ApiException):
            await self.mark_terminated(name, code, started)

    def _log(self, pod: str, container: str, text: str) -> None:
        if self.server is not None:
            self.server.append_log(self.namespace, pod, container, text)

    def write_log(self, pod: str, text: str, container: str | None = None) -> None:
        """What a (non-job) container prints, e.g. a session's JupyterLab."""
        self._log(pod, container or "session", text)

    async def mark_terminated(self, name: str, exit_code: int, started: str, reason: str | None = None) -> None:
        pod = await self.core.read_namespaced_pod(name, self.namespace)
        now = _now()
        phase = "Succeeded" if exit_code == 0 else "Failed"
        await self.core.patch_namespaced_pod_status(
            name,
            self.namespace,
            {
                "status": {
                    "phase": phase,
                    "conditions": [
                        {"type": t, "status": "False", "reason": "PodCompleted", "lastTransitionTime": now}
                        for t in ("Ready", "ContainersReady")
                    ],
                    "containerStatuses": [
                        {
                            "name": c.name,
                            "image": c.image,
                            "imageID": f"{c.image}@sha256:{'0' * 64}",
                            "ready": False,
                            "started": False,
                            "restartCount": 0,
                            "state": {
                                "terminated": {
                                    "exitCode": exit_code,
                                    "reason": reason or ("Completed" if exit_code == 0 else "Error"),
                                    "startedAt": started,
                                    "finishedAt": now,
                                }
                            },
                        }
                        for c in pod.spec.containers
                    ],
                }
            },
        )

    def _forget(self, name: str) -> None:
        task = self._processes.pop(name, None)
        if task is not None and not task.done():
            task.cancel()
            self._killed.add(task)

    async def mark_failed(self, name: str, reason: str = "Error", message: str = "") -> None:
        await self.core.patch_namespaced_pod_status(
            name,
            self.namespace,
            {"status": {"phase": "Failed", "reason": reason, "message": message}},
        )

    # --- background -----------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            w = watch.Watch()
            try:
                async for event in w.stream(self.core.list_namespaced_pod, self.namespace):
                    raw = event["raw_object"]
                    if event["type"] == "DELETED" or (raw.get("metadata") or {}).get("deletionTimestamp"):
                        self._forget(raw["metadata"]["name"])
                    elif event["type"] in ("ADDED", "MODIFIED"):
                        try:
                            await self.handle(event["raw_object"])
                        except ApiException as exc:
                            if exc.status not in (404, 409):
                                raise
            except ApiException as exc:
                log.warning("test kubelet watch ended: %s", exc.status)
                await asyncio.sleep(0.05)
            finally:
                await w.close()

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name="test-kubelet")

    async def stop(self) -> None:
        for name in list(self._processes):
            self._forget(name)
        await asyncio.gather(*self._killed, return_exceptions=True)  # the killed processes are reaped
        for task in list(self._retry_tasks):
            task.cancel()
        await asyncio.gather(*self._retry_tasks, return_exceptions=True)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
