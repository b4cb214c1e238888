"""GPU utilisation and memory per pod from the Prometheus text the node already serves.

Sources (either or both; parsed with `prometheus_client`'s text parser):

- HAMi's vGPU monitor (`hami-device-plugin`'s `vgpu-monitor` container, port 9394): the
  per-container share of each vGPU. Current names `hami_container_device_utilization_ratio`
  (0-100) and `hami_vgpu_memory_used_bytes`, labels `namespace`, `pod`, `container`; the
  legacy names `Device_utilization_desc_of_container` and `vGPU_device_memory_usage_in_bytes`,
  labels `podnamespace`, `podname`, `ctrname` (HAMi `docs/metrics.md`, `--legacy-metrics`).
- NVIDIA dcgm-exporter (port 9400) with its Kubernetes pod mapping on: `DCGM_FI_DEV_GPU_UTIL`
  (%) and `DCGM_FI_DEV_FB_USED` (MiB) per device, labelled with the `namespace`, `pod` and
  `container` using it; `DCGM_FI_PROF_GR_ENGINE_ACTIVE` (0-1) where `GPU_UTIL` is not
  reported (MIG instances).

A pod with several devices gets the mean utilisation and the summed memory. When both sources
name a pod, HAMi's numbers win: on a card shared through HAMi, dcgm-exporter attributes the
whole card's utilisation to every pod on it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gshare_agent.lean import import_alone

MIB = 1024 * 1024


def load_parser_alone() -> None:
    """Load `prometheus_client.parser` without the package's exposition servers (see
    `gshare_agent.lean`); the agent's `main` calls it first."""
    import_alone("prometheus_client.parser")


def _text_parser() -> Callable[[str], Iterable[object]]:
    module = sys.modules.get("prometheus_client.parser") or importlib.import_module("prometheus_client.parser")
    return module.text_string_to_metric_families  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class PodGpu:
    util_percent: float
    memory_mib: int


PodKey = tuple[str, str]  # (namespace, pod name)

# metric name → (kind, namespace label, pod label, scale to % or to bytes)
_HAMI = {
    "hami_container_device_utilization_ratio": ("util", "namespace", "pod", 1.0),
    "hami_vgpu_memory_used_bytes": ("mem", "namespace", "pod", 1.0),
    "Device_utilization_desc_of_container": ("util", "podnamespace", "podname", 1.0),
    "vGPU_device_memory_usage_in_bytes": ("mem", "podnamespace", "podname", 1.0),
}
_DCGM = {
    "DCGM_FI_DEV_GPU_UTIL": ("util", "namespace", "pod", 1.0),
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE": ("util2", "namespace", "pod", 100.0),
    "DCGM_FI_DEV_FB_USED": ("mem", "namespace", "pod", float(MIB)),
}


# what one series (a line's name and labels) means: (kind, pod, device, scale), or None (not wanted)
Meaning = tuple[str, PodKey, str, float] | None


def _meaning(sample: object, table: dict[str, tuple[str, str, str, float]]) -> Meaning:
    entry = table.get(sample.name)  # type: ignore[attr-defined]
    if entry is None:
        return None
    kind, ns_label, pod_label, scale = entry
    labels = sample.labels  # type: ignore[attr-defined]
    # Prometheus re-labels a scraped target's own namespace/pod as exported_*
    ns = labels.get(ns_label) or labels.get(f"exported_{ns_label}")
    pod = labels.get(pod_label) or labels.get(f"exported_{pod_label}")
    if not ns or not pod:
        return None  # a device no pod uses
    device = (
        (labels.get("deviceuuid") or labels.get("device_uuid") or labels.get("UUID") or labels.get("gpu", ""))
        + ":"
        + (labels.get("vdeviceid") or labels.get("vdevice_index") or labels.get("GPU_I_ID", ""))
    )
    return kind, (ns, pod), device, scale


class Scraper:
    """One exporter's text → per-pod GPU numbers, each second.

    An exporter prints the same series (name and labels) every scrape with new values, and most
    of its families are not wanted here. So a line of an unwanted family is skipped on its name,
    and a wanted series' labels are parsed by `prometheus_client`'s parser the first time it is
    seen and remembered (until a scrape no longer has it); later scrapes only read its value."""

    def __init__(self, table: dict[str, tuple[str, str, str, float]]) -> None:
        self._table = table
        self._known: dict[str, Meaning] = {}

    def _parse_series(self, line: str) -> Meaning:
        for family in _text_parser()(line + "\n"):
            for sample in family.samples:  # type: ignore[attr-defined]
                return _meaning(sample, self._table)
        return None

    def __call__(self, text: str) -> dict[PodKey, PodGpu]:
        table, known = self._table, self._known
        seen: dict[str, Meaning] = {}
        util: dict[PodKey, dict[str, float]] = {}
        util2: dict[PodKey, dict[str, float]] = {}
        mem: dict[PodKey, dict[str, float]] = {}
        targets = {"util": util, "util2": util2, "mem": mem}
        for line in text.splitlines():
            brace = line.find("{")
            if brace <= 0 or line[:brace] not in table:
                continue  # a comment, an unwanted family, or a series without labels (no pod)
            close = line.rfind("}")
            series = line[: close + 1]
            meaning = known[series] if series in known else self._parse_series(line)
            seen[series] = meaning
            if meaning is None:
                continue
            kind, key, device, scale = meaning
            value = float(line[close + 1 :].split(maxsplit=1)[0])
            targets[kind].setdefault(key, {})[device] = value * scale
        self._known = seen
        out: dict[PodKey, PodGpu] = {}
        for key in set(util) | set(util2) | set(mem):
            per_device = util.get(key) or util2.get(key) or {}
            mean = sum(per_device.values()) / len(per_device) if per_device else 0.0
            memory = sum(mem.get(key, {}).values())
            out[key] = PodGpu(round(mean, 2), round(memory / MIB))
        return out


def from_hami(text: str) -> dict[PodKey, PodGpu]:
    return Scraper(_HAMI)(text)


def from_dcgm(text: str) -> dict[PodKey, PodGpu]:
    return Scraper(_DCGM)(text)


def hami_scraper() -> Scraper:
    return Scraper(_HAMI)


def dcgm_scraper() -> Scraper:
    return Scraper(_DCGM)


def merged(hami: dict[PodKey, PodGpu] | None, dcgm: dict[PodKey, PodGpu] | None) -> dict[PodKey, PodGpu]:
    return {**(dcgm or {}), **(hami or {})}
