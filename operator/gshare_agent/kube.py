"""The session pods of this node, listed from the Kubernetes API.

`GET /api/v1/namespaces/<ns>/pods?fieldSelector=spec.nodeName=<node>&labelSelector=<session
labels>&resourceVersion=0`: only this node's pods that the operator made for a session (the
`gshare.io/session-id` label), served from the API server's watch cache (resourceVersion=0),
every `pods_interval` seconds. Credentials: the pod's service account (token re-read on every
list, as projected tokens rotate; the cluster CA) or a kubeconfig file (server, CA data or
file, insecure-skip-tls-verify, bearer token or client certificate).
"""

from __future__ import annotations

import base64
import json
import os
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from gshare_agent.transport import Origin

SA_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
LABEL_SESSION_ID = "gshare.io/session-id"
LABEL_MANAGED_BY = "app.kubernetes.io/managed-by"
MANAGED_BY = "gshare-operator"
SESSION_SELECTOR = f"{LABEL_SESSION_ID},{LABEL_MANAGED_BY}={MANAGED_BY}"


class KubeError(RuntimeError):
    pass


@dataclass(frozen=True, slots=True)
class SessionPod:
    namespace: str
    name: str
    uid: str
    session_id: str


class KubeClient:
    def __init__(self, origin: Origin, token: str | None = None, token_file: str | None = None) -> None:
        self._origin = origin
        self._token = token
        self._token_file = token_file

    @classmethod
    def in_cluster(cls, timeout: float = 5.0) -> KubeClient:
        host = os.environ.get("KUBERNETES_SERVICE_HOST")
        port = os.environ.get("KUBERNETES_SERVICE_PORT", "443")
        if not host:
            raise KubeError("not in a cluster (no KUBERNETES_SERVICE_HOST) and no --kubeconfig")
        if ":" in host:
            host = f"[{host}]"
        tls = ssl.create_default_context(cafile=os.path.join(SA_DIR, "ca.crt"))
        origin = Origin(f"https://{host}:{port}", timeout=timeout, tls=tls)
        return cls(origin, token_file=os.path.join(SA_DIR, "token"))

    @classmethod
    def from_kubeconfig(cls, path: str, timeout: float = 5.0) -> KubeClient:
        import yaml  # only here: in a cluster the agent never parses YAML

        with open(path) as f:
            doc = yaml.safe_load(f) or {}
        context_name = doc.get("current-context")
        context = _named(doc.get("contexts"), context_name).get("context", {})
        cluster = _named(doc.get("clusters"), context.get("cluster")).get("cluster", {})
        user = _named(doc.get("users"), context.get("user")).get("user", {})
        server = str(cluster.get("server") or "")
        tls = None
        if server.startswith("https"):
            tls = ssl.create_default_context()
            if cluster.get("insecure-skip-tls-verify"):
                tls.check_hostname = False
                tls.verify_mode = ssl.CERT_NONE
            elif cluster.get("certificate-authority-data"):
                tls.load_verify_locations(cadata=base64.b64decode(cluster["certificate-authority-data"]).decode())
            elif cluster.get("certificate-authority"):
                tls.load_verify_locations(cafile=cluster["certificate-authority"])
            cert, key = user.get("client-certificate-data"), user.get("client-key-data")
            if cert and key:
                # ssl loads client certificates from files only
                import tempfile

                with tempfile.TemporaryDirectory() as d:
                    cert_path, key_path = os.path.join(d, "c.pem"), os.path.join(d, "k.pem")
                    with open(cert_path, "wb") as cf, open(key_path, "wb") as kf:
                        cf.write(base64.b64decode(cert))
                        kf.write(base64.b64decode(key))
                    tls.load_cert_chain(cert_path, key_path)
            elif user.get("client-certificate") and user.get("client-key"):
                tls.load_cert_chain(user["client-certificate"], user["client-key"])
        origin = Origin(server, timeout=timeout, tls=tls)
        return cls(origin, token=user.get("token"), token_file=user.get("tokenFile"))

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        token = self._token
        if self._token_file:
            with open(self._token_file) as f:
                token = f.read().strip()
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    def session_pods(self, namespace: str, node_name: str) -> list[SessionPod]:
        query = urlencode(
            {"fieldSelector": f"spec.nodeName={node_name}", "labelSelector": SESSION_SELECTOR, "resourceVersion": "0"}
        )
        response = self._origin.request("GET", f"/api/v1/namespaces/{namespace}/pods?{query}", headers=self._headers())
        if response.status != 200:
            raise KubeError(f"listing pods answered {response.status}: {response.body[:200]!r}")
        items: list[dict[str, Any]] = json.loads(response.body).get("items") or []
        pods = []
        for item in items:
            meta = item.get("metadata") or {}
            phase = (item.get("status") or {}).get("phase")
            session_id = (meta.get("labels") or {}).get(LABEL_SESSION_ID)
            if not session_id or not meta.get("uid") or phase in ("Succeeded", "Failed"):
                continue
            pods.append(
                SessionPod(str(meta.get("namespace") or namespace), str(meta["name"]), str(meta["uid"]), session_id)
            )
        return pods

    def close(self) -> None:
        self._origin.close()


def _named(entries: Any, name: Any) -> dict[str, Any]:
    for entry in entries or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            return entry
    return {}
