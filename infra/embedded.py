"""The embedded PostgreSQL server (pgserver wheel) that the default install runs in its data dir."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

log = logging.getLogger(__name__)
DATABASE = "gshare"


def start_embedded_postgres(data_dir: Path) -> str:
    """Start (or attach to) the server in `data_dir/postgres` and return the gshare database URL.
    The server stops when the last process using it exits."""
    import pgserver  # type: ignore[import-untyped,unused-ignore]

    pg_dir = data_dir / "postgres"
    pg_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(str(pg_dir), cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}';")  # noqa: S608 (a constant)
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{DATABASE}";')
        log.info("created embedded database %s in %s", DATABASE, pg_dir)
    parts = urlsplit(server.get_uri())
    return urlunsplit((parts.scheme, parts.netloc, "/" + DATABASE, parts.query, parts.fragment))
