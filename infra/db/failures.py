"""What a database failure means to the caller: the server is unreachable or overloaded (try
again: 503), or it refused a value it cannot store (the client's input: a typed refusal)."""

from __future__ import annotations

import asyncpg
from sqlalchemy import exc as sa

# SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P0x (operator
# intervention: shutdown, cannot connect now)
_UNAVAILABLE_STATES = ("08", "53", "57P01", "57P02", "57P03")


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 16:
        seen.append(current)
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else current.__cause__ or current.__context__
    return seen


def _sqlstate(exc: BaseException) -> str:
    return str(getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None) or "")


def database_unavailable(exc: BaseException) -> bool:
    for link in _chain(exc):
        if isinstance(link, sa.DBAPIError) and link.connection_invalidated:
            return True
        if isinstance(
            link,
            (
                sa.TimeoutError,  # the pool had no connection to give within its timeout
                asyncpg.PostgresConnectionError,
                asyncpg.InterfaceError,
                asyncpg.InternalClientError,
                ConnectionError,
                OSError,
            ),
        ):
            return True
        if _sqlstate(link).startswith(_UNAVAILABLE_STATES):
            return True
    return False


def refused_value(exc: BaseException) -> bool:
    """SQLSTATE class 22 (data exception: a string too long for its column, a number out of
    range, an invalid byte sequence …): input that reached the database unchecked."""
    return any(_sqlstate(link).startswith("22") for link in _chain(exc))
