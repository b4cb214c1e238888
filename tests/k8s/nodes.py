"""Node objects as real GPU clusters publish them, for the Kubernetes API test server.

Each builder returns the JSON of one `v1.Node` whose labels, annotations, capacity and
allocatable are copied from a recorded real node (a `kubectl describe node` / `get node -o
json` posted in an issue, a project's docs or its own tests). The source of every value is
named beside it; where a record only showed part of a node, the rest is filled in the way the
publishing component computes it (the computation's source is named too), never guessed.

- `hami_node`: HAMi's device plugin (`hami.io/node-nvidia-register` in the nine-field record
  format, `hami.io/node-handshake: Reported …`, `gpu=on`), allocatable `nvidia.com/gpu` =
  cards × deviceSplitCount and, as on every real HAMi node, **no** `nvidia.com/gpumem` /
  `nvidia.com/gpucores` in capacity or allocatable.
- `hami_node_json`: the JSON registration newer HAMi writes (`MarshalNodeDevices`).
- `timesliced_node`: NVIDIA device plugin with time-slicing, `renameByDefault: true`,
  replicas 4 (`nvidia.com/gpu.shared`), labels as GPU feature discovery writes them.
- `mig_node`: MIG mixed strategy: whole cards as `nvidia.com/gpu` beside `nvidia.com/mig-<profile>`
  instances, with GFD's per-profile labels. Nothing on the node says which card holds which
  instance.
- `exclusive_node`: the NVIDIA device plugin without sharing (`nvidia.com/gpu`).
- `amd_node`: ROCm's device plugin and node labeller (`amd.com/gpu`).

Card UUIDs are real ones from the records. Two clusters in one test must not share a card
UUID (capacity is keyed by it), so `uuid_salt` rewrites each UUID's last group
deterministically; nothing else changes.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

JSON = dict[str, Any]

HAMI_REGISTER = "hami.io/node-nvidia-register"
HAMI_HANDSHAKE = "hami.io/node-handshake"

# Project-HAMi/HAMi charts/hami/values.yaml @ 4707fb02c91c545bc7343ce26dba4c32919f9a3e:
# `devicePlugin.deviceSplitCount: 10`, the device plugin's `nvidiaNodeSelector: {gpu: "on"}`,
# `schedulerName: "hami-scheduler"`.
HAMI_SPLIT_COUNT = 10
HAMI_NODE_LABEL = ("gpu", "on")
HAMI_SCHEDULER_NAME = "hami-scheduler"

# HAMi issue #961 (https://github.com/Project-HAMi/HAMi/issues/961), hami-device-plugin log
# "patch node with the following annos": an 8 × H100 node, nine-field records
# `uuid,count,devmem,devcore,type,numa,health,index,mode:` in the order the plugin wrote them.
H100_CARDS: list[tuple[str, int]] = [
    ("GPU-c3699744-0b88-6a13-641d-4f12bed5c1e0", 6),
    ("GPU-f33046e8-f8ce-e356-9bd5-dc371cd3440c", 7),
    ("GPU-d5ce9128-646c-649e-3008-e1eaf764f229", 0),
    ("GPU-31518e05-67f8-316e-6bce-e010baa1cc88", 1),
    ("GPU-994fe2ef-c8c0-a723-e6f9-67dcc3ca7164", 2),
    ("GPU-084020d3-3b49-b252-c6dd-9351a72bc7b1", 3),
    ("GPU-a3efefa9-8d9e-fcd7-eb38-dee51143d163", 4),
    ("GPU-33b5739b-85b3-4279-071b-380e4f936328", 5),
]
H100_TYPE = "NVIDIA-NVIDIA H100 80GB HBM3"  # HAMi prefixes NVML's name with "NVIDIA-" (same log)
H100_DEVMEM = 81559  # MiB, "registeredmem= 81559" (same log)
H100_HANDSHAKE = "Reported 2025-03-27 10:34:13.547080338 +0000 UTC m=+5494.154355430"  # same log

# Project-HAMi/HAMi pkg/scheduler/scheduler_test.go @ 4707fb02c91c545bc7343ce26dba4c32919f9a3e
# (`nvidia.RegisterAnnos: [{"id":"GPU-0","count":10,"devmem":8192,...}]`): the JSON form that
# `device.MarshalNodeDevices` writes. `omitempty` drops false and zero fields, so a card whose
# "health" key is missing is unhealthy (pkg/device/devices.go, `Health bool json:"health,omitempty"`).
HAMI_JSON_REGISTER = [
    {
        "id": "GPU-0",
        "count": 10,
        "devmem": 8192,
        "devcore": 100,
        "type": "NVIDIA-A100",
        "numa": 0,
        "health": True,
        "index": 0,
        "mode": "hami-core",
    },
    {
        "id": "GPU-1",
        "count": 10,
        "devmem": 8192,
        "devcore": 100,
        "type": "NVIDIA-A100",
        "numa": 0,
        "health": True,
        "index": 1,
        "mode": "hami-core",
    },
]

# NVIDIA/k8s-device-plugin pull request #503 (https://github.com/NVIDIA/k8s-device-plugin/pull/503),
# `kubectl get node k8s-device-plugin-cluster-worker -o json | jq .metadata.labels` on a node
# with 8 × V100 and no sharing (GFD only; the volatile gfd.timestamp left out).
V100_GFD_LABELS = {
    "nvidia.com/cuda.driver.major": "515",
    "nvidia.com/cuda.driver.minor": "105",
    "nvidia.com/cuda.driver.rev": "01",
    "nvidia.com/cuda.runtime.major": "11",
    "nvidia.com/cuda.runtime.minor": "7",
    "nvidia.com/gpu.compute.major": "7",
    "nvidia.com/gpu.compute.minor": "0",
    "nvidia.com/gpu.count": "8",
    "nvidia.com/gpu.family": "volta",
    "nvidia.com/gpu.machine": "kind",
    "nvidia.com/gpu.memory": "16384",
    "nvidia.com/gpu.product": "Tesla-V100-SXM2-16GB-N",
    "nvidia.com/gpu.replicas": "1",
    "nvidia.com/gpu.sharing-strategy": "none",
    "nvidia.com/mig.capable": "false",
    "nvidia.com/sharing.mps.enabled": "false",
}

# NVIDIA/gpu-operator issue #637 (https://github.com/NVIDIA/gpu-operator/issues/637): an A100
# 80GB node under the mixed strategy; its allocatable, as recorded.
A100_MIXED_ALLOCATABLE = {
    "nvidia.com/gpu": "2",
    "nvidia.com/mig-1g.10gb": "6",
    "nvidia.com/mig-2g.20gb": "4",
    "nvidia.com/mig-3g.40gb": "0",
}

# ROCm/k8s-device-plugin docs/user-guide/installation.md @ ed7646843003e8f0b6a0630346f01bb4d1ecff2e,
# "Example labels for an AMD MI300X GPU"; resources per docs/user-guide/configuration.md
# ("A node which has 8 GPUs where all GPUs are not partitioned will report amd.com/gpu: 8").
MI300X_LABELS = {
    "amd.com/gpu.cu-count": "304",
    "amd.com/gpu.device-id": "74a1",
    "amd.com/gpu.family": "AI",
    "amd.com/gpu.product-name": "AMD_Instinct_MI300X_OAM",
    "amd.com/gpu.simd-count": "1216",
    "amd.com/gpu.vram": "192G",
}

# HAMi issue #612 (https://github.com/Project-HAMi/HAMi/issues/612): a HAMi GPU node's
# non-GPU capacity and allocatable, as recorded (used as every fixture's host part).
HOST_CAPACITY = {
    "cpu": "160",
    "ephemeral-storage": "3750157048Ki",
    "hugepages-1Gi": "0",
    "hugepages-2Mi": "0",
    "memory": "2113442580Ki",
    "pods": "110",
}
HOST_ALLOCATABLE = {
    "cpu": "160",
    "ephemeral-storage": "3456144729715",
    "hugepages-1Gi": "0",
    "hugepages-2Mi": "0",
    "memory": "2113340180Ki",
    "pods": "110",
}


def salted(uuid: str, salt: str | None) -> str:
    """The UUID with its last group replaced by a hash of (uuid, salt); unchanged without salt."""
    if not salt:
        return uuid
    head, _, tail = uuid.rpartition("-")
    if not head:
        return f"{uuid}-{hashlib.sha256(f'{uuid}/{salt}'.encode()).hexdigest()[:8]}"
    return f"{head}-{hashlib.sha256(f'{uuid}/{salt}'.encode()).hexdigest()[: len(tail)]}"


def _node(name: str, labels: JSON, annotations: JSON, gpu_capacity: JSON, gpu_allocatable: JSON | None = None) -> JSON:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            # kubelet's own labels (HAMi issue #314's node shows the same set)
            "labels": {
                "beta.kubernetes.io/arch": "amd64",
                "beta.kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                **labels,
            },
            "annotations": dict(annotations),
        },
        "spec": {},
        "status": {
            "capacity": {**HOST_CAPACITY, **gpu_capacity},
            "allocatable": {**HOST_ALLOCATABLE, **(gpu_capacity if gpu_allocatable is None else gpu_allocatable)},
            "conditions": [
                {
                    "type": "Ready",
                    "status": "True",
                    "reason": "KubeletReady",
                    "message": "kubelet is posting ready status",
                }
            ],
        },
    }


def hami_register(cards: list[tuple[str, int]], *, devtype: str, devmem: int, salt: str | None = None) -> str:
    """HAMi's nine-field registration (`device.EncodeNodeDevices`, pkg/device/devices.go)."""
    return "".join(
        f"{salted(uuid, salt)},{HAMI_SPLIT_COUNT},{devmem},100,{devtype},0,true,{index},hami-core:"
        for uuid, index in cards
    )


