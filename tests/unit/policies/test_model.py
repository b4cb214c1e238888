"""Policy model details: scope descriptions, quantities in messages, a refusal raised with
its numbers, and `check` called directly (as admission step 4 does)."""

from __future__ import annotations

from fractions import Fraction
from uuid import UUID

import pytest

from domain.common.errors import InvalidValueError
from domain.policies.errors import PolicyErrorCode, PolicyLimitError
from domain.policies.model import (
    GLOBAL_SCOPE,
    PolicyScope,
    PolicyScopeKind,
    ResourcePolicy,
    ResourceRequest,
    ScopeChain,
    Usage,
    check,
    format_quantity,
    resolve,
)

USER_ID, GROUP_ID, ORG_ID = UUID(int=1), UUID(int=2), UUID(int=3)
CHAIN = ScopeChain(USER_ID, GROUP_ID, ORG_ID, "ada", "Lab", "Acme")


def test_scopes_are_described_by_name_or_id() -> None:
    assert CHAIN.describe(PolicyScope.user(USER_ID)) == "user ada"
    assert CHAIN.describe(PolicyScope.group(GROUP_ID)) == "group Lab"
    assert CHAIN.describe(PolicyScope.organization(ORG_ID)) == "organization Acme"
    assert CHAIN.describe(GLOBAL_SCOPE) == "the whole deployment"
    assert ScopeChain(USER_ID, GROUP_ID, ORG_ID).describe(PolicyScope.group(GROUP_ID)) == f"group {GROUP_ID}"
    assert CHAIN.scopes() == (
        PolicyScope.user(USER_ID),
        PolicyScope.group(GROUP_ID),
        PolicyScope.organization(ORG_ID),
        GLOBAL_SCOPE,
    )


def test_quantities_read_as_decimals_or_to_three_places() -> None:
    assert format_quantity(4) == "4"
    assert format_quantity(Fraction(8, 2)) == "4"
    assert format_quantity(Fraction(15, 4)) == "3.75"
    assert format_quantity(Fraction(1, 5)) == "0.2"
    assert format_quantity(Fraction(3, 40)) == "0.075"
    assert format_quantity(Fraction(1, 3)) == "0.333"
    assert format_quantity(Fraction(2, 7)) == "0.286"
    assert format_quantity(Fraction(1, 2**30)) == "0"  # below a millionth: no dangling point


def test_a_negative_setting_is_refused_naming_the_field_in_camel_case() -> None:
    with pytest.raises(Exception) as err:
        ResourcePolicy(PolicyScope.group(GROUP_ID), max_cpu_millicores=-1)
    assert (err.value.field, err.value.message) == ("maxCpuMillicores", "cannot be negative")  # type: ignore[attr-defined]
    with pytest.raises(Exception) as cap:
        ResourcePolicy(PolicyScope.group(GROUP_ID), model_caps={"A100": Fraction(-1)})
    assert (cap.value.field, cap.value.message) == ("modelCaps", "invalid cap for 'A100'")  # type: ignore[attr-defined]
    with pytest.raises(Exception) as unnamed:
        ResourcePolicy(PolicyScope.group(GROUP_ID), model_caps={"": Fraction(1)})
    assert unnamed.value.message == "invalid cap for ''"  # type: ignore[attr-defined]


def test_check_called_directly_asks_anew_and_a_refusal_raises_with_its_numbers() -> None:
    group = PolicyScope.group(GROUP_ID)
    effective = resolve(CHAIN, {group: ResourcePolicy(group, max_gpus=Fraction(1))})
    usage = {group: Usage(sessions=2, gpus=Fraction(1))}
    decision = check(effective, usage, ResourceRequest(gpu_ratio=Fraction(1, 4)))
    assert decision.refusal is not None and not decision.allowed  # counted=False by default
    with pytest.raises(PolicyLimitError) as err:
        decision.raise_if_refused()
    e = err.value
    assert (e.code, e.field, e.limit, e.used, e.requested) == (
        PolicyErrorCode.POLICY_LIMIT_EXCEEDED, "max_gpus", Fraction(1), Fraction(1), Fraction(1, 4),
    )  # fmt: skip
    assert e.message == "group Lab uses 1 of 1 GPUs; this asks 0.25"
    check(effective, usage, ResourceRequest(gpu_ratio=Fraction(1, 4)), counted=True).raise_if_refused()


