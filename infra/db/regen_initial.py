"""Regenerate the single initial migration from the models (only while nothing is released).

    python -m infra.db.regen_initial

Deletes `migrations/versions/*`, creates a scratch database on the test server
(`GSHARE_TEST_DATABASE_URL`, else an embedded pgserver), autogenerates revision `0001` from
`Base.metadata` — including the triggers tables declare in `info` (see migrations/env.py) —
and drops the scratch database. Once a release is out, write ordinary new revisions instead.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command

from infra.db.migrate import alembic_config

VERSIONS = Path(__file__).with_name("migrations") / "versions"


def main() -> None:
    from tests.support.database import create_test_database

    for f in VERSIONS.glob("*.py"):
        f.unlink()
    db = create_test_database(prefix="gshare_regen", migrate=False)
    try:
        cfg = alembic_config(db.url)
        cfg.attributes["emit_declared_ddl"] = True
        command.revision(cfg, message="initial schema", autogenerate=True, rev_id="0001")
    finally:
        db.drop()
    written = sorted(VERSIONS.glob("*.py"))
    print("wrote", *[str(w) for w in written])


if __name__ == "__main__":
    main()
