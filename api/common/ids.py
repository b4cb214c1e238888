"""Global IDs: `base64("TypeName:uuid")`, decoded only for the expected type."""

from __future__ import annotations

from uuid import UUID

from strawberry import relay

from domain.common.errors import NotFoundError


def to_global(type_name: str, value: UUID) -> relay.GlobalID:
    return relay.GlobalID(type_name, str(value))


def decode(gid: relay.GlobalID | str, type_name: str, field: str) -> UUID:
    """A malformed id, an id of another type and an unknown id all answer NOT_FOUND."""
    try:
        parsed = gid if isinstance(gid, relay.GlobalID) else relay.GlobalID.from_id(gid)
        if parsed.type_name != type_name:
            raise ValueError
        return UUID(parsed.node_id)
    except (ValueError, TypeError, AttributeError) as exc:
        raise NotFoundError(type_name.lower(), field) from exc


def decode_optional(gid: relay.GlobalID | str | None, type_name: str, field: str) -> UUID | None:
    return None if gid is None else decode(gid, type_name, field)


def node_id_of(gid: relay.GlobalID | str) -> str:
    """The node id inside a global ID, for audit records of attempts; the raw text if malformed."""
    try:
        parsed = gid if isinstance(gid, relay.GlobalID) else relay.GlobalID.from_id(gid)
        return str(parsed.node_id)[:128]
    except (ValueError, TypeError):
        return str(gid)[:128]
