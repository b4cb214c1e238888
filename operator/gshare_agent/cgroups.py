"""A pod's CPU and memory from its cgroup v2 directory on the node.

Where a pod's cgroup is. The kubelet creates one cgroup per pod, named from the pod UID, under
its QoS class; the container runtime puts each container (and the sandbox) in a child of it.
The pod's own `cpu.stat` and `memory.*` files add up all of its children, so the agent reads
the pod level and the runtime's naming of the children does not matter:

==========================  ================================================================
kubelet cgroup driver       pod cgroup (under the v2 mount, e.g. /sys/fs/cgroup)
==========================  ================================================================
systemd (containerd, CRI-O) kubepods.slice/kubepods-pod<uid_>.slice                 (Guaranteed)
                            kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice
                            kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod<uid_>.slice
cgroupfs (containerd, CRI-O) kubepods/pod<uid>                                        (Guaranteed)
                            kubepods/burstable/pod<uid>, kubepods/besteffort/pod<uid>
==========================  ================================================================

`<uid_>` is the UID with `-` replaced by `_` (systemd unit names). Children: containerd names
them `cri-containerd-<id>.scope` (systemd) or `<id>` (cgroupfs); CRI-O `crio-<id>.scope` plus
`crio-conmon-<id>.scope` (systemd) or `crio-<id>` (cgroupfs), so on CRI-O the pod's numbers
include its conmon monitors (a few MiB, a few millicores). A kubelet with a `--cgroup-root`
(kind, some k3s set-ups: `kubelet.slice/kubelet-kubepods.slice/…`) is found by a bounded search
below the mount for the same directory names, remembered per pod.

cgroup v1 is not supported: its CPU and memory controllers are separate hierarchies with other
file names (`cpuacct.usage`, `memory.usage_in_bytes`). `check_v2` refuses such a node at
start-up with a message saying so, instead of reporting nothing.

Numbers: CPU in millicores from the `usage_usec` delta of `cpu.stat` over the elapsed time;
memory as `memory.current` and the working set, `memory.current` − `inactive_file` of
`memory.stat` (what the kubelet and `kubectl top` call the working set).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

QOS_CLASSES = ("guaranteed", "burstable", "besteffort")
_SEARCH_DEPTH = 5


class CgroupV1(RuntimeError):
    """The node mounts cgroup v1 (or a hybrid without a unified v2 hierarchy at the root)."""


def check_v2(root: str) -> None:
    if not os.path.isfile(os.path.join(root, "cgroup.controllers")):
        raise CgroupV1(
            f"{root} is not a cgroup v2 hierarchy (no cgroup.controllers): the gshare agent reads "
            "cgroup v2 only (cgroup v1 is not supported); boot the node with the unified hierarchy "
            "(systemd.unified_cgroup_hierarchy=1) or leave the agent off and use the Prometheus fallback"
        )


def is_pod_dir(name: str, uid: str) -> bool:
    """Whether a directory name is the pod's cgroup: `pod<uid>` (cgroupfs) or a systemd slice
    ending in `-pod<uid_>.slice` (`kubepods-…`, or `kubelet-kubepods-…` under a cgroup root)."""
    return name == f"pod{uid}" or name.endswith(f"-pod{uid.replace('-', '_')}.slice")


def candidate_paths(root: str, uid: str) -> tuple[str, ...]:
    under = uid.replace("-", "_")
    return (
        os.path.join(root, "kubepods.slice", f"kubepods-pod{under}.slice"),
        os.path.join(root, "kubepods.slice", "kubepods-burstable.slice", f"kubepods-burstable-pod{under}.slice"),
        os.path.join(root, "kubepods.slice", "kubepods-besteffort.slice", f"kubepods-besteffort-pod{under}.slice"),
        os.path.join(root, "kubepods", f"pod{uid}"),
        os.path.join(root, "kubepods", "burstable", f"pod{uid}"),
        os.path.join(root, "kubepods", "besteffort", f"pod{uid}"),
    )


def _search(root: str, uid: str) -> str | None:
    frontier = [root]
    for _ in range(_SEARCH_DEPTH):
        next_frontier: list[str] = []
        for directory in frontier:
            try:
                entries = list(os.scandir(directory))
            except OSError:
                continue
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False):
                    continue
                if is_pod_dir(entry.name, uid):
                    return entry.path
                # only kubelet-made directories can hold pod cgroups
                if entry.name.startswith(("kube", "kubelet")):
                    next_frontier.append(entry.path)
        frontier = next_frontier
    return None


class CgroupLocator:
    """Pod UID → its cgroup directory, remembered while the directory exists."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._known: dict[str, str] = {}

    def find(self, uid: str) -> str | None:
        known = self._known.get(uid)
        if known is not None and os.path.isdir(known):
            return known
        found = next((p for p in candidate_paths(self.root, uid) if os.path.isdir(p)), None)
        if found is None:
            found = _search(self.root, uid)
        if found is None:
            self._known.pop(uid, None)
            return None
        self._known[uid] = found
        return found

    def forget_except(self, uids: set[str]) -> None:
        for uid in list(self._known):
            if uid not in uids:
                del self._known[uid]


