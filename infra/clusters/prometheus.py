"""Live usage from a cluster's Prometheus, for sites that already scrape cAdvisor and DCGM/HAMi
and run no node agent (`clusterUsageSourceSet`). The `usage.prometheus` job polls each such
cluster's `/api/v1/query` (instant queries, in parallel, an optional bearer token) and feeds the
same UsageStore and `sessionUsage` subscription as the agents (`infra.usage.record_usage`).

The per-pod series (sessions namespace only; the operator names a session's pod `s-<session id>`):

- CPU: `rate(container_cpu_usage_seconds_total[1m])` summed per pod (cAdvisor, via the kubelet),
  × 1000 → millicores; memory: `container_memory_working_set_bytes` summed per pod;
- GPU: HAMi's `hami_container_device_utilization_ratio` / `hami_vgpu_memory_used_bytes` (or the
  legacy `Device_utilization_desc_of_container` / `vGPU_device_memory_usage_in_bytes`), else
  dcgm-exporter's `DCGM_FI_DEV_GPU_UTIL` / `DCGM_FI_DEV_FB_USED` (MiB): utilisation averaged and
  memory summed over a pod's devices, HAMi first (as the agent does).

An exporter scraped as a pod keeps its metrics' own `namespace`/`pod` as `exported_namespace`/
`exported_pod` (Prometheus' honor_labels=false): those are preferred when present.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import httpx

from domain.inventory.ports import UsageSample

log = logging.getLogger(__name__)
MIB = 1024 * 1024
_POD_CONTAINERS = 'container!="", container!="POD"'


def queries(namespace: str) -> dict[str, str]:
    by = "namespace, pod, exported_namespace, exported_pod"
    return {
        "cpu": f'sum by (namespace, pod) (rate(container_cpu_usage_seconds_total{{namespace="{namespace}", {_POD_CONTAINERS}}}[1m]))',
        "memory": f'sum by (namespace, pod) (container_memory_working_set_bytes{{namespace="{namespace}", {_POD_CONTAINERS}}})',
        "hami_util": f"avg by ({by}) (hami_container_device_utilization_ratio)",
        "hami_memory": f"sum by ({by}) (hami_vgpu_memory_used_bytes)",
        "hami_legacy_util": "avg by (podnamespace, podname) (Device_utilization_desc_of_container)",
        "hami_legacy_memory": "sum by (podnamespace, podname) (vGPU_device_memory_usage_in_bytes)",
        "dcgm_util": f"avg by ({by}) (DCGM_FI_DEV_GPU_UTIL)",
        "dcgm_memory": f"sum by ({by}) (DCGM_FI_DEV_FB_USED)",
    }


PodKey = tuple[str, str]


def _pod_of(metric: Mapping[str, str]) -> PodKey | None:
    ns = metric.get("exported_namespace") or metric.get("podnamespace") or metric.get("namespace")
    pod = metric.get("exported_pod") or metric.get("podname") or metric.get("pod")
    return (ns, pod) if ns and pod else None


def vector(answer: Mapping[str, Any]) -> dict[PodKey, float]:
    """An instant query's vector, per pod (a malformed answer raises ValueError)."""
    if answer.get("status") != "success":
        raise ValueError(f"Prometheus answered {answer.get('status')!r}: {answer.get('error')!r}")
    data = answer.get("data") or {}
    if data.get("resultType") != "vector":
        raise ValueError(f"expected a vector, got {data.get('resultType')!r}")
    out: dict[PodKey, float] = {}
    for item in data.get("result") or []:
        key = _pod_of(item.get("metric") or {})
        value = float(item["value"][1])
        if key is not None and math.isfinite(value):
            out[key] = value
    return out


def session_of(namespace: str, pod: str, sessions_namespace: str) -> UUID | None:
    if namespace != sessions_namespace or not pod.startswith("s-"):
        return None
    try:
        return UUID(pod[2:])
    except ValueError:
        return None


def samples_from(
    results: Mapping[str, dict[PodKey, float]], at: datetime, sessions_namespace: str
) -> list[UsageSample]:
    pods = set(results.get("cpu", {})) | set(results.get("memory", {}))
    samples = []
    for key in sorted(pods):
        sid = session_of(key[0], key[1], sessions_namespace)
        if sid is None:
            continue
        util = memory = None
        for u, m, scale in (
            ("hami_util", "hami_memory", 1 / MIB),
            ("hami_legacy_util", "hami_legacy_memory", 1 / MIB),
            ("dcgm_util", "dcgm_memory", 1.0),
        ):
            if key in results.get(u, {}) or key in results.get(m, {}):
                util = results.get(u, {}).get(key, 0.0)
                memory = results.get(m, {}).get(key, 0.0) * scale
                break
        samples.append(
            UsageSample(
                session_id=sid,
                at=at,
                cpu_millicores=max(0, round(results.get("cpu", {}).get(key, 0.0) * 1000)),
                memory_mib=max(0, round(results.get("memory", {}).get(key, 0.0) / MIB)),
                gpu_util_percent=round(max(0.0, util or 0.0), 2),
                gpu_memory_mib=max(0, round(memory or 0.0)),
            )
        )
    return samples


@dataclass
class PrometheusSource:
    cluster_id: str
    url: str
    token: str | None = None
    sessions_namespace: str = "gshare-sessions"
    timeout: float = 5.0

    async def poll(self, http: httpx.AsyncClient, at: datetime) -> list[UsageSample]:
        """One instant of every query (at `at`); a query that fails only loses its metric."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        endpoint = self.url.rstrip("/") + "/api/v1/query"
        wanted = queries(self.sessions_namespace)

        async def one(name: str, query: str) -> tuple[str, dict[PodKey, float]]:
            try:
                r = await http.post(
                    endpoint,
                    data={"query": query, "time": f"{at.timestamp():.3f}"},
                    headers=headers,
                    timeout=self.timeout,
                )
                r.raise_for_status()
                return name, vector(r.json())
            except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError) as exc:
                log.warning("Prometheus of cluster %s: %s failed: %s", self.cluster_id, name, exc)
                return name, {}

        results = dict(await asyncio.gather(*(one(n, q) for n, q in wanted.items())))
        return samples_from(results, at, self.sessions_namespace)