def hami_node(name: str = "hami-h100", *, uuid_salt: str | None = None, cards: int = 8) -> JSON:
    """A HAMi node: the 8 × H100 of HAMi #961 (or its first `cards` cards)."""
    chosen = H100_CARDS[:cards]
    return _node(
        name,
        {HAMI_NODE_LABEL[0]: HAMI_NODE_LABEL[1]},
        {
            HAMI_HANDSHAKE: H100_HANDSHAKE,
            HAMI_REGISTER: hami_register(chosen, devtype=H100_TYPE, devmem=H100_DEVMEM, salt=uuid_salt),
        },
        # HAMi registers cards × deviceSplitCount `nvidia.com/gpu` and nothing else (HAMi #612:
        # "nvidia.com/gpu: 80" and no gpumem on an 8-card node; #579: gpumem is "ignored" by
        # design, a parameter of nvidia.com/gpu, not a schedulable resource)
        {"nvidia.com/gpu": str(len(chosen) * HAMI_SPLIT_COUNT)},
    )


def hami_node_json(name: str = "hami-a100", *, uuid_salt: str | None = None) -> JSON:
    """A HAMi node registered in the JSON format (HAMi's scheduler tests)."""
    devices = [{**d, "id": salted(str(d["id"]), uuid_salt)} for d in HAMI_JSON_REGISTER]
    return _node(
        name,
        {HAMI_NODE_LABEL[0]: HAMI_NODE_LABEL[1]},
        {HAMI_HANDSHAKE: H100_HANDSHAKE, HAMI_REGISTER: json.dumps(devices, separators=(",", ":"))},
        {"nvidia.com/gpu": str(len(devices) * HAMI_SPLIT_COUNT)},
    )


