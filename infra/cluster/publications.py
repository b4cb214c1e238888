"""What GPU nodes publish, read into domain `Node`s.

A Kubernetes node says what its GPUs are through the components that run on it, each in its
own way; this module reads each as the component writes it and makes up nothing else:

- **HAMi** (Project-HAMi/HAMi): the device plugin registers each card in the node annotation
  `hami.io/node-nvidia-register`, every 30 s, as `uuid,count,devmem,devcore,type,numa,health[,index,mode]:`
  records (pkg/device/devices.go `EncodeNodeDevices`/`DecodeNodeDevices`) or, in newer HAMi, a
  JSON list (`MarshalNodeDevices`; `omitempty`, so a missing `"health"` is false), and stamps
  `hami.io/node-handshake: Reported <time>`; the scheduler answers `Requesting_<time>` and
  writes `Deleted_<time>` when it gives the node up. Allocatable lists only `nvidia.com/gpu`
  (cards × deviceSplitCount): VRAM and cores come from the registration, never from capacity.
- **NVIDIA device plugin + GPU feature discovery** (NVIDIA/k8s-device-plugin): labels
  `nvidia.com/gpu.count` (physical cards), `.product`, `.memory` (MiB), `.replicas`,
  `.sharing-strategy` (`none`, `time-slicing`, `mps`), `nvidia.com/mig.strategy`,
  `nvidia.com/mig.config(.state)` and per MIG profile `nvidia.com/mig-<profile>.count`;
  resources `nvidia.com/gpu`, `nvidia.com/gpu.shared` (time-slicing with `renameByDefault`)
  and, under the mixed strategy, `nvidia.com/mig-<profile>` beside `nvidia.com/gpu` for the
  cards not in MIG mode. No UUIDs, and no word on which card holds which MIG instance.
- **AMD** (ROCm/k8s-device-plugin): `amd.com/gpu` whole devices; the node labeller's
  `amd.com/gpu.product-name` and `amd.com/gpu.vram` (e.g. `192G`).

So: HAMi cards carry their real UUIDs; other cards get placeholders `<cluster>/<node>/gpu-<i>`
(`identified=False`; never sent to a cluster as a pin);
the MIG cards of a mixed-strategy node form one MIG group holding the node's instances
(`physical_count` cards). The sharing mode is what the node serves (a valid HAMi registration,
time-sliced resources, or neither), not what a label asks for: during a mode change the
inventory shows where the node really is.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.inventory.model import (
    MIG_COMPUTE_SLICES,
    MIG_RESOURCE_PREFIX,
    RESOURCE_GPU,
    RESOURCE_GPU_SHARED,
    Card,
    MigInstance,
    MigProfile,
    Node,
    SharingMode,
)

log = logging.getLogger(__name__)

HAMI_REGISTER = "hami.io/node-nvidia-register"
HAMI_HANDSHAKE = "hami.io/node-handshake"
HAMI_ANNOTATIONS = (HAMI_REGISTER, HAMI_HANDSHAKE)
SHARING_MODE_LABEL = "gshare.io/sharing-mode"
AMD_GPU = "amd.com/gpu"
# The node labels an inventory keeps (the operator reports the same ones); the GFD timestamp
# changes on every relabel pass without anything else changing.
INVENTORY_LABEL_PREFIXES = ("gshare.io/", "nvidia.com/", "amd.com/")
INVENTORY_LABELS = frozenset({"gpu"})  # HAMi's device-plugin node selector (`gpu=on`)
VOLATILE_LABELS = frozenset({"nvidia.com/gfd.timestamp"})
GPU_RESOURCE_PREFIXES = ("nvidia.com/", "amd.com/")


def to_int(value: Any, default: int = 0) -> int:
    try:
        return int(float(str(value)))
    except (TypeError, ValueError):
        return default


def parse_quantity(value: Any) -> float:
    text = str(value).strip()
    factors = {
        "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50,
        "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "m": 10**-3,
    }  # fmt: skip
    for suffix in sorted(factors, key=len, reverse=True):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factors[suffix]
    return float(text)


def node_id_for(cluster_id: str, node_name: str) -> str:
    return f"{cluster_id}/{node_name}"


def mig_instance_id(group_uuid: str, profile: str, index: int) -> str:
    return f"{group_uuid}/mig-{profile}/{index}"


def mig_profile_of(instance_id: str) -> str | None:
    match = re.search(r"/mig-([^/]+)/\d+$", instance_id)
    return match.group(1) if match else None


def inventory_labels(labels: Mapping[str, Any]) -> dict[str, str]:
    return {
        str(k): str(v)
        for k, v in sorted(labels.items())
        if (str(k).startswith(INVENTORY_LABEL_PREFIXES) or k in INVENTORY_LABELS) and k not in VOLATILE_LABELS
    }


# --- HAMi ---------------------------------------------------------------------------------------


def hami_devices(annotation: str | None) -> list[dict[str, Any]]:
    """HAMi's device registration, one dict per card: uuid, count (tasks it may take),
    vram_mib, cores, type, healthy. Malformed records are skipped (HAMi's own decoder refuses
    the whole annotation; a report should still show the cards it can read)."""
    if not annotation:
        return []
    text = annotation.strip()
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            log.warning("unreadable JSON HAMi registration")
            return []
        return [
            {
                "uuid": str(d.get("id")),
                "count": to_int(d.get("count")),
                "vram_mib": to_int(d.get("devmem")),
                "cores": to_int(d.get("devcore")),
                "type": str(d.get("type", "")),
                # `omitempty`: HAMi leaves out false, so a missing key is an unhealthy card
                "healthy": d.get("health") is True,
                "mode": str(d.get("mode") or "hami-core"),
            }
            for d in (items if isinstance(items, list) else [])
            if isinstance(d, dict) and d.get("id")
        ]
    devices = []
    for entry in text.split(":"):
        fields = entry.split(",")
        if len(fields) not in (7, 9) or not fields[0]:
            if entry.strip():
                log.warning("skipping malformed HAMi registration record %r", entry[:80])
            continue
        devices.append(
            {
                "uuid": fields[0],
                "count": to_int(fields[1]),
                "vram_mib": to_int(fields[2]),
                "cores": to_int(fields[3]),
                "type": fields[4],
                "healthy": fields[6].strip().lower() == "true",
                "mode": fields[8] if len(fields) == 9 else "hami-core",
            }
        )
    return devices


def hami_serving(annotations: Mapping[str, Any], allocatable: Mapping[str, Any]) -> bool:
    """Whether HAMi serves the node now: a registration the scheduler has not given up
    (`Deleted_…` handshake), and its device plugin's `nvidia.com/gpu` allocatable (a stopped
    plugin leaves the annotation behind; kubelet drops the allocatable to 0)."""
    register = annotations.get(HAMI_REGISTER)
    handshake = str(annotations.get(HAMI_HANDSHAKE) or "")
    return bool(register) and not handshake.startswith("Deleted") and to_int(allocatable.get(RESOURCE_GPU)) > 0


# --- the node -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodePublication:
    """What one node publishes, as read from its object or from an operator's report."""

    name: str
    labels: Mapping[str, Any]
    capacity: Mapping[str, Any]
    allocatable: Mapping[str, Any]
    annotations: Mapping[str, Any]
    unschedulable: bool
    ready: bool


