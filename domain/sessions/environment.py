"""Environment variables a session, job or template may set, and the ones the GPU stack owns.

The GPU runtime on a node is configured through the container's environment: the NVIDIA
container toolkit picks the devices a container sees from `NVIDIA_VISIBLE_DEVICES` (and, for a
"legacy" image, from `CUDA_VERSION` alone: all of them), the device plugins and HAMi inject the
card's VRAM and core limits as `CUDA_DEVICE_*`, and HAMi's in-container library enforces them
through the dynamic loader. A user who sets one of these on their own session could see cards
they were not given or lift their limits, so every path that accepts environment variables
refuses them, and what is rendered into a pod drops them (a session stored before this rule,
or a resource written by hand).

Where each name comes from (read in the projects' own code):
- NVIDIA/nvidia-container-toolkit @ d34b3046758cb1a5db606b2a39519c731bbf9f56,
  internal/config/image/envvars.go and cuda_image.go: NVIDIA_VISIBLE_DEVICES,
  NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_*, NVIDIA_DISABLE_REQUIRE, NVIDIA_IMEX_CHANNELS,
  NVIDIA_MIG_CONFIG_DEVICES, NVIDIA_MIG_MONITOR_DEVICES, and CUDA_VERSION (`IsLegacy`: with it
  set and no NVIDIA_REQUIRE_CUDA, an unset device list means "all").
- NVIDIA/k8s-device-plugin @ 1b826acc6af3079d8923bac395c3124b8861a9a6, internal/plugin/mps.go and
  cmd/mps-control-daemon/mps/daemon.go: CUDA_MPS_PIPE_DIRECTORY, CUDA_MPS_LOG_DIRECTORY; the
  allocate response's NVIDIA_VISIBLE_DEVICES, NVIDIA_GDRCOPY, NVIDIA_GDS, NVIDIA_MOFED.
- Project-HAMi/HAMi @ 4707fb02c91c545bc7343ce26dba4c32919f9a3e,
  pkg/device-plugin/nvidiadevice/nvinternal/plugin/server.go (Allocate): CUDA_DEVICE_MEMORY_LIMIT_<i>,
  CUDA_DEVICE_SM_LIMIT, CUDA_DEVICE_MEMORY_SHARED_CACHE, CUDA_OVERSUBSCRIBE, LIBCUDA_LOG_LEVEL,
  GPU_CORE_UTILIZATION_POLICY, and CUDA_DISABLE_CONTROL (read from the container's own env: when
  true the plugin does not mount /etc/ld.so.preload, so HAMi's limits are not loaded at all);
  pkg/util/types.go and pkg/device/nvidia/device.go: CUDA_TASK_PRIORITY.
- Project-HAMi/HAMi-core @ 8f3a89c67b037d8fdfe6c4cd4d8c4f0cd6504811 (libvgpu.so), src/: CUDA_DEVICE_MEMORY_LIMIT,
  CUDA_DEVICE_SM_LIMIT, CUDA_DEVICE_MEMORY_SHARED_CACHE, CUDA_VISIBLE_DEVICES (maps the limits onto
  devices), CUDA_TASK_PRIORITY, CUDA_REDIRECT, LIBCUDA_LOG_LEVEL, ACTIVE_OOM_KILLER,
  GPU_CORE_UTILIZATION_POLICY, RECORD_KERNEL_INTERVAL.
- glibc's dynamic loader reads LD_* (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, ...): HAMi's limits
  are a preloaded library, and a preload or library path of the user's own can shadow it.
- gshare itself sets GSHARE_* (the session id and its access token) in every pod.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.common.errors import InvalidValueError
from domain.sessions.errors import SessionError, SessionErrorCode

_TOOLKIT = "the NVIDIA container toolkit and device plugins read it to choose the GPUs and drivers a container gets"
_HAMI = "HAMi reads it to enforce the GPU memory and core limits of a shared card"
_LOADER = "the dynamic loader reads it, and HAMi's GPU limits are a preloaded library"

RESERVED_PREFIXES: dict[str, str] = {
    "NVIDIA_": _TOOLKIT,
    "CUDA_DEVICE_": _HAMI,
    "CUDA_MPS_": "the device plugin points it at the node's CUDA MPS daemon",
    "LD_": _LOADER,
    "GSHARE_": "gshare sets it in every session",
}
RESERVED_NAMES: dict[str, str] = {
    "CUDA_VISIBLE_DEVICES": _HAMI,
    "CUDA_VERSION": "the NVIDIA container toolkit reads it: with it set, an image may be given every GPU",
    "CUDA_DISABLE_CONTROL": "HAMi reads it to switch its GPU limits off",
    "CUDA_OVERSUBSCRIBE": _HAMI,
    "CUDA_TASK_PRIORITY": _HAMI,
    "CUDA_REDIRECT": _HAMI,
    "LIBCUDA_LOG_LEVEL": _HAMI,
    "GPU_CORE_UTILIZATION_POLICY": _HAMI,
    "ACTIVE_OOM_KILLER": _HAMI,
    "RECORD_KERNEL_INTERVAL": _HAMI,
}


def reserved_reason(name: str) -> str | None:
    """Why `name` may not be set by a user, or None when it may. Names are compared
    case-insensitively: refusing `nvidia_visible_devices` costs nothing."""
    upper = name.upper()
    if upper in RESERVED_NAMES:
        return RESERVED_NAMES[upper]
    return next((why for prefix, why in RESERVED_PREFIXES.items() if upper.startswith(prefix)), None)


def is_variable_name(name: str) -> bool:
    return bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


def check_environment(env: Mapping[str, str], field: str = "env") -> None:
    """Every name is a variable name the user may set; the first one that is not is refused,
    naming the field and the variable."""
    for name in env:
        if not name.isascii() or not is_variable_name(name):
            raise InvalidValueError(field, f"{name!r} is not an environment variable name")
        why = reserved_reason(name)
        if why is not None:
            raise SessionError(SessionErrorCode.ENV_RESERVED, f"{name} is reserved: {why}", field)


def without_reserved(env: Mapping[str, str]) -> dict[str, str]:
    """What may be rendered into a pod: the variables a user may set, nothing else."""
    return {k: v for k, v in env.items() if reserved_reason(k) is None}
