"""One tick a second: this node's session pods → one batch of samples for the poster."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from gshare_agent import cgroups, gpu
from gshare_agent.kube import KubeClient, KubeError, SessionPod
from gshare_agent.sender import UsagePoster
from gshare_agent.settings import AgentSettings
from gshare_agent.transport import HttpError, Origin

log = logging.getLogger("gshare.agent")
MIB = 1024 * 1024


class MetricsSource:
    """One Prometheus text endpoint on the node, parsed by `parse` into per-pod GPU numbers."""

    def __init__(self, url: str, parse: Callable[[str], dict[gpu.PodKey, gpu.PodGpu]], timeout: float) -> None:
        self.url = url
        self._origin = Origin(url, timeout=timeout)
        self._parse = parse
        self._failing = False

    def read(self) -> dict[gpu.PodKey, gpu.PodGpu] | None:
        try:
            response = self._origin.request("GET", "", headers={"Accept": "text/plain"})
            if response.status != 200:
                raise HttpError(f"answered {response.status}")
            found = self._parse(response.body.decode("utf-8", "replace"))
        except (HttpError, ValueError) as exc:
            if not self._failing:
                log.warning("GPU metrics from %s unavailable: %s", self.url, exc)
            self._failing = True
            return None
        if self._failing:
            log.info("GPU metrics from %s available again", self.url)
        self._failing = False
        return found


class Agent:
    def __init__(
        self,
        settings: AgentSettings,
        kube: KubeClient,
        poster: UsagePoster,
        *,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self._kube = kube
        self._poster = poster
        self._wall = wall
        self._monotonic = monotonic
        self._locator = cgroups.CgroupLocator(settings.cgroup_root)
        self._sources: list[tuple[str, MetricsSource]] = []
        if settings.hami_metrics_url:
            self._sources.append(
                ("hami", MetricsSource(settings.hami_metrics_url, gpu.hami_scraper(), settings.http_timeout))
            )
        if settings.dcgm_metrics_url:
            self._sources.append(
                ("dcgm", MetricsSource(settings.dcgm_metrics_url, gpu.dcgm_scraper(), settings.http_timeout))
            )
        self._pods: list[SessionPod] = []
        self._pods_listed_at: float | None = None
        self._last: dict[str, tuple[float, cgroups.CgroupReading]] = {}
        self._files: dict[str, cgroups.PodFiles] = {}  # pod UID -> its cgroup's open files

    def refresh_pods(self, now: float) -> None:
        if self._pods_listed_at is not None and now - self._pods_listed_at < self.settings.pods_interval:
            return
        try:
            self._pods = self._kube.session_pods(self.settings.namespace, self.settings.node_name)
        except (KubeError, HttpError, ValueError) as exc:
            log.warning("listing this node's session pods failed (keeping the last list): %s", exc)
            return
        self._pods_listed_at = now
        uids = {p.uid for p in self._pods}
        self._locator.forget_except(uids)
        for uid in list(self._last):
            if uid not in uids:
                del self._last[uid]
        for uid in list(self._files):
            if uid not in uids:
                self._files.pop(uid).close()

    def _read(self, uid: str) -> cgroups.CgroupReading | None:
        files = self._files.get(uid)
        if files is None:
            directory = self._locator.find(uid)
            if directory is None:
                return None  # not started yet, or gone
            try:
                files = self._files[uid] = cgroups.PodFiles(directory)
            except OSError:
                return None
        try:
            return files.read()
        except (OSError, ValueError):  # the cgroup went away (ENODEV), or a file not as the kernel writes it
            self._files.pop(uid).close()
            return None

    def _gpu(self) -> dict[gpu.PodKey, gpu.PodGpu]:
        found: dict[str, dict[gpu.PodKey, gpu.PodGpu] | None] = {name: src.read() for name, src in self._sources}
        return gpu.merged(found.get("hami"), found.get("dcgm"))

    def tick(self) -> list[dict[str, Any]]:
        """Sample every session pod once; the batch is handed to the poster and returned.
        A pod's first tick only sets its CPU baseline (millicores need two readings)."""
        mono = self._monotonic()
        self.refresh_pods(mono)
        if not self._pods:
            return []
        at = datetime.fromtimestamp(self._wall(), UTC).isoformat()
        per_pod_gpu = self._gpu() if self._sources else {}
        batch: list[dict[str, Any]] = []
        for pod in self._pods:
            reading = self._read(pod.uid)
            if reading is None:
                self._last.pop(pod.uid, None)
                continue
            previous = self._last.get(pod.uid)
            self._last[pod.uid] = (mono, reading)
            if previous is None:
                continue
            used = per_pod_gpu.get((pod.namespace, pod.name))
            batch.append(
                {
                    "sessionId": pod.session_id,
                    "namespace": pod.namespace,
                    "pod": pod.name,
                    "uid": pod.uid,
                    "at": at,
                    "cpuMillicores": cgroups.millicores(previous[1], reading, mono - previous[0]),
                    "memoryMiB": round(reading.working_set / MIB),
                    "memoryCurrentMiB": round(reading.memory_current / MIB),
                    "gpuUtilPercent": used.util_percent if used else 0.0,
                    "gpuMemoryMiB": used.memory_mib if used else 0,
                }
            )
        self._poster.submit(batch)
        return batch

    def run(self, stop: threading.Event) -> None:
        interval = self.settings.interval
        next_at = self._monotonic()
        while not stop.is_set():
            try:
                self.tick()
            except Exception:
                log.exception("sampling failed")
            next_at += interval
            delay = next_at - self._monotonic()
            if delay < 0:  # fell behind (suspended, slow disk): start again from now
                next_at = self._monotonic()
                delay = 0
            stop.wait(delay)
