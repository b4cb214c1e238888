"""Registry pull credentials are sealed at rest with Fernet, like kubeconfigs
(infra/clusters/crypto.py), under keys of their own: each is derived with HKDF under the purpose
label below from the kubeconfig key (`GSHARE_KUBECONFIG_KEY`, each of its comma-separated keys:
the first seals, all open) or, when that is unset, from the server's secret key
(`GSHARE_SECRET_KEY`). So a registry password is never sealed under a key that also opens
kubeconfigs, and rotating the kubeconfig key rotates these too.

Plain passwords exist only in the `registryCreate`/`registryUpdate` request and in the Secret the
Kubernetes adapter writes to a cluster; `Registry` holds the sealed bytes (left out of its repr).
"""

from __future__ import annotations

import base64
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

_PURPOSE = b"gshare registry credential encryption v1"


class RegistryCredentialError(Exception):
    """The sealed credential cannot be opened with the configured keys."""


def _derive(secret: bytes) -> bytes:
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_PURPOSE).derive(secret)
    return base64.urlsafe_b64encode(raw)


class RegistrySecretBox:
    def __init__(self, secrets: list[bytes]) -> None:
        if not secrets:
            raise ValueError("at least one key is needed")
        self._fernet = MultiFernet([Fernet(_derive(s)) for s in secrets])

    @classmethod
    def from_settings(cls, settings: Any) -> RegistrySecretBox:
        key = getattr(settings, "kubeconfig_key", None)
        configured = key.get_secret_value().strip() if key is not None else ""
        if configured:
            return cls([k.strip().encode() for k in configured.split(",") if k.strip()])
        return cls([settings.resolved_secret_key().encode()])

    def seal(self, password: str) -> bytes:
        return self._fernet.encrypt(password.encode())

    def open(self, sealed: bytes) -> str:
        try:
            return self._fernet.decrypt(sealed).decode()
        except InvalidToken as exc:
            raise RegistryCredentialError("a registry credential cannot be opened with the configured keys") from exc


_BOX = "catalog.registry_box"


def registry_box(container: Any) -> RegistrySecretBox:
    box = container.extras.get(_BOX)
    if box is None:
        box = container.extras[_BOX] = RegistrySecretBox.from_settings(container.settings)
    return box  # type: ignore[no-any-return]