def publication_of(node: Mapping[str, Any]) -> NodePublication:
    """From a Kubernetes Node object (its JSON form)."""
    meta, spec, status = node.get("metadata") or {}, node.get("spec") or {}, node.get("status") or {}
    return NodePublication(
        name=str(meta["name"]),
        labels=meta.get("labels") or {},
        capacity=status.get("capacity") or {},
        allocatable=status.get("allocatable") or {},
        annotations=meta.get("annotations") or {},
        unschedulable=bool(spec.get("unschedulable", False)),
        ready=any(c.get("type") == "Ready" and c.get("status") == "True" for c in status.get("conditions") or []),
    )


def served_sharing_mode(pub: NodePublication) -> SharingMode:
    """The mode the node serves now (see the module docstring)."""
    if hami_serving(pub.annotations, pub.allocatable):
        return SharingMode.HAMI
    labels = pub.labels
    if to_int(pub.allocatable.get(RESOURCE_GPU_SHARED)) > 0 or labels.get("nvidia.com/gpu.sharing-strategy") == (
        "time-slicing"
    ):
        return SharingMode.TIMESLICING
    return SharingMode.EXCLUSIVE


def _model_name(product: str | None, models: Mapping[str, str]) -> str:
    if product and product in models:
        return models[product]
    if not product:
        return "unknown"
    # GFD's product of a time-sliced resource that was not renamed ends in -SHARED
    # (k8s-device-plugin internal/lm/resource.go getProductName): still the same card
    base = product.removesuffix("-SHARED")
    if base in models:
        return models[base]
    return base.removeprefix("NVIDIA-").removeprefix("NVIDIA ").replace(" ", "-")


def _amd_vram_mib(value: Any) -> int:
    """The labeller's `amd.com/gpu.vram` (`192G`, `16G`) in MiB."""
    text = str(value or "").strip()
    match = re.fullmatch(r"(\d+)([GM])", text)
    if match is None:
        return 0
    amount = int(match.group(1))
    return amount * 1024 if match.group(2) == "G" else amount


def _placeholder(name: str, what: str) -> str:
    # a '/' never occurs in a real UUID, so a placeholder can never pass for one
    return f"{name}/{what}"


def is_placeholder(uuid: str) -> bool:
    """Whether a card id is gshare's placeholder rather than the card's real UUID."""
    return "/" in uuid


