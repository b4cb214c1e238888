"""Preparing a database for serving: embedded start, migrations, bootstrap admin, demo seed."""

from __future__ import annotations

import hashlib
import logging
import secrets

from sqlalchemy import text

from domain.tenancy import services as tenancy
from infra.bootstrap import Container
from infra.db import migrate
from infra.embedded import start_embedded_postgres
from infra.settings import Settings

log = logging.getLogger(__name__)
# replicas starting together on an empty database bootstrap one at a time (a transaction lock)
_BOOTSTRAP_LOCK = int.from_bytes(hashlib.blake2b(b"gshare.bootstrap", digest_size=8).digest(), "big", signed=True)


class DatabaseBehind(RuntimeError):
    pass


async def resolve_database(settings: Settings) -> str:
    """The database URL to use. Embedded: start the server and migrate it. Production: refuse
    to start when the database is not at the code's migration head."""
    if settings.embedded:
        url = start_embedded_postgres(settings.data_dir)
        await migrate.upgrade_async(url)
        return url
    assert settings.database_url
    current = await migrate.current_revision(settings.database_url)
    head = migrate.head_revision()
    if current != head:
        raise DatabaseBehind(
            f"the database is at migration {current or '(empty)'} but this gshare needs {head}; "
            "run `gshare db upgrade` (after a backup) and start again"
        )
    return settings.database_url


async def ensure_bootstrap_admin(container: Container) -> str | None:
    """Create the `admin` super_admin on first start. Returns its password when it was created
    just now (generated, or GSHARE_BOOTSTRAP_ADMIN_PASSWORD), None when it already existed."""
    configured = container.settings.bootstrap_admin_password
    password = configured.get_secret_value() if configured else secrets.token_urlsafe(15)
    async with container.uow() as uow:
        # the others wait here and then find the organisation and the account made
        await uow.session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _BOOTSTRAP_LOCK})
        admin = await tenancy.ensure_bootstrap(
            uow, container.ids, container.clock, container.hasher, admin_password=password
        )
        await uow.commit()
    return None if admin is None else password


def credentials_banner(
    url: str, *, admin_password: str | None, from_env: bool, member: tuple[str, str] | None = None
) -> str:
    """What `gshare serve` prints last, once the server answers: where it is and, on the first
    start, the accounts it created (a generated password is shown this once)."""
    lines = ["", f"  gshare is ready: {url}  (GraphiQL at {url}graphql)"]
    if admin_password is not None:
        shown = "(from GSHARE_BOOTSTRAP_ADMIN_PASSWORD)" if from_env else admin_password
        lines += ["  super_admin account:", "    username: admin", f"    password: {shown}"]
    if member is not None:
        lines += [
            "  demo member account (Demo University, group ML-Lab, 100 credits):",
            f"    username: {member[0]}",
            f"    password: {member[1]}",
        ]
    if (admin_password is not None and not from_env) or member is not None:
        lines += [
            "  These passwords are shown once. Change them after signing in, or reset one with",
            "  `gshare user set-password USERNAME`.",
        ]
    return "\n".join(lines) + "\n"