@dataclass(frozen=True, slots=True)
class CgroupReading:
    usage_usec: int
    memory_current: int
    inactive_file: int

    @property
    def working_set(self) -> int:
        return max(0, self.memory_current - self.inactive_file)


def _field(data: bytes, key: bytes) -> int | None:
    """`key`'s number in a flat-keyed file's text (`cpu.stat`, `memory.stat`: `name value` lines)."""
    at = data.find(key + b" ")
    while at > 0 and data[at - 1] != 0x0A:  # only at a line's start (not `file` in `inactive_file`)
        at = data.find(key + b" ", at + 1)
    if at < 0:
        return None
    end = data.find(b"\n", at)
    return int(data[at + len(key) + 1 : end if end >= 0 else len(data)])


def read(directory: str) -> CgroupReading:
    """The pod's counters now; OSError when the cgroup is gone (the pod ended)."""
    files = PodFiles(directory)
    try:
        return files.read()
    finally:
        files.close()


class PodFiles:
    """A pod cgroup's three files, opened once and re-read from offset 0 each tick (`pread`: one
    system call a file, no file object). The kernel generates a cgroup file's text anew on each
    read from offset 0 (seq_file), and once the cgroup is removed a read fails (ENODEV): the
    caller forgets the pod's files and looks for its cgroup again."""

    __slots__ = ("_cpu", "_current", "_stat", "directory")

    def __init__(self, directory: str) -> None:
        self.directory = directory
        flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
        self._cpu = os.open(os.path.join(directory, "cpu.stat"), flags)
        self._current = self._stat = -1
        try:
            self._current = os.open(os.path.join(directory, "memory.current"), flags)
            self._stat = os.open(os.path.join(directory, "memory.stat"), flags)
        except OSError:
            self.close()
            raise

    def read(self) -> CgroupReading:
        usage = _field(os.pread(self._cpu, 4096, 0), b"usage_usec")
        if usage is None:
            raise ValueError(f"usage_usec not in {self.directory}/cpu.stat")
        current = int(os.pread(self._current, 64, 0).strip())
        inactive = _field(os.pread(self._stat, 16384, 0), b"inactive_file")
        return CgroupReading(usage, current, inactive or 0)

    def close(self) -> None:
        for fd in (self._cpu, self._current, self._stat):
            if fd >= 0:
                os.close(fd)
        self._cpu = self._current = self._stat = -1


def millicores(before: CgroupReading, after: CgroupReading, elapsed_seconds: float) -> int:
    if elapsed_seconds <= 0:
        return 0
    used = max(0, after.usage_usec - before.usage_usec)
    return round(used / (elapsed_seconds * 1_000_000) * 1000)
