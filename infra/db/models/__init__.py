"""Importing this package registers every table on `Base.metadata` (Alembic needs them all)."""

from infra.db.models import (  # noqa: F401
    audit,
    catalog,
    clusters_extra,
    credits,
    inventory,
    operations,
    policies,
    sessions,
    simulated,
    tenancy,
    usage_history,
)
