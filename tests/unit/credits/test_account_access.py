"""Who administers and who may read which credit account, actor by actor, and the refusals
of balances, holds and history with their fields; the history's CSV export."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.common.errors import DomainError
from domain.credits import services as svc
from domain.credits.model import AccountRef, Attribution, Transfer, TransferKind
from domain.credits.ports import TransferQuery
from domain.tenancy.model import Actor
from infra.credits.memory import InMemoryLedger
from tests.unit.credits.test_ledger import C, fund
from tests.unit.credits.world import World


@pytest.fixture
def w() -> World:
    return World()


def actors(w: World) -> list[Actor]:
    return [
        w.super_admin,
        w.org_admin,
        w.group_admin,
        w.member(),  # alice
        Actor(UUID(int=77), "foreign", org_admin_of=frozenset({w.other_org})),
    ]


def accounts(w: World) -> dict[str, AccountRef]:
    return {
        "system": AccountRef.system(),
        "org": AccountRef.organization(w.org),
        "other_org": AccountRef.organization(w.other_org),
        "group": AccountRef.group(w.group),
        "other_group": AccountRef.group(w.other_group),
        "foreign_group": AccountRef.group(w.foreign_group),
        "alice": AccountRef.user(w.alice),
        "carol": AccountRef.user(w.carol),
        "sink": AccountRef.consumption(w.org),
    }


#                 super  org_admin group_admin alice  foreign
ADMIN = {
    "system": [True, False, False, False, False],
    "org": [True, True, False, False, False],
    "other_org": [True, False, False, False, True],
    "group": [True, True, True, False, False],
    "other_group": [True, True, False, False, False],
    "foreign_group": [True, False, False, False, True],
    "alice": [False, False, False, False, False],
    "carol": [False, False, False, False, False],
    "sink": [False, False, False, False, False],
}
VIEW = {
    "system": [True, False, False, False, False],
    "org": [True, True, False, False, False],
    "other_org": [True, False, False, False, True],
    "group": [True, True, True, True, False],
    "other_group": [True, True, False, False, False],
    "foreign_group": [True, False, False, False, True],
    "alice": [True, True, True, True, False],
    "carol": [True, True, False, False, False],
    "sink": [True, True, False, False, False],
}


@pytest.mark.parametrize("name", list(ADMIN))
async def test_who_administers_and_who_reads_an_account(w: World, name: str) -> None:
    account = accounts(w)[name]
    assert [await svc.is_admin_of_account(a, w.directory, account) for a in actors(w)] == ADMIN[name], name
    assert [await svc.can_view_account(a, w.directory, account) for a in actors(w)] == VIEW[name], name


async def test_reads_refused_answer_like_missing_accounts(w: World) -> None:
    ledger = InMemoryLedger()
    await fund(w, ledger, alice=10)
    alice, carol = AccountRef.user(w.alice), AccountRef.user(w.carol)
    got = await svc.get_balances(w.member(), ledger, w.directory, [alice, AccountRef.group(w.group)])
    assert got[alice].balance_micro == 10 * C and got[AccountRef.group(w.group)].balance_micro == 490 * C
    with pytest.raises(DomainError) as hidden:
        await svc.get_balances(w.member(), ledger, w.directory, [alice, carol])
    assert (hidden.value.code.value, hidden.value.field, hidden.value.message) == (
        "NOT_FOUND",
        "account",
        "account not found",
    )
    assert await svc.wallet_holds(w.group_admin, ledger, w.directory, w.alice) == []
    with pytest.raises(DomainError) as holds:
        await svc.wallet_holds(w.member(), ledger, w.directory, w.carol)
    assert (holds.value.code.value, holds.value.field) == ("NOT_FOUND", "userId")
    mine = TransferQuery(account=alice)
    rows = await svc.ledger_history(w.member(), ledger, w.directory, mine)
    assert [t.amount_micro for _, t in rows] == [10 * C]
    assert await svc.ledger_history_count(w.member(), ledger, w.directory, mine) == 1
    with pytest.raises(DomainError) as everything:
        await svc.ledger_history(w.org_admin, ledger, w.directory, TransferQuery())
    assert (everything.value.code.value, everything.value.field, everything.value.message) == (
        "PERMISSION_DENIED", "account", "name an account to see its history",
    )  # fmt: skip
    with pytest.raises(DomainError) as counted:
        await svc.ledger_history_count(w.member(), ledger, w.directory, TransferQuery(account=carol))
    assert (counted.value.code.value, counted.value.field) == ("NOT_FOUND", "account")
    assert len(await svc.ledger_history(w.super_admin, ledger, w.directory, TransferQuery())) == 3
    for bad in (0, 10_001):
        with pytest.raises(DomainError) as limit:
            await svc.ledger_history(w.super_admin, ledger, w.directory, TransferQuery(limit=bad))
        assert (limit.value.field, limit.value.message) == ("limit", "limit must be between 1 and 10000")
    assert len(await svc.ledger_history(w.super_admin, ledger, w.directory, TransferQuery(limit=10_000))) == 3
    assert len(await svc.ledger_history(w.super_admin, ledger, w.directory, TransferQuery(limit=1))) == 1


async def test_moving_credits_needs_the_parents_admin_and_a_direct_child(w: World) -> None:
    ledger = InMemoryLedger()
    await fund(w, ledger)
    a = dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)

    async def refusal(actor: Actor, src: AccountRef, dst: AccountRef) -> tuple[str, str | None, str]:
        with pytest.raises(DomainError) as err:
            await svc.allocate(actor, **a, source=src, destination=dst, amount_micro=C, idempotency_key="k")  # type: ignore[arg-type]
        return (err.value.code.value, err.value.field, err.value.message)

    group, other = AccountRef.group(w.group), AccountRef.group(w.foreign_group)
    assert await refusal(w.group_admin, AccountRef.organization(w.org), group) == (
        "PERMISSION_DENIED", "source", f"only an admin of organization {w.org} may move credits to or from it",
    )  # fmt: skip
    assert await refusal(w.org_admin, AccountRef.organization(w.org), other) == (
        "INVALID_TRANSFER", "destination", f"group {w.foreign_group} is not directly below organization {w.org}",
    )  # fmt: skip
    assert await refusal(w.super_admin, AccountRef.system(), group) == (
        "INVALID_TRANSFER", "destination", "an allocation cannot move credits from a system account to a group account",
    )  # fmt: skip
    assert await refusal(w.super_admin, AccountRef.organization(w.org), AccountRef.user(w.alice)) == (
        "INVALID_TRANSFER", "destination",
        "an allocation cannot move credits from an organization account to a user account",
    )  # fmt: skip
    assert await refusal(w.group_admin, group, AccountRef.user(w.carol)) == (
        "INVALID_TRANSFER", "destination", f"user {w.carol} is not directly below group {w.group}",
    )  # fmt: skip
    assert await refusal(replace(w.super_admin, read_only=True), AccountRef.system(), AccountRef.organization(w.org)) == (
        "READ_ONLY_TOKEN", None, "this token is read-only",
    )  # fmt: skip
    with pytest.raises(DomainError) as back:
        await svc.take_back(
            w.group_admin,
            **a,
            source=AccountRef.user(w.carol),
            destination=group,
            amount_micro=C,
            idempotency_key="t",  # type: ignore[arg-type]
        )
    assert (back.value.field, back.value.message) == ("source", f"user {w.carol} is not directly below group {w.group}")


def test_history_exports_as_csv_with_exact_credits() -> None:
    t = Transfer(
        UUID(int=5),
        "k-1",
        TransferKind.ALLOCATION,
        AccountRef.organization(UUID(int=1)),
        AccountRef.group(UUID(int=2)),
        1_500_001,
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        UUID(int=9),
        Attribution(UUID(int=1), UUID(int=2), None),
        None,
        'march, "lab"',
    )
    assert svc.transfers_csv([(7, t)]).splitlines() == [
        ",".join(svc.CSV_HEADER),
        f"7,{t.id},2026-01-02T03:04:05+00:00,allocation,organization:{UUID(int=1)},group:{UUID(int=2)},"
        f'1.500001,k-1,{UUID(int=9)},{UUID(int=1)},{UUID(int=2)},,,"march, ""lab"""',
    ]
    system = replace(t, source=AccountRef.system(), actor_id=None, attribution=Attribution(None, None, None))
    assert svc.transfers_csv([(1, system)]).splitlines()[1].split(",")[4:9] == [
        "system", f"group:{UUID(int=2)}", "1.500001", "k-1", "",
    ]  # fmt: skip
