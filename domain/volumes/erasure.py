"""Deleting a user: their personal data goes, the records others rely on stay.

What goes: the user's name, e-mail address, display name, password, single sign-on subject,
roles and memberships, login sessions (signed out at once), access tokens (revoked), their
notifications (which name their sessions) and their user-scope resource policy. The
row itself stays under a placeholder name ("deleted-…") so the audit log, the ledger, past
sessions and templates keep pointing at the same id: money movements and who-did-what are
never rewritten. A user who still has work running or data kept for them is refused with
USER_HAS_ACTIVE_WORK (the numbers as params): their sessions are stopped and their personal
volumes deleted first, by them or an admin, so nothing is left running for nobody.
"""

from __future__ import annotations

from uuid import UUID

from domain.common.clock import Clock
from domain.common.errors import PermissionDeniedError
from domain.sessions.model import TERMINAL, SessionState
from domain.sessions.ports import SessionFilter
from domain.sessions.services import SessionsUnitOfWork
from domain.tenancy import access
from domain.tenancy.errors import TenancyError, TenancyErrorCode
from domain.tenancy.model import Actor, User
from domain.tenancy.services import user_get, user_topic

ERASED_DISPLAY_NAME = "Deleted user"
_LIVE = frozenset(set(SessionState) - TERMINAL)


def erased_identity(user_id: UUID) -> tuple[str, str]:
    """The placeholder username and e-mail address of an erased user (unique, like the row)."""
    return f"deleted-{user_id.hex[:12]}", f"deleted-{user_id.hex}@deleted.invalid"


async def user_erase(uow: SessionsUnitOfWork, actor: Actor, clock: Clock, user_id: UUID) -> User:
    """Remove a user's personal data (an admin of one of their organisations, or a super_admin).
    Returns the user as stored afterwards."""
    user = await user_get(uow, actor, user_id)
    access.require_writable(actor)
    memberships = await uow.tenancy.memberships_of_user(user.id)
    orgs = {m.organization_id for m in memberships} | set(user.org_admin_of)
    if not (actor.is_super_admin or any(actor.is_org_admin(o) for o in orgs)):
        raise PermissionDeniedError("only an admin of the user's organisation may delete them", "id")
    if user.id == actor.user_id:
        raise PermissionDeniedError("you cannot delete your own account", "id")
    if user.is_super_admin:
        if not actor.is_super_admin:
            raise PermissionDeniedError("only a super_admin may delete a super_admin", "id")
        if await uow.tenancy.count_super_admins() <= 1:
            raise TenancyError(TenancyErrorCode.LAST_SUPER_ADMIN, "the last super_admin cannot be deleted", "id")
    _, sessions = await uow.sessions.search(SessionFilter(owner_id=user.id, states=_LIVE), 0, 1)
    volume_mib = await uow.volumes.storage_used_mib(owner_id=user.id)
    if sessions or volume_mib:
        raise TenancyError(
            TenancyErrorCode.USER_HAS_ACTIVE_WORK,
            f"{user.username} still has {sessions} session(s) not ended and {volume_mib} MiB of personal volumes; "
            "stop the sessions and delete the volumes first",
            "id",
            {"name": user.username, "sessions": str(sessions), "volumeMib": str(volume_mib)},
        )
    username, email = erased_identity(user.id)
    await uow.tenancy.erase_user(
        user.id, username=username, email=email, display_name=ERASED_DISPLAY_NAME, at=clock.now()
    )
    uow.publish_after_commit(user_topic(user.id), {"userId": str(user.id)})
    erased = await uow.tenancy.get_user(user.id)
    assert erased is not None
    return erased