def test_a_cluster_outside_the_allowed_ones_is_refused_naming_the_scope_that_excludes_it() -> None:
    org, group = PolicyScope.organization(ORG_ID), PolicyScope.group(GROUP_ID)
    effective = resolve(
        CHAIN,
        {
            org: ResourcePolicy(org, allowed_clusters=frozenset({"a", "b"})),
            group: ResourcePolicy(group, allowed_clusters=frozenset({"b"})),
        },
    )
    decision = check(effective, {}, ResourceRequest(cluster="a"))
    r = decision.refusal
    assert r is not None
    # the organisation allows a; the group is what leaves it out
    assert (r.code, r.scope, r.field) == (PolicyErrorCode.CLUSTER_NOT_ALLOWED, group, "allowed_clusters")
    assert r.message == "cluster a is not among the clusters allowed to user ada"
    assert effective.allowed_clusters_sources == (group, org)
    assert effective.allowed_clusters_by_scope == ((group, frozenset({"b"})), (org, frozenset({"a", "b"})))
    assert check(effective, {}, ResourceRequest(cluster="b")).allowed
    assert check(effective, {}, ResourceRequest()).allowed  # no cluster asked: nothing to refuse


@pytest.mark.parametrize(
    ("cluster", "excluded_by"),
    [("d", "user"), ("c", "group"), ("b", "organization"), ("a", None)],
)
def test_the_refusal_names_the_most_specific_scope_whose_clusters_lack_the_cluster(
    cluster: str, excluded_by: str | None
) -> None:
    user, org, group = PolicyScope.user(USER_ID), PolicyScope.organization(ORG_ID), PolicyScope.group(GROUP_ID)
    effective = resolve(
        CHAIN,
        {
            user: ResourcePolicy(user, allowed_clusters=frozenset({"a", "b", "c"})),
            group: ResourcePolicy(group, allowed_clusters=frozenset({"a", "b"})),
            org: ResourcePolicy(org, allowed_clusters=frozenset({"a", "c", "d"})),
        },
    )
    refusal = check(effective, {}, ResourceRequest(cluster=cluster)).refusal
    scopes = {"user": user, "group": group, "organization": org}
    if excluded_by is None:
        assert refusal is None
    else:
        assert refusal is not None and refusal.scope == scopes[excluded_by]
        assert refusal.code is PolicyErrorCode.CLUSTER_NOT_ALLOWED


def test_a_scope_has_an_id_exactly_when_it_is_not_the_global_one() -> None:
    assert PolicyScope.global_() == GLOBAL_SCOPE
    assert (GLOBAL_SCOPE.kind, GLOBAL_SCOPE.id) == (PolicyScopeKind.GLOBAL, None)
    for bad in (lambda: PolicyScope(PolicyScopeKind.GLOBAL, ORG_ID), lambda: PolicyScope(PolicyScopeKind.GROUP)):
        with pytest.raises(InvalidValueError) as err:
            bad()
        assert (err.value.field, err.value.message) == (
            "scope",
            "the global scope has no id; every other scope has one",
        )


def test_a_model_cap_of_zero_cards_is_valid_and_refuses_any_card_of_that_model() -> None:
    group = PolicyScope.group(GROUP_ID)
    policy = ResourcePolicy(group, model_caps={"A100": Fraction(0)})
    effective = resolve(CHAIN, {group: policy})
    refusal = check(effective, {}, ResourceRequest(gpu_ratio=Fraction(1, 10), model="A100")).refusal
    assert refusal is not None and (refusal.field, refusal.limit, refusal.used) == ("model_caps", 0, 0)
    assert check(effective, {}, ResourceRequest(gpu_ratio=Fraction(1), model="H100")).allowed


