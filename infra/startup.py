"""Preparing a database for serving: embedded start, migrations, bootstrap admin, demo seed."""

from __future__ import annotations

import logging
import secrets
import sys

from domain.tenancy import services as tenancy
from infra.bootstrap import Container
from infra.db import migrate
from infra.embedded import start_embedded_postgres
from infra.settings import Settings

log = logging.getLogger(__name__)


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


async def ensure_bootstrap_admin(container: Container, out: object = sys.stdout) -> None:
    """Create the `admin` super_admin on first start; print a generated password once."""
    configured = container.settings.bootstrap_admin_password
    password = configured.get_secret_value() if configured else secrets.token_urlsafe(15)
    async with container.uow() as uow:
        admin = await tenancy.ensure_bootstrap(
            uow, container.ids, container.clock, container.hasher, admin_password=password
        )
        await uow.commit()
    if admin is None:
        return
    if configured:
        print("gshare: created super_admin 'admin' with the password from GSHARE_BOOTSTRAP_ADMIN_PASSWORD", file=out)  # type: ignore[call-overload]
    else:
        print(  # type: ignore[call-overload]
            "\n"
            "  gshare: created the super_admin account\n"
            f"    username: admin\n    password: {password}\n"
            "  This password is shown once. Change it after signing in, or reset it with\n"
            "  `gshare user set-password admin`.\n",
            file=out,
            flush=True,
        )
