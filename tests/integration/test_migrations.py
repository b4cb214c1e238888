"""One Alembic head; upgrade → downgrade → upgrade works with data present."""

from __future__ import annotations

import asyncio
import uuid

from alembic.script import ScriptDirectory

from infra.db import migrate
from tests.support.database import _admin, create_test_database


def test_there_is_exactly_one_head() -> None:
    script = ScriptDirectory.from_config(migrate.alembic_config("postgresql://unused"))
    assert len(script.get_heads()) == 1


def test_upgrade_downgrade_upgrade_with_data_present() -> None:
    db = create_test_database(prefix="gshare_migr", migrate=False)
    try:
        migrate.upgrade(db.url)
        org = uuid.uuid4()
        asyncio.run(
            _admin(db.url, f"INSERT INTO organizations (id, name, slug, description) VALUES ('{org}', 'M', 'm', '')")
        )
        assert asyncio.run(migrate.current_revision(db.url)) == migrate.head_revision()
        migrate.downgrade(db.url, "base")
        assert asyncio.run(migrate.current_revision(db.url)) is None
        migrate.upgrade(db.url)
        assert asyncio.run(migrate.current_revision(db.url)) == migrate.head_revision()
    finally:
        db.drop()