def _cards(
    node_id: str, pub: NodePublication, mode: SharingMode, labels: Mapping[str, str], models: Mapping[str, str]
) -> list[Card]:
    name, allocatable = pub.name, pub.allocatable
    if mode is SharingMode.HAMI:
        devices = [d for d in hami_devices(pub.annotations.get(HAMI_REGISTER)) if d["healthy"]]
        product = labels.get("nvidia.com/gpu.product")
        return [
            Card(
                uuid=d["uuid"],
                model=_model_name(d["type"] or product, models),
                vram_mib=d["vram_mib"],
                cores=d["cores"] or 100,
            )
            for d in devices
            if d["vram_mib"] > 0
        ]
    amd = to_int(allocatable.get(AMD_GPU))
    if amd > 0:
        vram = _amd_vram_mib(labels.get("amd.com/gpu.vram"))
        if vram <= 0:
            log.warning("node %s lists %s without amd.com/gpu.vram; its cards are left out", name, AMD_GPU)
            return []
        model = _model_name(labels.get("amd.com/gpu.product-name"), models)
        return [Card(_placeholder(node_id, f"gpu-{i}"), model, vram, identified=False) for i in range(amd)]
    vram = to_int(labels.get("nvidia.com/gpu.memory"))
    product = labels.get("nvidia.com/gpu.product")
    if vram <= 0:
        if any(to_int(v) > 0 for k, v in allocatable.items() if str(k).startswith("nvidia.com/")):
            log.warning("node %s has NVIDIA resources but no nvidia.com/gpu.memory label; cards left out", name)
        return []
    model = _model_name(product, models)
    physical = to_int(labels.get("nvidia.com/gpu.count"))
    mig: list[MigProfile] = []
    for resource, amount in sorted(allocatable.items()):
        if mode is SharingMode.TIMESLICING:
            break  # time-sliced MIG instances are not modelled; the cards count as time-sliced
        if str(resource).startswith(MIG_RESOURCE_PREFIX) and not str(resource).endswith(".shared"):
            mig.extend([MigProfile.parse(str(resource).removeprefix(MIG_RESOURCE_PREFIX))] * to_int(amount))
    if mode is SharingMode.TIMESLICING:
        replicas = to_int(labels.get("nvidia.com/gpu.replicas"))
        shared = to_int(allocatable.get(RESOURCE_GPU_SHARED)) or to_int(allocatable.get(RESOURCE_GPU))
        if replicas <= 1 and physical > 0 and shared:
            replicas = max(1, shared // physical)
        whole = physical or (shared // replicas if replicas else 0)
        replicas = max(1, replicas)
    else:
        replicas = 1
        whole = to_int(allocatable.get(RESOURCE_GPU))
    mig_slices = sum(p.compute_slices for p in mig)
    mig_cards = 0
    if mig:
        # the mixed strategy shows the cards not in MIG mode as nvidia.com/gpu; the rest of
        # the physical cards hold the instances (at least as many as their slices need)
        needed = -(-mig_slices // MIG_COMPUTE_SLICES)
        mig_cards = max(needed, physical - whole) if physical else needed
        if mode is SharingMode.TIMESLICING:
            whole = max(0, whole - mig_cards)
    cards = [
        Card(
            _placeholder(node_id, f"gpu-{i}"),
            model,
            vram,
            identified=False,
            timeslice_replicas=replicas if mode is SharingMode.TIMESLICING else 1,
        )
        for i in range(whole)
    ]
    if mig:
        group = _placeholder(node_id, "mig-group")
        counters: dict[str, int] = {}
        instances = []
        for profile in mig:
            index = counters.get(profile.name, 0)
            counters[profile.name] = index + 1
            instances.append(MigInstance(mig_instance_id(group, profile.name, index), profile))
        cards.append(
            Card(group, model, vram, mig_instances=tuple(instances), identified=False, physical_count=mig_cards)
        )
    return cards


def node_from_publication(cluster_id: str, pub: NodePublication, *, models: Mapping[str, str] | None = None) -> Node:
    """A domain `Node` from what the node publishes."""
    models = models or {}
    labels = inventory_labels(pub.labels)
    advertised: dict[str, int] = {}
    for source in (pub.capacity, pub.allocatable):
        for resource, amount in source.items():
            if str(resource).startswith(GPU_RESOURCE_PREFIXES):
                advertised[str(resource)] = max(advertised.get(str(resource), 0), to_int(amount))
    mode = served_sharing_mode(pub)
    node_id = node_id_for(cluster_id, pub.name)
    return Node(
        id=node_id,
        name=pub.name,
        cluster_id=cluster_id,
        sharing_mode=mode,
        cpu_millicores=int(parse_quantity(pub.allocatable.get("cpu", 0)) * 1000),
        memory_mib=int(parse_quantity(pub.allocatable.get("memory", 0)) / 2**20),
        cards=tuple(_cards(node_id, pub, mode, labels, models)),
        labels=labels,
        cordoned=pub.unschedulable,
        schedulable=pub.ready,
        advertised_resources=advertised,
    )
