"""Password hashing (argon2 via pwdlib) and secret generation adapters."""

from __future__ import annotations

import secrets

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher


class Argon2PasswordHasher:
    def __init__(self) -> None:
        self._hash = PasswordHash((Argon2Hasher(),))

    def hash(self, password: str) -> str:
        return self._hash.hash(password)

    def verify(self, password: str, hashed: str) -> bool:
        try:
            return self._hash.verify(password, hashed)
        except Exception:  # an unparsable stored hash never verifies
            return False


class UrandomSecrets:
    def token(self, nbytes: int = 32) -> str:
        return secrets.token_urlsafe(nbytes)
