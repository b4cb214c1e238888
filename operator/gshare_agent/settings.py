"""The node agent's settings: command-line arguments, falling back to environment variables.

Standard library only (the agent's memory budget); the names follow the operator's where the
two mean the same thing (`GSHARE_CLUSTER_ID`, `GSHARE_CALLBACK_URL`, `GSHARE_CALLBACK_KEY_PATH`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class AgentSettings:
    cluster_id: str
    node_name: str
    callback_url: str
    private_key_path: str
    namespace: str = "gshare-sessions"
    kubeconfig: str | None = None
    # seconds between samples; every sample of one tick goes out in one POST
    interval: float = 1.0
    # seconds between pod lists (LIST with resourceVersion=0: served from the API server's cache)
    pods_interval: float = 10.0
    # where the node's cgroup v2 hierarchy is mounted (the chart mounts the host's at /host/sys/fs/cgroup)
    cgroup_root: str = "/sys/fs/cgroup"
    # Prometheus text endpoints on this node: HAMi's vGPU monitor and NVIDIA dcgm-exporter
    hami_metrics_url: str | None = None
    dcgm_metrics_url: str | None = None
    # seconds of batches kept while the control plane is away; older ones are dropped
    buffer_seconds: int = 60
    http_timeout: float = 2.0
    log_level: str = "INFO"


ENV = {
    "cluster_id": "GSHARE_CLUSTER_ID",
    "node_name": "NODE_NAME",
    "callback_url": "GSHARE_CALLBACK_URL",
    "private_key_path": "GSHARE_CALLBACK_KEY_PATH",
    "namespace": "GSHARE_AGENT_NAMESPACE",
    "kubeconfig": "KUBECONFIG",
    "interval": "GSHARE_AGENT_INTERVAL",
    "pods_interval": "GSHARE_AGENT_PODS_INTERVAL",
    "cgroup_root": "GSHARE_AGENT_CGROUP_ROOT",
    "hami_metrics_url": "GSHARE_AGENT_HAMI_METRICS_URL",
    "dcgm_metrics_url": "GSHARE_AGENT_DCGM_METRICS_URL",
    "buffer_seconds": "GSHARE_AGENT_BUFFER_SECONDS",
    "http_timeout": "GSHARE_AGENT_HTTP_TIMEOUT",
    "log_level": "GSHARE_LOG_LEVEL",
}
_REQUIRED = ("cluster_id", "node_name", "callback_url", "private_key_path")
_FLOATS = ("interval", "pods_interval", "http_timeout")
_INTS = ("buffer_seconds",)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gshare agent",
        description="Sample the session pods of this node each second and post their usage to the control plane.",
    )
    p.add_argument("--cluster-id", help=f"this cluster's id (${ENV['cluster_id']})")
    p.add_argument("--node-name", help=f"the node this agent runs on (${ENV['node_name']})")
    p.add_argument("--callback-url", help=f"control plane callback base URL (${ENV['callback_url']})")
    p.add_argument("--private-key", dest="private_key_path", help="PEM key signing the posts (the cluster's key)")
    p.add_argument("--namespace", help="namespace of session pods (default gshare-sessions)")
    p.add_argument("--kubeconfig", help="kubeconfig file (default: the pod's service account)")
    p.add_argument("--interval", type=float, help="seconds between samples (default 1)")
    p.add_argument("--pods-interval", type=float, help="seconds between pod lists (default 10)")
    p.add_argument("--cgroup-root", help="mount point of the node's cgroup v2 hierarchy (default /sys/fs/cgroup)")
    p.add_argument("--hami-metrics-url", help="HAMi vGPU monitor metrics, e.g. http://$HOST_IP:9394/metrics")
    p.add_argument("--dcgm-metrics-url", help="dcgm-exporter metrics, e.g. http://$HOST_IP:9400/metrics")
    p.add_argument("--buffer-seconds", type=int, help="seconds of samples kept while the control plane is away")
    p.add_argument("--http-timeout", type=float, help="seconds before a request gives up (default 2)")
    p.add_argument("--log-level")
    return p


def load_settings(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> AgentSettings:
    env = os.environ if environ is None else environ
    args = vars(parser().parse_args(list(argv) if argv is not None else None))
    known = {f.name for f in fields(AgentSettings)}
    values: dict[str, object] = {}
    for name, variable in ENV.items():
        value = args.get(name)
        if value is None and env.get(variable):
            value = env[variable]
        if value is not None and name in known:
            values[name] = value
    flags = {"private_key_path": "--private-key"}
    missing = [f"{flags.get(n, '--' + n.replace('_', '-'))} / ${ENV[n]}" for n in _REQUIRED if not values.get(n)]
    if missing:
        raise SystemExit("gshare agent: required: " + ", ".join(missing))
    for name in _FLOATS:
        if name in values:
            values[name] = float(str(values[name]))
    for name in _INTS:
        if name in values:
            values[name] = int(str(values[name]))
    if float(values.get("interval", 1.0)) <= 0:  # type: ignore[arg-type]
        raise SystemExit("gshare agent: --interval must be positive")
    return AgentSettings(**values)  # type: ignore[arg-type]
