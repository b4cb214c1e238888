"""Test doubles of the GPU plug-ins that publish a node's GPUs, reacting to node labels the way
the real ones do (so a sharing-mode change can be run against them).

- `NvidiaDevicePlugin`: NVIDIA's device plugin and GPU feature discovery as the GPU operator
  deploys them (NVIDIA/k8s-device-plugin README, "Updating Per-Node Configuration With a Node
  Label"; NVIDIA/gpu-operator's `nvidia.com/gpu.deploy.device-plugin` node label). With
  `nvidia.com/device-plugin.config: time-slicing-<n>` (a config of
  deploy/device-plugin/nvidia-device-plugin-config.yaml: renameByDefault, n replicas) the
  plugin restarts and advertises cards × n `nvidia.com/gpu.shared`; GFD relabels
  `nvidia.com/gpu.replicas: n` and `nvidia.com/gpu.sharing-strategy: time-slicing`. Without a
  config it advertises `nvidia.com/gpu` = cards (replicas 1, strategy none). With
  `nvidia.com/gpu.deploy.device-plugin: false` it is not running.
- `HamiDevicePlugin`: HAMi's device plugin, deployed on nodes labelled `gpu=on` (HAMi chart
  `devicePlugin.nvidiaNodeSelector`): registers the cards in `hami.io/node-nvidia-register`
  (nine-field records), stamps `hami.io/node-handshake: Reported <time>` and advertises cards ×
  deviceSplitCount `nvidia.com/gpu` (pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go).
  `healthy=False` plays a plugin that never comes up (for the rollback).

When a plugin stops, kubelet keeps its resource in capacity and drops the allocatable to 0
(what a stale resource looks like); the annotations HAMi wrote stay until someone removes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import UTC, datetime
from typing import Any

from kubernetes_asyncio import client

from tests.k8s.nodes import HAMI_HANDSHAKE, HAMI_REGISTER, HAMI_SPLIT_COUNT, hami_register

SHARED = "nvidia.com/gpu.shared"
GPU = "nvidia.com/gpu"


def hami_reported() -> str:
    """A handshake as HAMi writes it: `"Reported " + time.Now().String()` (Go's format)."""
    now = datetime.now(UTC)
    return f"Reported {now:%Y-%m-%d %H:%M:%S}.{now.microsecond:06d}000 +0000 UTC m=+{time.monotonic():.9f}"


class _Plugin:
    def __init__(self, api: client.ApiClient, node_name: str, *, poll: float = 0.02, restart_delay: float = 0.05):
        self._core = client.CoreV1Api(api)
        self.node_name = node_name
        self._poll = poll
        self._restart_delay = restart_delay
        self._task: asyncio.Task[None] | None = None

    async def _node(self) -> tuple[dict[str, str], dict[str, str], dict[str, str], dict[str, str]]:
        node = await self._core.read_node(self.node_name)
        return (
            dict(node.metadata.labels or {}),
            dict(node.metadata.annotations or {}),
            dict(node.status.capacity or {}),
            dict(node.status.allocatable or {}),
        )

    async def _status(self, capacity: dict[str, str], allocatable: dict[str, str]) -> None:
        await self._core.patch_node_status(
            self.node_name, {"status": {"capacity": capacity, "allocatable": allocatable}}
        )

    async def sync_once(self) -> None:
        raise NotImplementedError

    async def _run(self) -> None:
        while True:
            await self.sync_once()
            await asyncio.sleep(self._poll)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"{type(self).__name__}-{self.node_name}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


class NvidiaDevicePlugin(_Plugin):
    def __init__(
        self,
        api: client.ApiClient,
        node_name: str,
        *,
        cards: int,
        gfd_labels: dict[str, str] | None = None,
        comes_back: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(api, node_name, **kwargs)
        self.cards = cards
        # what GFD labels about the cards themselves (product, count, memory …), where the
        # node did not carry them yet
        self.gfd_labels = dict(gfd_labels or {})
        self._config: str | None = "unset"
        self.comes_back = comes_back  # False: once stopped, it never starts again (a broken rollout)
        self._dead = False

    async def sync_once(self) -> None:
        if self._dead:
            return
        labels, _, capacity, allocatable = await self._node()
        deployed = labels.get("nvidia.com/gpu.deploy.device-plugin", "true") != "false"
        config = labels.get("nvidia.com/device-plugin.config") if deployed else "not-deployed"
        if config != self._config:
            first = self._config == "unset"
            self._config = config
            if not deployed:
                # the plugin stopped: kubelet keeps its resources in capacity, 0 allocatable
                if not first:
                    await self._status({}, {r: "0" for r in (GPU, SHARED) if r in capacity})
                    self._dead = not self.comes_back
                return
            await asyncio.sleep(self._restart_delay)  # the plugin restarts with its new config
        if not deployed:
            return
        if config and config.startswith("time-slicing-"):
            replicas = int(config.rsplit("-", 1)[1])
            want_labels = {"nvidia.com/gpu.replicas": str(replicas), "nvidia.com/gpu.sharing-strategy": "time-slicing"}
            want_alloc = {SHARED: str(self.cards * replicas), **({GPU: "0"} if GPU in capacity else {})}
            want_cap = {SHARED: str(self.cards * replicas)}
        else:
            want_labels = {"nvidia.com/gpu.replicas": "1", "nvidia.com/gpu.sharing-strategy": "none"}
            want_alloc = {GPU: str(self.cards), **({SHARED: "0"} if SHARED in capacity else {})}
            want_cap = {GPU: str(self.cards)}
        if any(allocatable.get(k) != v for k, v in want_alloc.items()) or any(
            capacity.get(k) != v for k, v in want_cap.items()
        ):
            await self._status(want_cap, want_alloc)
        want_labels = {**self.gfd_labels, **want_labels}
        if any(labels.get(k) != v for k, v in want_labels.items()):
            await self._core.patch_node(self.node_name, {"metadata": {"labels": want_labels}})


class HamiDevicePlugin(_Plugin):
    def __init__(
        self,
        api: client.ApiClient,
        node_name: str,
        *,
        cards: list[tuple[str, int]],
        devtype: str,
        devmem: int,
        healthy: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(api, node_name, **kwargs)
        self.cards = cards
        self.devtype = devtype
        self.devmem = devmem
        self.healthy = healthy
        self._running = False

    @property
    def running(self) -> bool:
        return self._running

    async def sync_once(self) -> None:
        labels, annotations, _capacity, allocatable = await self._node()
        selected = labels.get("gpu") == "on"
        if selected and self.healthy:
            register = hami_register(self.cards, devtype=self.devtype, devmem=self.devmem)
            gpus = str(len(self.cards) * HAMI_SPLIT_COUNT)
            if not self._running:
                await asyncio.sleep(self._restart_delay)
                await self._status({GPU: gpus}, {GPU: gpus})
                await self._core.patch_node(
                    self.node_name,
                    {"metadata": {"annotations": {HAMI_REGISTER: register, HAMI_HANDSHAKE: hami_reported()}}},
                )
                self._running = True
            elif annotations.get(HAMI_REGISTER) != register or allocatable.get(GPU) != gpus:
                await self._status({GPU: gpus}, {GPU: gpus})
                await self._core.patch_node(
                    self.node_name,
                    {"metadata": {"annotations": {HAMI_REGISTER: register, HAMI_HANDSHAKE: hami_reported()}}},
                )
        elif self._running:
            self._running = False
            # kubelet drops what this plugin registered, unless another plugin registered the
            # same resource name since (the NVIDIA plugin taking the cards back)
            if allocatable.get(GPU) == str(len(self.cards) * HAMI_SPLIT_COUNT):
                await self._status({}, {GPU: "0"})
