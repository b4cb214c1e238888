"""Must-show (a): random allocate / take back / hold / charge / release / renew / refill /
replay sequences keep the ledger whole.

After every step: every account's balance and held amount are exactly what a model of the
operations says (to the micro-credit: an operation that moved half the amount on both sides
would keep the sum at zero and fail here), every balance equals the sum of the account's
transfers in minus out, the sum over all accounts is zero, no account but the system's has a
negative available balance, each wallet's held amount is the sum of its open holds, and every
replayed idempotency key changed nothing. Every refused operation changed nothing.

The machine drives the use cases through a backend (ports + a way to run coroutines and read
the whole state); this file runs it on the in-memory adapters, and
tests/integration/credits/test_ledger_stateful_pg.py runs the same machine on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any, Protocol

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule

from domain.common.errors import DomainError
from domain.credits import services as svc
from domain.credits.errors import CreditsErrorCode
from domain.credits.model import AccountKind, AccountRef, HoldStatus
from domain.credits.refills import RefillCadence, RefillMode
from infra.credits.memory import InMemoryLedger, InMemoryRefillSchedules
from tests.unit.credits.world import World, run

C = 1_000_000
amounts = st.integers(min_value=1, max_value=300 * C)
Snapshot = tuple[dict[AccountRef, tuple[int, int]], int]


class Backend(Protocol):
    world: World
    ledger: Any
    refills: Any
    directory: Any

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any: ...

    def snapshot(self) -> Snapshot:
        """(balance, held) of every account of the world, and the number of transfers."""
        ...

    def total(self) -> int: ...

    def open_holds_by_wallet(self) -> dict[AccountRef, int]: ...

    def balances_from_transfers(self) -> dict[AccountRef, int]:
        """Every account's transfers in minus out, summed from the stored transfers."""
        ...


class MemoryBackend:
    def __init__(self) -> None:
        self.world = World()
        self.ledger = InMemoryLedger()
        self.refills = InMemoryRefillSchedules(self.ledger)
        self.directory = self.world.directory

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return run(coro)

    def snapshot(self) -> Snapshot:
        accounts = set(self.ledger.balance) | set(self.ledger.held)
        state = {a: (self.ledger.balance.get(a, 0), self.ledger.held.get(a, 0)) for a in accounts}
        return {a: v for a, v in state.items() if v != (0, 0)}, len(self.ledger.transfers)

    def total(self) -> int:
        return self.ledger.total()

    def balances_from_transfers(self) -> dict[AccountRef, int]:
        out: dict[AccountRef, int] = {}
        for _, t in self.ledger.transfers:
            out[t.source] = out.get(t.source, 0) - t.amount_micro
            out[t.destination] = out.get(t.destination, 0) + t.amount_micro
        return {a: v for a, v in out.items() if v}

    def open_holds_by_wallet(self) -> dict[AccountRef, int]:
        out: dict[AccountRef, int] = {}
        for hold in self.ledger.holds.values():
            if hold.status is HoldStatus.OPEN:
                out[hold.wallet] = out.get(hold.wallet, 0) + hold.amount_micro
            else:
                assert hold.amount_micro == 0
        return out


