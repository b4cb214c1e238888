"""Password hashing (argon2 via pwdlib) and secret generation adapters."""

from __future__ import annotations

import asyncio
import secrets

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher


class Argon2PasswordHasher:
    """argon2 in a worker thread (argon2-cffi releases the GIL while it hashes): on the event
    loop each sign-in stalled every other request of the process for the hash's time, measured
    at 0.9 to 1.5 s apiece on the loaded 2-core CI machine while the demo seeding signed in."""

    def __init__(self) -> None:
        self._hash = PasswordHash((Argon2Hasher(),))

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hash.hash, password)

    async def verify(self, password: str, hashed: str) -> bool:
        return await asyncio.to_thread(self._verify, password, hashed)

    def _verify(self, password: str, hashed: str) -> bool:
        try:
            return self._hash.verify(password, hashed)
        except Exception:  # an unparsable stored hash never verifies
            return False


class UrandomSecrets:
    def token(self, nbytes: int = 32) -> str:
        return secrets.token_urlsafe(nbytes)
