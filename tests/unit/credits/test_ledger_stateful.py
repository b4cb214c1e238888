"""Must-show (a): random allocate / take back / hold / charge / release / renew / refill /
replay sequences keep the ledger whole.

After every step: the sum over all accounts is unchanged (zero), no account but the system's
has a negative available balance, each wallet's held amount is the sum of its open holds, and
every replayed idempotency key changed nothing. Every refused operation changed nothing.

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
        for kwargs in (
            dict(source=grp, mode=RefillMode.GRANT, amount_micro=5 * C, members_of_group=w.group),
            dict(source=other, mode=RefillMode.TOP_UP, amount_micro=50 * C, target=AccountRef.user(w.carol)),
        ):
            self.b.run(
                svc.create_refill_schedule(
                    self.admin, self.b.refills, self.b.directory, w.clock, w.ids, cadence=RefillCadence.DAILY, **kwargs
                )
            )

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

    def deps(self) -> dict[str, Any]:
        return dict(ledger=self.b.ledger, directory=self.b.directory, clock=self.w.clock, ids=self.w.ids)

    # -- rules ------------------------------------------------------------------------------

    @rule(edge=st.integers(0, 5), amount=amounts)
    def allocate(self, edge: int, amount: int) -> None:
        source, destination = self.down_edges[edge]
        key = self.key()
        self.attempt(
            lambda: svc.allocate(
                self.admin,
                **self.deps(),
                source=source,
                destination=destination,
                amount_micro=amount,
                idempotency_key=key,
            )
        )

    @rule(edge=st.integers(0, 5), amount=amounts)
    def take_back(self, edge: int, amount: int) -> None:
        parent, child = self.down_edges[edge]
        key = self.key()
        self.attempt(
            lambda: svc.take_back(
                self.admin, **self.deps(), source=child, destination=parent, amount_micro=amount, idempotency_key=key
            )
        )

    @rule(target=holds, user=st.integers(0, 2), amount=amounts)
    def reserve(self, user: int, amount: int) -> Any:
        key, w = self.key(), self.w
        chain = w.chain(self.users[user])
        result = self.attempt(
            lambda: svc.reserve_hold(
                self.b.ledger, w.clock, w.ids, chain=chain, amount_micro=amount, idempotency_key=key
            )
        )
        return None if result is None else result.hold.id

    @rule(hold=holds, amount=amounts, settle=st.booleans())
    def charge(self, hold: Any, amount: int, settle: bool) -> None:
        if hold is None:
            return
        key, w = self.key(), self.w
        self.attempt(
            lambda: svc.charge_hold(
                self.b.ledger, w.clock, w.ids, hold_id=hold, amount_micro=amount, idempotency_key=key, settle=settle
            )
        )

    @rule(hold=consumes(holds))
    def release(self, hold: Any) -> None:
        if hold is not None:
            self.attempt(lambda: svc.release_hold(self.b.ledger, self.w.clock, hold_id=hold), remember=False)

    @rule(hold=holds, amount=st.integers(0, 300 * C))
    def renew(self, hold: Any, amount: int) -> None:
        if hold is not None:
            self.attempt(
                lambda: svc.renew_hold(self.b.ledger, self.w.clock, hold_id=hold, amount_micro=amount), remember=False
            )

    @rule(days=st.integers(0, 2), hours=st.integers(0, 23))
    def refill(self, days: int, hours: int) -> None:
        now = self.w.clock.advance(timedelta(days=days, hours=hours))
        before = self.b.snapshot()
        outcomes = self.b.run(svc.apply_due_refills(self.b.ledger, self.b.refills, self.b.directory, self.w.ids, now))
        for outcome in outcomes:
            assert outcome.applied or outcome.error is not None
        if not any(o.applied for o in outcomes):
            assert self.b.snapshot() == before
        # at-least-once delivery: the same call again changes nothing
        again = self.b.snapshot()
        self.b.run(svc.apply_due_refills(self.b.ledger, self.b.refills, self.b.directory, self.w.ids, now))
        assert self.b.snapshot() == again

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

    # -- invariants -------------------------------------------------------------------------

    @invariant()
    def sums_to_zero(self) -> None:
        assert self.b.total() == 0

    @invariant()
    def nobody_but_the_system_is_negative(self) -> None:
        for account, (balance, held) in self.b.snapshot()[0].items():
            assert held >= 0
            if account.kind is not AccountKind.SYSTEM:
                assert balance - held >= 0, account

    @invariant()
    def held_is_the_sum_of_open_holds(self) -> None:
        held = {a: h for a, (_, h) in self.b.snapshot()[0].items() if h}
        assert held == {a: h for a, h in self.b.open_holds_by_wallet().items() if h}


LedgerMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLedgerStateMachine = LedgerMachine.TestCase
