"""Kubeconfigs are sealed at rest with Fernet (AES-128-CBC + HMAC-SHA256, authenticated).

The key comes from the setting `kubeconfig_key` (`GSHARE_KUBECONFIG_KEY`) (a Fernet key, `Fernet.generate_key()`) when set, so
it can be kept and rotated apart from the cookie secret; otherwise it is derived from the
server's secret key (`GSHARE_SECRET_KEY`, or the one generated in the data dir) with HKDF under
a purpose label, so the same secret never serves two purposes directly. Several keys may be
given comma-separated (first encrypts, all decrypt: `MultiFernet` rotation).
"""

from __future__ import annotations

import base64
from typing import Any

import yaml
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from infra.callbacks.verify import load_public_key

_PURPOSE = b"gshare kubeconfig encryption v1"
MAX_KUBECONFIG_BYTES = 256 * 1024
MAX_KEY_BYTES = 4096


def derive_key(secret: str) -> bytes:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_PURPOSE).derive(secret.encode())
    return base64.urlsafe_b64encode(raw)


class KubeconfigDecryptError(Exception):
    pass


class ClusterSecretBox:
    """The `ClusterSecrets` port: checks kubeconfigs and callback keys, seals kubeconfigs."""

    def __init__(self, keys: list[bytes]) -> None:
        if not keys:
            raise ValueError("at least one key is needed")
        self._fernet = MultiFernet([Fernet(k) for k in keys])

    @classmethod
    def from_settings(cls, settings: Any) -> ClusterSecretBox:
        key = getattr(settings, "kubeconfig_key", None)
        configured = key.get_secret_value().strip() if key is not None else ""
        if configured:
            return cls([k.strip().encode() for k in configured.split(",") if k.strip()])
        return cls([derive_key(settings.resolved_secret_key())])

    def encrypt(self, kubeconfig: str) -> bytes:
        return self._fernet.encrypt(kubeconfig.encode())

    def decrypt(self, sealed: bytes) -> str:
        try:
            return self._fernet.decrypt(sealed).decode()
        except InvalidToken as exc:
            raise KubeconfigDecryptError("kubeconfig cannot be decrypted with the configured key") from exc

    def kubeconfig_problem(self, kubeconfig: str) -> str | None:
        if len(kubeconfig.encode()) > MAX_KUBECONFIG_BYTES:
            return "the kubeconfig is larger than 256 KiB"
        try:
            doc = yaml.safe_load(kubeconfig)
        except yaml.YAMLError:
            return "the kubeconfig is not valid YAML"
        if not isinstance(doc, dict):
            return "the kubeconfig must be a YAML mapping"
        clusters = doc.get("clusters")
        contexts = doc.get("contexts")
        if not isinstance(clusters, list) or not clusters:
            return "the kubeconfig names no cluster"
        if not isinstance(contexts, list) or not contexts:
            return "the kubeconfig names no context"
        current = doc.get("current-context")
        names = {c.get("name") for c in contexts if isinstance(c, dict)}
        if len(contexts) > 1 and current not in names:
            return "the kubeconfig's current-context is not one of its contexts"
        for c in clusters:
            server = ((c or {}).get("cluster") or {}).get("server") if isinstance(c, dict) else None
            if not isinstance(server, str) or not server.startswith(("https://", "http://")):
                return "every cluster in the kubeconfig needs an http(s) server URL"
        for user in doc.get("users") or []:
            spec = (user or {}).get("user") or {} if isinstance(user, dict) else {}
            if "exec" in spec or "auth-provider" in spec:
                # the control plane would run a program named by whoever registered the cluster
                return "kubeconfigs with exec or auth-provider credentials are not accepted; use a token or client certificate"
        return None

    def callback_key_problem(self, pem: str) -> str | None:
        if len(pem.encode()) > MAX_KEY_BYTES:
            return "the key is too long"
        if "PRIVATE KEY" in pem:
            return "this is a private key; register the operator's public key only"
        try:
            load_public_key(pem.strip().encode())
        except (ValueError, TypeError) as exc:
            text = str(exc)
            if "Ed25519 or EC P-256" in text:
                return "callback keys must be Ed25519 or EC P-256 public keys"
            return "not a PEM public key"
        except Exception:
            return "not a PEM public key"
        return None