class LedgerMachine(RuleBasedStateMachine):
    holds = Bundle("holds")
    make_backend: Callable[[], Backend] = MemoryBackend

    def __init__(self) -> None:
        super().__init__()
        self.b = type(self).make_backend()
        self.w = w = self.b.world
        self.admin = w.super_admin
        self.counter = 0
        self.posted: list[Callable[[], Coroutine[Any, Any, Any]]] = []
        org, grp, other = (AccountRef.organization(w.org), AccountRef.group(w.group), AccountRef.group(w.other_group))
        self.down_edges = [
            (AccountRef.system(), org),
            (org, grp),
            (org, other),
            (grp, AccountRef.user(w.alice)),
            (grp, AccountRef.user(w.bob)),
            (other, AccountRef.user(w.carol)),
        ]
        self.users = [w.alice, w.bob, w.carol]
        # the model: what every balance, held amount and hold must be, computed from the
        # operations' own arguments (never read back from the ledger)
        # (starting from what the world holds: on PostgreSQL the system account is shared with
        # every earlier example and test)
        start = self.b.snapshot()[0]
        self.balance: dict[AccountRef, int] = {a: b for a, (b, _) in start.items()}
        self.held: dict[AccountRef, int] = {a: h for a, (_, h) in start.items()}
        self.hold_of: dict[Any, tuple[AccountRef, int, bool]] = {}  # hold id -> (wallet, amount, open)
        self.schedules: dict[Any, dict[str, Any]] = {}
        for kwargs in (
            dict(source=grp, mode=RefillMode.GRANT, amount_micro=5 * C, members_of_group=w.group),
            dict(source=other, mode=RefillMode.TOP_UP, amount_micro=50 * C, target=AccountRef.user(w.carol)),
        ):
            schedule = self.b.run(
                svc.create_refill_schedule(
                    self.admin, self.b.refills, self.b.directory, w.clock, w.ids, cadence=RefillCadence.DAILY, **kwargs
                )
            )
            self.schedules[schedule.id] = kwargs

    def teardown(self) -> None:
        close = getattr(self.b, "close", None)
        if close is not None:
            close()

    # -- helpers ----------------------------------------------------------------------------

    def key(self) -> str:
        self.counter += 1
        return f"k{self.counter}"

    def attempt(self, make: Callable[[], Coroutine[Any, Any, Any]], remember: bool = True) -> Any:
        """Run one operation; a refusal must leave everything as it was."""
        before = self.b.snapshot()
        try:
            result = self.b.run(make())
        except DomainError as exc:
            assert exc.code in (CreditsErrorCode.INSUFFICIENT_CREDITS, CreditsErrorCode.HOLD_CLOSED)
            assert self.b.snapshot() == before
            return None
        if remember:
            self.posted.append(make)
        return result

    def move(self, source: AccountRef, destination: AccountRef, amount: int) -> None:
        self.balance[source] = self.balance.get(source, 0) - amount
        self.balance[destination] = self.balance.get(destination, 0) + amount

    def hold_change(self, wallet: AccountRef, delta: int) -> None:
        self.held[wallet] = self.held.get(wallet, 0) + delta

    def deps(self) -> dict[str, Any]:
        return dict(ledger=self.b.ledger, directory=self.b.directory, clock=self.w.clock, ids=self.w.ids)

    # -- rules ------------------------------------------------------------------------------

    @rule(edge=st.integers(0, 5), amount=amounts)
    def allocate(self, edge: int, amount: int) -> None:
        source, destination = self.down_edges[edge]
        key = self.key()
        done = self.attempt(
            lambda: svc.allocate(
                self.admin,
                **self.deps(),
                source=source,
                destination=destination,
                amount_micro=amount,
                idempotency_key=key,
            )
        )
        if done is not None:
            self.move(source, destination, amount)

    @rule(edge=st.integers(0, 5), amount=amounts)
    def take_back(self, edge: int, amount: int) -> None:
        parent, child = self.down_edges[edge]
        key = self.key()
        done = self.attempt(
            lambda: svc.take_back(
                self.admin, **self.deps(), source=child, destination=parent, amount_micro=amount, idempotency_key=key
            )
        )
        if done is not None:
            self.move(child, parent, amount)

    @rule(target=holds, user=st.integers(0, 2), amount=amounts)
    def reserve(self, user: int, amount: int) -> Any:
        key, w = self.key(), self.w
        chain = w.chain(self.users[user])
        result = self.attempt(
            lambda: svc.reserve_hold(
                self.b.ledger, w.clock, w.ids, chain=chain, amount_micro=amount, idempotency_key=key
            )
        )
        if result is None:
            return None
        wallet = AccountRef.user(self.users[user])
        self.hold_change(wallet, amount)
        self.hold_of[result.hold.id] = (wallet, amount, True)
        return result.hold.id

    @rule(hold=holds, amount=amounts, settle=st.booleans())
    def charge(self, hold: Any, amount: int, settle: bool) -> None:
        if hold is None:
            return
        key, w = self.key(), self.w
        done = self.attempt(
            lambda: svc.charge_hold(
                self.b.ledger, w.clock, w.ids, hold_id=hold, amount_micro=amount, idempotency_key=key, settle=settle
            )
        )
        if done is None:
            return
        wallet, reserved, is_open = self.hold_of[hold]
        assert is_open, "a closed hold was charged"
        covered = min(reserved, amount)  # the hold pays first, the available balance the rest
        self.move(wallet, AccountRef.consumption(w.org), amount)
        self.hold_change(wallet, -(reserved if settle else covered))
        self.hold_of[hold] = (wallet, 0 if settle else reserved - covered, not settle)

    @rule(hold=consumes(holds))
    def release(self, hold: Any) -> None:
        if hold is not None:
            self.attempt(lambda: svc.release_hold(self.b.ledger, self.w.clock, hold_id=hold), remember=False)
            wallet, reserved, is_open = self.hold_of[hold]
            if is_open:
                self.hold_change(wallet, -reserved)
                self.hold_of[hold] = (wallet, 0, False)

    @rule(hold=holds, amount=st.integers(0, 300 * C))
    def renew(self, hold: Any, amount: int) -> None:
        if hold is not None:
            done = self.attempt(
                lambda: svc.renew_hold(self.b.ledger, self.w.clock, hold_id=hold, amount_micro=amount), remember=False
            )
            if done is not None:
                wallet, reserved, is_open = self.hold_of[hold]
                assert is_open, "a closed hold was renewed"
                self.hold_change(wallet, amount - reserved)
                self.hold_of[hold] = (wallet, amount, True)

    @rule(days=st.integers(0, 2), hours=st.integers(0, 23))
    def refill(self, days: int, hours: int) -> None:
        now = self.w.clock.advance(timedelta(days=days, hours=hours))
        before = self.b.snapshot()
        outcomes = self.b.run(svc.apply_due_refills(self.b.ledger, self.b.refills, self.b.directory, self.w.ids, now))
        for outcome in outcomes:
            assert outcome.applied or outcome.error is not None
            # on PostgreSQL the schedules of earlier examples are in the same tables: their
            # transfers move other worlds' accounts, not this one's
            if outcome.applied and outcome.schedule_id in self.schedules:
                self.apply_refill(self.schedules[outcome.schedule_id])
        if not any(o.applied for o in outcomes):
            assert self.b.snapshot() == before
        # at-least-once delivery: the same call again changes nothing
        again = self.b.snapshot()
        self.b.run(svc.apply_due_refills(self.b.ledger, self.b.refills, self.b.directory, self.w.ids, now))
        assert self.b.snapshot() == again

    def apply_refill(self, schedule: dict[str, Any]) -> None:
        """What one due period of a schedule moves, from the model's balances."""
        source = schedule["source"]
        if schedule.get("members_of_group") is not None:
            members = run_members(self.b, schedule["members_of_group"])
            for user in members:
                self.move(source, AccountRef.user(user), schedule["amount_micro"])
        else:
            target = schedule["target"]
            missing = schedule["amount_micro"] - self.balance.get(target, 0)  # TOP_UP
            if missing > 0:
                self.move(source, target, missing)

    @rule(data=st.data())
    def replay(self, data: st.DataObject) -> None:
        if not self.posted:
            return
        make = data.draw(st.sampled_from(self.posted))
        before = self.b.snapshot()
        try:
            result = self.b.run(make())
        except DomainError as exc:
            raise AssertionError(f"a replay was refused: {exc!r}") from exc
        assert result.replayed
        assert self.b.snapshot() == before

    # -- invariants (one read of the whole state per step) -------------------------------------

    @invariant()
    def the_ledger_is_exact(self) -> None:
        state = self.b.snapshot()[0]
        expected = {
            a: (self.balance.get(a, 0), self.held.get(a, 0))
            for a in set(self.balance) | set(self.held)
            if (self.balance.get(a, 0), self.held.get(a, 0)) != (0, 0)
        }
        assert state == expected, "a balance or held amount is not what the operations moved"
        balances = {a: b for a, (b, _) in state.items() if b}
        assert balances == self.b.balances_from_transfers(), "a balance is not the sum of its transfers"
        assert self.b.total() == 0
        for account, (balance, held) in state.items():
            assert held >= 0
            if account.kind is not AccountKind.SYSTEM:
                assert balance - held >= 0, account
        held_now = {a: h for a, (_, h) in state.items() if h}
        assert held_now == {a: h for a, h in self.b.open_holds_by_wallet().items() if h}


def run_members(backend: Backend, group: Any) -> list[Any]:
    return sorted(backend.run(backend.directory.group_member_ids(group)))


LedgerMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLedgerStateMachine = LedgerMachine.TestCase