def exclusive_node(name: str = "v100-x8", *, cards: int = 8, product: str | None = None) -> JSON:
    """The NVIDIA device plugin without sharing: 8 × V100 (PR #503's labels), or the same node
    with `cards` of them (GFD's count and the plugin's resource follow the card count) and,
    for tests that need two offerings of one card, another `product` label."""
    labels = {**V100_GFD_LABELS, "nvidia.com/gpu.count": str(cards)}
    if product:
        labels["nvidia.com/gpu.product"] = product
    return _node(name, labels, {}, {"nvidia.com/gpu": str(cards)})


def timesliced_node(name: str = "v100-ts4", *, replicas: int = 4, cards: int = 8) -> JSON:
    """PR #503's node under time-slicing with `renameByDefault: true` and `replicas`.

    GFD's labeler (NVIDIA/k8s-device-plugin internal/lm/resource.go @
    1b826acc6af3079d8923bac395c3124b8861a9a6, `baseLabeler`) writes `<resource>.replicas` and
    `<resource>.sharing-strategy: time-slicing` under the *original* name `nvidia.com/gpu`, and
    leaves the product without the `-SHARED` suffix when the resource is renamed
    (internal/lm/resource_test.go, "renamed does not append suffix"); the plugin then
    advertises cards × replicas `nvidia.com/gpu.shared` and no `nvidia.com/gpu` (README, "With
    CUDA Time-Slicing": 8 GPUs, renameByDefault → "nvidia.com/gpu.shared: 80" for 10 replicas).
    `nvidia.com/device-plugin.config` is the GPU operator's per-node config selector.
    """
    labels = {
        **V100_GFD_LABELS,
        "nvidia.com/gpu.count": str(cards),
        "nvidia.com/gpu.replicas": str(replicas),
        "nvidia.com/gpu.sharing-strategy": "time-slicing",
        "nvidia.com/device-plugin.config": f"time-slicing-{replicas}",
    }
    return _node(name, labels, {}, {"nvidia.com/gpu.shared": str(cards * replicas)})