def test_a_model_nobody_uses_yet_counts_as_zero_cards_against_its_cap() -> None:
    group = PolicyScope.group(GROUP_ID)
    effective = resolve(CHAIN, {group: ResourcePolicy(group, model_caps={"A100": Fraction(1)})})
    usage = {group: Usage(sessions=1, gpus=Fraction(1), per_model={"H100": Fraction(1)})}
    assert check(effective, usage, ResourceRequest(gpu_ratio=Fraction(1), model="A100")).allowed
    refusal = check(effective, usage, ResourceRequest(gpu_ratio=Fraction(5, 4), model="A100")).refusal
    assert refusal is not None and (refusal.used, refusal.requested) == (0, Fraction(5, 4))
    assert refusal.message == "group Lab uses 0 of 1 A100 cards; this asks 1.25"


def test_limits_the_request_does_not_touch_are_skipped_not_the_end_of_the_check() -> None:
    user, group = PolicyScope.user(USER_ID), PolicyScope.group(GROUP_ID)
    # the user's limits come first: a cap on another model and one on VRAM the request does
    # not ask for; the group's GPU cap after them is what the request breaks
    effective = resolve(
        CHAIN,
        {
            user: ResourcePolicy(user, max_vram_mib=1024, model_caps={"H100": Fraction(1)}),
            group: ResourcePolicy(group, max_gpus=Fraction(1, 2)),
        },
    )
    assert [(limit.name, limit.scope) for limit in effective.limits] == [
        ("max_vram_mib", user), ("model_caps", user), ("max_gpus", group),
    ]  # fmt: skip
    refusal = check(effective, {}, ResourceRequest(gpu_ratio=Fraction(1), model="A100")).refusal
    assert refusal is not None and (refusal.scope, refusal.field) == (group, "max_gpus")
    # a cap on the request's own model but a request without a card: skipped as well
    effective = resolve(
        CHAIN,
        {
            user: ResourcePolicy(user, model_caps={"A100": Fraction(0)}),
            group: ResourcePolicy(group, max_cpu_millicores=500),
        },
    )
    refusal = check(effective, {}, ResourceRequest(model="A100", cpu_millicores=1000)).refusal
    assert refusal is not None and (refusal.scope, refusal.field) == (group, "max_cpu_millicores")


def test_a_whole_fraction_prints_every_digit_however_large() -> None:
    # past 2**53 a float no longer holds every integer: whole numbers are printed as integers
    assert format_quantity(Fraction(2**53 + 1)) == "9007199254740993"
    assert format_quantity(2**53 + 1) == "9007199254740993"


def test_each_limit_stands_against_the_use_of_the_scope_it_bounds() -> None:
    from domain.policies.model import standings

    policies = {
        PolicyScope.group(GROUP_ID): ResourcePolicy(
            PolicyScope.group(GROUP_ID), max_gpus=Fraction(4), model_caps={"A100": Fraction(2)}, max_memory_mib=1000
        ),
        GLOBAL_SCOPE: ResourcePolicy(GLOBAL_SCOPE, max_concurrent_sessions=3),
    }
    effective = resolve(CHAIN, policies)
    usage = {
        PolicyScope.group(GROUP_ID): Usage(
            sessions=2, gpus=Fraction(5, 2), per_model={"A100": Fraction(5, 2)}, memory_mib=400
        ),
        PolicyScope.user(USER_ID): Usage(sessions=1, gpus=Fraction(1)),
        GLOBAL_SCOPE: Usage(sessions=4),
    }
    got = {(s.limit.name, s.limit.scope.kind): (s.used, s.remaining) for s in standings(effective, usage)}
    assert got == {
        ("max_gpus", PolicyScopeKind.GROUP): (Fraction(5, 2), Fraction(3, 2)),
        ("max_memory_mib", PolicyScopeKind.GROUP): (400, 600),
        # a cap already passed (it was lowered) leaves nothing, not a negative amount
        ("model_caps", PolicyScopeKind.GROUP): (Fraction(5, 2), 0),
        ("max_concurrent_sessions", PolicyScopeKind.GLOBAL): (4, 0),
    }
    # a scope with no use yet counts 0
    fresh = standings(effective, {})
    assert [(s.used, s.remaining) for s in fresh] == [(0, 4), (0, 1000), (0, 2), (0, 3)]
