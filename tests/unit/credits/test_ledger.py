"""Ledger use cases on the in-memory adapter: hierarchy, roles, idempotency, holds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.credits import services as svc
from domain.credits.errors import CreditsErrorCode
from domain.credits.model import AccountRef, HoldStatus, TransferKind
from domain.credits.ports import TransferQuery
from infra.credits.memory import InMemoryLedger
from tests.unit.credits.world import World

C = 1_000_000  # one credit in micro-credits


@pytest.fixture
def w() -> World:
    return World()


@pytest.fixture
def ledger() -> InMemoryLedger:
    return InMemoryLedger()


async def fund(w: World, ledger: InMemoryLedger, org: int = 1000, group: int = 500, **users: int):
    """system → org → group → users, by the right admins."""
    a = dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)
    await svc.allocate(
        w.super_admin,
        **a,
        source=AccountRef.system(),
        destination=AccountRef.organization(w.org),
        amount_micro=org * C,
        idempotency_key="f-org",
    )
    await svc.allocate(
        w.org_admin,
        **a,
        source=AccountRef.organization(w.org),
        destination=AccountRef.group(w.group),
        amount_micro=group * C,
        idempotency_key="f-group",
    )
    for name, amount in users.items():
        await svc.allocate(
            w.group_admin,
            **a,
            source=AccountRef.group(w.group),
            destination=AccountRef.user(getattr(w, name)),
            amount_micro=amount * C,
            idempotency_key=f"f-{name}",
        )


def deps(w: World, ledger: InMemoryLedger) -> dict[str, object]:
    return dict(ledger=ledger, directory=w.directory, clock=w.clock, ids=w.ids)


async def available(ledger: InMemoryLedger, ref: AccountRef) -> int:
    return (await ledger.balances([ref]))[ref].available_micro


async def test_credits_flow_down_and_the_ledger_sums_to_zero(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=100)
    assert await available(ledger, AccountRef.organization(w.org)) == 500 * C
    assert await available(ledger, AccountRef.group(w.group)) == 400 * C
    assert await available(ledger, AccountRef.user(w.alice)) == 100 * C
    assert await available(ledger, AccountRef.system()) == -1000 * C
    assert ledger.total() == 0


async def test_take_back_goes_up_by_the_same_admins(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=100)
    await svc.take_back(
        w.group_admin,
        **deps(w, ledger),
        source=AccountRef.user(w.alice),
        destination=AccountRef.group(w.group),
        amount_micro=40 * C,
        idempotency_key="tb",
    )
    assert await available(ledger, AccountRef.user(w.alice)) == 60 * C
    assert await available(ledger, AccountRef.group(w.group)) == 440 * C


# ------------------------------------------------------------------ must-show (c): role tests


async def test_group_admin_cannot_allocate_to_another_group(w: World, ledger: InMemoryLedger):
    await fund(w, ledger)
    before = dict(ledger.balance)
    with pytest.raises(DomainError) as err:  # a user of another group, from its own group
        await svc.allocate(
            w.group_admin,
            **deps(w, ledger),
            source=AccountRef.group(w.group),
            destination=AccountRef.user(w.carol),
            amount_micro=C,
            idempotency_key="x1",
        )
    assert err.value.code == CreditsErrorCode.INVALID_TRANSFER
    with pytest.raises(DomainError) as err:  # the other group, from the org
        await svc.allocate(
            w.group_admin,
            **deps(w, ledger),
            source=AccountRef.organization(w.org),
            destination=AccountRef.group(w.other_group),
            amount_micro=C,
            idempotency_key="x2",
        )
    assert err.value.code == CommonErrorCode.PERMISSION_DENIED
    assert ledger.balance == before


async def test_group_admin_cannot_take_from_the_org(w: World, ledger: InMemoryLedger):
    await fund(w, ledger)
    before = dict(ledger.balance)
    for source, destination in [
        (AccountRef.organization(w.org), AccountRef.group(w.group)),  # allocate to own group
        (AccountRef.organization(w.org), AccountRef.system()),
    ]:
        op = svc.allocate if destination.kind.value == "group" else svc.take_back
        with pytest.raises(DomainError) as err:
            await op(
                w.group_admin,
                **deps(w, ledger),
                source=source,
                destination=destination,
                amount_micro=C,
                idempotency_key=f"y-{destination.kind}",
            )
        assert err.value.code == CommonErrorCode.PERMISSION_DENIED
    assert ledger.balance == before


async def test_a_member_cannot_move_credits(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=100)
    before = dict(ledger.balance)
    member = w.member()
    attempts = [
        (svc.allocate, AccountRef.group(w.group), AccountRef.user(w.alice)),
        (svc.allocate, AccountRef.group(w.group), AccountRef.user(w.bob)),
        (svc.allocate, AccountRef.user(w.alice), AccountRef.user(w.bob)),
        (svc.take_back, AccountRef.user(w.bob), AccountRef.group(w.group)),
        (svc.take_back, AccountRef.user(w.alice), AccountRef.group(w.group)),
    ]
    for i, (op, source, destination) in enumerate(attempts):
        with pytest.raises(DomainError) as err:
            await op(
                member,
                **deps(w, ledger),
                source=source,
                destination=destination,
                amount_micro=C,
                idempotency_key=f"m{i}",
            )
        assert err.value.code in (
            CommonErrorCode.PERMISSION_DENIED,
            CreditsErrorCode.INVALID_TRANSFER,
        )
    with pytest.raises(DomainError) as err:
        await svc.allocate_to_group_members(
            member, **deps(w, ledger), group_id=w.group, amount_micro=C, idempotency_key="mb"
        )
    assert err.value.code == CommonErrorCode.PERMISSION_DENIED
    assert ledger.balance == before


async def test_a_read_only_token_cannot_move_credits(w: World, ledger: InMemoryLedger):
    from dataclasses import replace

    await fund(w, ledger)
    with pytest.raises(DomainError) as err:
        await svc.allocate(
            replace(w.super_admin, read_only=True),
            **deps(w, ledger),
            source=AccountRef.system(),
            destination=AccountRef.organization(w.org),
            amount_micro=C,
            idempotency_key="ro",
        )
    assert err.value.code == CommonErrorCode.READ_ONLY_TOKEN


async def test_allocation_above_available_is_refused_and_moves_nothing(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=100)
    before = dict(ledger.balance)
    with pytest.raises(DomainError) as err:
        await svc.allocate(
            w.group_admin,
            **deps(w, ledger),
            source=AccountRef.group(w.group),
            destination=AccountRef.user(w.bob),
            amount_micro=401 * C,
            idempotency_key="big",
        )
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    assert "400" in err.value.message and "401" in err.value.message
    assert ledger.balance == before
    assert svc.caller_key(w.group_admin, "big") not in ledger.by_key


async def test_edges_skip_no_level(w: World, ledger: InMemoryLedger):
    await fund(w, ledger)
    with pytest.raises(DomainError) as err:
        await svc.allocate(
            w.org_admin,
            **deps(w, ledger),
            source=AccountRef.organization(w.org),
            destination=AccountRef.user(w.alice),
            amount_micro=C,
            idempotency_key="skip",
        )
    assert err.value.code == CreditsErrorCode.INVALID_TRANSFER


# ------------------------------------------------------------------------------ idempotency


async def test_replay_returns_the_first_result_and_reuse_is_refused(w: World, ledger: InMemoryLedger):
    await fund(w, ledger)
    kw = dict(
        source=AccountRef.group(w.group),
        destination=AccountRef.user(w.alice),
        amount_micro=5 * C,
        idempotency_key="k1",
    )
    first = await svc.allocate(w.group_admin, **deps(w, ledger), **kw)
    again = await svc.allocate(w.group_admin, **deps(w, ledger), **kw)
    assert not first.replayed and again.replayed
    assert again.transfer == first.transfer
    assert await available(ledger, AccountRef.user(w.alice)) == 5 * C
    with pytest.raises(DomainError) as err:
        await svc.allocate(w.group_admin, **deps(w, ledger), **{**kw, "amount_micro": 6 * C})
    assert err.value.code == CreditsErrorCode.IDEMPOTENCY_KEY_REUSED
    assert await available(ledger, AccountRef.user(w.alice)) == 5 * C


async def test_bulk_allocation_pays_every_member_once(w: World, ledger: InMemoryLedger):
    await fund(w, ledger)
    results = await svc.allocate_to_group_members(
        w.group_admin,
        **deps(w, ledger),
        group_id=w.group,
        amount_micro=10 * C,
        idempotency_key="bulk",
    )
    assert len(results) == 3 and not any(r.replayed for r in results)
    again = await svc.allocate_to_group_members(
        w.group_admin,
        **deps(w, ledger),
        group_id=w.group,
        amount_micro=10 * C,
        idempotency_key="bulk",
    )
    assert all(r.replayed for r in again)
    for user in (w.alice, w.bob, w.admin_user):
        assert await available(ledger, AccountRef.user(user)) == 10 * C
    assert {r.transfer.idempotency_key for r in results} == {
        svc.member_key(svc.caller_key(w.group_admin, "bulk"), u) for u in (w.alice, w.bob, w.admin_user)
    }


async def test_bulk_allocation_is_all_or_nothing(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, group=25)
    before = dict(ledger.balance)
    with pytest.raises(DomainError) as err:
        await svc.allocate_to_group_members(
            w.group_admin,
            **deps(w, ledger),
            group_id=w.group,
            amount_micro=10 * C,
            idempotency_key="b2",
        )
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    assert ledger.balance == before


# ------------------------------------------------------------------------------------ holds


async def test_hold_reserve_charge_renew_settle(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=100)
    wallet = AccountRef.user(w.alice)
    hold = (
        await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=30 * C, idempotency_key="h1")
    ).hold
    assert await available(ledger, wallet) == 70 * C
    await svc.charge_hold(ledger, w.clock, w.ids, hold_id=hold.id, amount_micro=10 * C, idempotency_key="c1")
    assert (await ledger.balances([wallet]))[wallet].held_micro == 20 * C
    assert await available(ledger, wallet) == 70 * C
    renewed = await svc.renew_hold(ledger, w.clock, hold_id=hold.id, amount_micro=50 * C)
    assert renewed.amount_micro == 50 * C and await available(ledger, wallet) == 40 * C
    # a charge bigger than the hold takes the excess from the available balance
    await svc.charge_hold(
        ledger,
        w.clock,
        w.ids,
        hold_id=hold.id,
        amount_micro=60 * C,
        idempotency_key="c2",
        settle=True,
    )
    settled = await ledger.get_hold(hold.id)
    assert settled is not None and settled.status is HoldStatus.SETTLED
    assert settled.charged_micro == 70 * C
    balance = (await ledger.balances([wallet]))[wallet]
    assert (balance.balance_micro, balance.held_micro) == (30 * C, 0)
    consumption = AccountRef.consumption(w.org)
    assert (await ledger.balances([consumption]))[consumption].balance_micro == 70 * C
    with pytest.raises(DomainError) as err:
        await svc.charge_hold(ledger, w.clock, w.ids, hold_id=hold.id, amount_micro=C, idempotency_key="c3")
    assert err.value.code == CreditsErrorCode.HOLD_CLOSED
    # a replayed charge on a settled hold still answers its first result
    replay = await svc.charge_hold(
        ledger,
        w.clock,
        w.ids,
        hold_id=hold.id,
        amount_micro=60 * C,
        idempotency_key="c2",
        settle=True,
    )
    assert replay.replayed
    history = await ledger.history(TransferQuery(account=wallet, kind=TransferKind.CHARGE))
    assert [t.amount_micro for _, t in history] == [60 * C, 10 * C]


async def test_hold_release_and_refusals(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=10)
    wallet = AccountRef.user(w.alice)
    with pytest.raises(DomainError) as err:
        await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=11 * C, idempotency_key="h-big")
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    hold = (
        await svc.reserve_hold(ledger, w.clock, w.ids, chain=w.chain(), amount_micro=8 * C, idempotency_key="h")
    ).hold
    with pytest.raises(DomainError) as err:
        await svc.renew_hold(ledger, w.clock, hold_id=hold.id, amount_micro=11 * C)
    assert err.value.code == CreditsErrorCode.INSUFFICIENT_CREDITS
    released = await svc.release_hold(ledger, w.clock, hold_id=hold.id)
    assert released.status is HoldStatus.RELEASED
    assert await svc.release_hold(ledger, w.clock, hold_id=hold.id) == released  # no-op
    assert await available(ledger, wallet) == 10 * C


async def test_charges_only_from_the_requesters_own_wallet(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=10, bob=10)
    with pytest.raises(DomainError) as err:
        await svc.charge_wallet(
            ledger,
            w.clock,
            w.ids,
            wallet=AccountRef.user(w.bob),
            chain=w.chain(w.alice),
            amount_micro=C,
            idempotency_key="cw",
        )
    assert err.value.code == CreditsErrorCode.NOT_A_PERSONAL_WALLET
    with pytest.raises(DomainError) as err:
        await svc.charge_wallet(
            ledger,
            w.clock,
            w.ids,
            wallet=AccountRef.group(w.group),
            chain=w.chain(w.alice),
            amount_micro=C,
            idempotency_key="cw2",
        )
    assert err.value.code == CreditsErrorCode.NOT_A_PERSONAL_WALLET


def test_hold_estimate_uses_the_shorter_of_expiry_and_window():
    rate = 2 * C  # per hour, whole card
    assert svc.estimate_hold_micro(rate, Fraction(1, 4), None) == C // 2
    assert svc.estimate_hold_micro(rate, Fraction(1, 4), 1800) == C // 4
    assert svc.estimate_hold_micro(rate, Fraction(1), 4 * 3600) == 2 * C


async def test_history_and_csv(w: World, ledger: InMemoryLedger):
    await fund(w, ledger, alice=1)
    rows = await svc.ledger_history(
        w.group_admin, ledger, w.directory, TransferQuery(account=AccountRef.group(w.group))
    )
    assert [t.kind for _, t in rows] == [TransferKind.ALLOCATION] * 2
    text = svc.transfers_csv(rows)
    assert text.splitlines()[0].startswith("seq,id,created_at,kind")
    assert ",1," in text.splitlines()[1] and ",500," in text.splitlines()[2]
    older = await ledger.history(TransferQuery(before_seq=rows[0][0], limit=1))
    assert older[0][0] < rows[0][0]
    with pytest.raises(DomainError):
        await svc.ledger_history(w.member(w.bob), ledger, w.directory, TransferQuery(account=AccountRef.user(w.alice)))


async def test_caller_keys_live_in_the_callers_namespace(w: World, ledger: InMemoryLedger):
    await fund(w, ledger)
    kw = dict(source=AccountRef.organization(w.org), destination=AccountRef.group(w.group), idempotency_key="same")
    first = await svc.allocate(w.org_admin, **deps(w, ledger), amount_micro=C, **kw)
    other = await svc.allocate(w.super_admin, **deps(w, ledger), amount_micro=2 * C, **kw)
    assert not first.replayed and not other.replayed  # different callers, no collision
    with pytest.raises(DomainError) as err:
        await svc.allocate(w.org_admin, **deps(w, ledger), amount_micro=C, **{**kw, "idempotency_key": "k" * 121})
    assert err.value.code == CreditsErrorCode.INVALID_TRANSFER
