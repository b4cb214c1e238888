"""The argon2 adapter hashes off the event loop: while a hash is computed, the loop keeps
answering (before, each sign-in stalled the whole server for the hash's time: 0.9 to 1.5 s
apiece on the loaded CI machine while the first start's demo seeding signed in)."""

from __future__ import annotations

import asyncio

from infra.security import Argon2PasswordHasher


async def _ticks_while(work: asyncio.Task[object]) -> int:
    ticks = 0
    while not work.done():
        await asyncio.sleep(0)
        ticks += 1
    return ticks


async def test_a_hash_and_a_check_leave_the_loop_free() -> None:
    hasher = Argon2PasswordHasher()
    hashing = asyncio.ensure_future(hasher.hash("correct horse"))
    assert await _ticks_while(hashing) > 0  # other work ran while it hashed
    stored = hashing.result()
    assert isinstance(stored, str) and stored.startswith("$argon2")

    checking = asyncio.ensure_future(hasher.verify("correct horse", stored))
    assert await _ticks_while(checking) > 0
    assert checking.result() is True
    assert await hasher.verify("wrong horse", stored) is False
    assert await hasher.verify("correct horse", "not a hash") is False
