"""Policy model details: scope descriptions, quantities in messages, a refusal raised with
its numbers, and `check` called directly (as admission step 4 does)."""

from __future__ import annotations

from fractions import Fraction
from uuid import UUID

import pytest

from domain.policies.errors import PolicyErrorCode, PolicyLimitError
from domain.policies.model import (
    GLOBAL_SCOPE,
    PolicyScope,
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
