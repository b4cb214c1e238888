"""The agent signs with the OpenSSL libcrypto that `ssl` loaded, not `cryptography` (its memory
budget): the same Ed25519 signatures, tokens the control plane's verifier accepts, and no
`cryptography` in the agent's process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from gshare_agent.keys import LibcryptoEd25519, ed25519_seed, load_key
from gshare_operator.signing import CallbackSigner, public_key_pem

from infra.callbacks.verify import CallbackVerifier, InMemoryClusterKeyStore, InMemoryReplayCache
from tests.support.telemetry import private_pem


def test_libcrypto_signs_exactly_as_cryptography(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    seed = ed25519_seed(private_pem(key, tmp_path / "k.pem").read_bytes())
    assert seed is not None
    ours = LibcryptoEd25519(seed)
    for message in (b"", b"x", b"a longer message " * 100):
        assert ours.sign(message) == key.sign(message)  # Ed25519 is deterministic (RFC 8032)
        key.public_key().verify(ours.sign(message), message)


async def test_the_control_plane_accepts_the_agents_token_and_refuses_it_for_another_body(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    loaded = load_key(str(private_pem(key, tmp_path / "k.pem")))
    assert isinstance(loaded, LibcryptoEd25519)
    signer = CallbackSigner("c1", loaded)
    assert signer.algorithm == "EdDSA"
    keys = InMemoryClusterKeyStore()
    keys.register("c1", public_key_pem(key))
    verifier = CallbackVerifier(keys, InMemoryReplayCache())
    body = b'{"type":"usage"}'
    assert (await verifier.verify(signer.sign(body), body)).cluster_id == "c1"
    with pytest.raises(Exception, match="body"):
        await verifier.verify(signer.sign(body), b'{"type":"other"}')


def test_a_p256_key_still_signs_through_cryptography(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization

    path = tmp_path / "p256.pem"
    path.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    assert CallbackSigner("c1", load_key(str(path))).algorithm == "ES256"


def test_the_agents_process_never_imports_cryptography(tmp_path: Path) -> None:
    pem = private_pem(Ed25519PrivateKey.generate(), tmp_path / "k.pem")
    code = (
        "import sys\n"
        "from gshare_agent.keys import load_key\n"
        "from gshare_agent.lean import import_alone\n"
        "signing = import_alone('gshare_operator.signing')\n"
        f"signing.CallbackSigner('c1', load_key({str(pem)!r})).sign(b'x')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'cryptography'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
