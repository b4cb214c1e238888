"""The cluster's callback key, read without `cryptography`'s serialization module (~2.3 MiB
resident) when it is an Ed25519 key in PKCS#8 PEM (what `openssl genpkey -algorithm ed25519`
and the chart's instructions make): its DER is a fixed 16-byte prefix and the 32-byte seed
(RFC 8410, section 7). Any other key (P-256) goes through `gshare_operator.signing`."""

from __future__ import annotations

import base64
from typing import Any

ED25519_PKCS8_PREFIX = bytes.fromhex("302e020100300506032b657004220420")


def load_key(path: str) -> Any:
    with open(path, "rb") as f:
        pem = f.read()
    lines = pem.decode("ascii", "replace").strip().splitlines()
    if lines and lines[0] == "-----BEGIN PRIVATE KEY-----" and lines[-1] == "-----END PRIVATE KEY-----":
        der = base64.b64decode("".join(lines[1:-1]))
        if len(der) == 48 and der.startswith(ED25519_PKCS8_PREFIX):
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

            return Ed25519PrivateKey.from_private_bytes(der[16:])
    from gshare_agent.lean import import_alone

    return import_alone("gshare_operator.signing").load_private_key(path)