def mig_node(name: str = "a100-mig") -> JSON:
    """gpu-operator #637's mixed-strategy A100 80GB node.

    Allocatable is the record's. Labels follow GFD's mixed strategy (k8s-device-plugin
    docs/gpu-feature-discovery/README.md, "MIG 'mixed' strategy"; internal/lm/resource.go): per
    profile `nvidia.com/mig-<profile>.count`, `.replicas`, `.sharing-strategy` and `.product`
    (`<model>-MIG-<profile>`, as on prem-research/prem-operator#39's node:
    "nvidia.com/mig-7g.40gb.product: NVIDIA-A100-SXM4-40GB-MIG-7g.40gb"); the record does not
    show the per-profile memory and engine labels, so they are left out. `nvidia.com/gpu.count`
    counts physical cards (k8s-device-plugin#738): 6 × 1g + 4 × 2g = 14 of 7-slice cards is
    two MIG cards, plus the 2 whole ones. Which card holds which instance is published nowhere.
    """
    profiles = {k.removeprefix("nvidia.com/mig-"): int(v) for k, v in A100_MIXED_ALLOCATABLE.items() if "mig-" in k}
    labels: JSON = {
        "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
        "nvidia.com/gpu.count": "4",
        "nvidia.com/gpu.memory": "81920",
        "nvidia.com/gpu.replicas": "1",
        "nvidia.com/gpu.sharing-strategy": "none",
        "nvidia.com/gpu.family": "ampere",
        "nvidia.com/mig.capable": "true",
        "nvidia.com/mig.strategy": "mixed",
        "nvidia.com/mig.config": "custom-config",
        "nvidia.com/mig.config.state": "success",
    }
    for profile, count in profiles.items():
        if count:
            labels[f"nvidia.com/mig-{profile}.count"] = str(count)
            labels[f"nvidia.com/mig-{profile}.replicas"] = "1"
            labels[f"nvidia.com/mig-{profile}.sharing-strategy"] = "none"
            labels[f"nvidia.com/mig-{profile}.product"] = f"NVIDIA-A100-SXM4-80GB-MIG-{profile}"
    return _node(name, labels, {}, dict(A100_MIXED_ALLOCATABLE))


def amd_node(name: str = "mi300x-x8") -> JSON:
    """ROCm's device plugin and node labeller on an 8 × MI300X node."""
    return _node(name, dict(MI300X_LABELS), {}, {"amd.com/gpu": "8"})


def with_labels(node: JSON, labels: dict[str, str]) -> JSON:
    """A copy of `node` with extra labels."""
    out = copy.deepcopy(node)
    out["metadata"]["labels"].update(labels)
    return out


def real_nodes(*, uuid_salt: str | None = None) -> list[JSON]:
    """One node of each kind, as a cluster with all of them would list them."""
    return [
        hami_node(uuid_salt=uuid_salt),
        timesliced_node(),
        mig_node(),
        exclusive_node(),
        amd_node(),
    ]
