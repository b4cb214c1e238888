"""SSH from outside the cluster: one TCP port of the ingress controller per session.

ingress-nginx forwards raw TCP for the ports listed in its TCP services ConfigMap (controller
flag `--tcp-services-configmap=<namespace>/<name>`; entries `"<port>": "<namespace>/<service>:<port>"`,
kubernetes/ingress-nginx docs "Exposing TCP and UDP services"). The operator gives each session
with an SSH endpoint a port of its range there, pointing at the session's Service on its SSH port, and
takes it back when the session goes. The session pod accepts the connection because it comes
from the ingress controller's pod, the one inbound source the sessions' NetworkPolicy allows.

A port is chosen from a hash of the session's name (probing upwards past taken ones), kept
while the session lives, and written with the ConfigMap's resourceVersion (a conflicting write
is retried by the controller).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from kubernetes_asyncio import client
from kubernetes_asyncio.client.exceptions import ApiException


class PortsExhausted(Exception):
    pass


@dataclass(frozen=True)
class SshExposure:
    host: str
    configmap_namespace: str
    configmap_name: str
    first_port: int
    last_port: int

    @classmethod
    def from_settings(cls, host: str | None, tcp_services: str, ports: str) -> SshExposure | None:
        if not host:
            return None
        namespace, _, name = tcp_services.partition("/")
        first, _, last = ports.partition("-")
        if not namespace or not name:
            raise ValueError(f"GSHARE_SSH_TCP_SERVICES {tcp_services!r} is not <namespace>/<name>")
        lo, hi = int(first), int(last or first)
        if not 1 <= lo <= hi <= 65535:
            raise ValueError(f"GSHARE_SSH_PORTS {ports!r} is not a port range")
        return cls(host, namespace, name, lo, hi)

    def url(self, port: int) -> str:
        return f"ssh://{self.host}:{port}"


def target(namespace: str, service: str, port: int) -> str:
    return f"{namespace}/{service}:{port}"


def choose_port(exposure: SshExposure, name: str, taken: set[int]) -> int:
    size = exposure.last_port - exposure.first_port + 1
    start = int(hashlib.sha256(name.encode()).hexdigest(), 16) % size
    for step in range(size):
        port = exposure.first_port + (start + step) % size
        if port not in taken:
            return port
    raise PortsExhausted(f"every SSH port {exposure.first_port}-{exposure.last_port} is taken")


class SshPorts:
    def __init__(self, api_client: client.ApiClient, exposure: SshExposure) -> None:
        self.core = client.CoreV1Api(api_client)
        self.exposure = exposure

    async def _read(self) -> Any | None:
        try:
            return await self.core.read_namespaced_config_map(
                self.exposure.configmap_name, self.exposure.configmap_namespace
            )
        except ApiException as exc:
            if exc.status == 404:
                return None
            raise

    async def ensure(self, namespace: str, service: str, port: int) -> int:
        """The session's external port (written if it had none)."""
        wanted = target(namespace, service, port)
        cm = await self._read()
        data = dict((cm.data if cm is not None else None) or {})
        for key, value in data.items():
            if value == wanted:
                return int(key)
        taken = {int(k) for k in data if k.isdigit()}
        chosen = choose_port(self.exposure, service, taken)
        data[str(chosen)] = wanted
        await self._write(cm, data)
        return chosen

    async def release(self, namespace: str, service: str) -> None:
        prefix = f"{namespace}/{service}:"
        cm = await self._read()
        data = dict((cm.data if cm is not None else None) or {})
        kept = {k: v for k, v in data.items() if not v.startswith(prefix)}
        if cm is not None and kept != data:
            await self._write(cm, kept)

    async def _write(self, cm: Any | None, data: dict[str, str]) -> None:
        if cm is None:
            body = {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {
                    "name": self.exposure.configmap_name,
                    "namespace": self.exposure.configmap_namespace,
                    "labels": {"app.kubernetes.io/part-of": "gshare"},
                },
                "data": data,
            }
            await self.core.create_namespaced_config_map(self.exposure.configmap_namespace, body)
            return
        cm.data = data
        await self.core.replace_namespaced_config_map(
            self.exposure.configmap_name, self.exposure.configmap_namespace, cm
        )
