"""Policy resolution: per-person settings from the most specific scope, aggregate limits at
every level, and the effective view with sources."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.policies import services as svc
from domain.policies.errors import PolicyErrorCode
from domain.policies.model import (
    GLOBAL_SCOPE,
    PolicyScope,
    ResourcePolicy,
    ResourceRequest,
    Usage,
    format_quantity,
)
from infra.credits.memory import InMemoryPolicies, InMemoryUsage
from tests.unit.credits.world import World


@pytest.fixture
def w() -> World:
    return World()


def scopes(w: World) -> tuple[PolicyScope, PolicyScope, PolicyScope]:
    return PolicyScope.user(w.alice), PolicyScope.group(w.group), PolicyScope.organization(w.org)


async def test_user_idle_timeout_beats_the_groups_which_beats_the_orgs(w: World):
    policies = InMemoryPolicies()
    user, group, org = scopes(w)
    await policies.put(ResourcePolicy(org, idle_timeout_seconds=3600, default_priority=5))
    effective = await svc.effective_policy(policies, w.chain())
    assert effective.settings["idle_timeout_seconds"].value == 3600
    assert effective.settings["idle_timeout_seconds"].source == org
    await policies.put(ResourcePolicy(group, idle_timeout_seconds=1800))
    effective = await svc.effective_policy(policies, w.chain())
    assert (effective.setting("idle_timeout_seconds"), effective.settings["idle_timeout_seconds"].source) == (
        1800,
        group,
    )
    await policies.put(ResourcePolicy(user, idle_timeout_seconds=600))
    effective = await svc.effective_policy(policies, w.chain())
    assert (effective.setting("idle_timeout_seconds"), effective.settings["idle_timeout_seconds"].source) == (600, user)
    # fields nobody sets below keep coming from where they are set, or the built-in default
    assert effective.settings["default_priority"].source == org
    assert effective.settings["approval_required"].source is None
    assert effective.setting("approval_required") is False
    # bob, in the same group, gets the group's value
    bob = await svc.effective_policy(policies, w.chain(w.bob))
    assert bob.setting("idle_timeout_seconds") == 1800


async def test_group_aggregate_gpu_cap_refuses_even_when_the_user_cap_allows(w: World):
    policies, usage = InMemoryPolicies(), InMemoryUsage()
    user, group, _org = scopes(w)
    await policies.put(ResourcePolicy(user, max_gpus=Fraction(2), model_caps={"A100": Fraction(2)}))
    await policies.put(ResourcePolicy(group, model_caps={"A100": Fraction(4)}))
    usage.set(user, Usage(sessions=1, gpus=Fraction(1, 2), per_model={"A100": Fraction(1, 2)}))
    usage.set(group, Usage(sessions=5, gpus=Fraction(15, 4), per_model={"A100": Fraction(15, 4)}))
    request = ResourceRequest(gpu_ratio=Fraction(1, 2), model="A100")
    decision = await svc.check_policy_limits(policies, usage, w.chain(), request)
    assert not decision.allowed and decision.refusal is not None
    refusal = decision.refusal
    assert refusal.code == PolicyErrorCode.POLICY_LIMIT_EXCEEDED
    assert (refusal.scope, refusal.field, refusal.model) == (group, "model_caps", "A100")
    assert (refusal.limit, refusal.used, refusal.requested) == (4, Fraction(15, 4), Fraction(1, 2))
    assert refusal.message == "group ML-Lab uses 3.75 of 4 A100 cards; this asks 0.5"
    with pytest.raises(DomainError) as err:
        decision.raise_if_refused()
    assert err.value.code == PolicyErrorCode.POLICY_LIMIT_EXCEEDED and err.value.field == "model_caps"
    # a quarter card still fits the group
    ok = await svc.check_policy_limits(policies, usage, w.chain(), ResourceRequest(Fraction(1, 4), "A100"))
    assert ok.allowed
    # other models are not capped by the A100 cap
    ok = await svc.check_policy_limits(policies, usage, w.chain(), ResourceRequest(Fraction(1), "H100"))
    assert ok.allowed


async def test_a_request_already_counted_is_refused_only_when_usage_alone_exceeds_a_limit(w: World):
    """A queued session that a drain admits is in the usage already (it counts while it
    waits): re-checked, it breaks a limit on what it uses only if that usage exceeds it."""
    policies, usage = InMemoryPolicies(), InMemoryUsage()
    _user, group, _org = scopes(w)
    await policies.put(ResourcePolicy(group, max_gpus=Fraction(1), max_concurrent_sessions=3))
    usage.set(group, Usage(sessions=3, gpus=Fraction(1), per_model={"A100": Fraction(1)}))
    own = ResourceRequest(gpu_ratio=Fraction(1, 2), model="A100")
    # at the limit, with itself counted: still allowed (asked anew, it would not be)
    assert (await svc.check_policy_limits(policies, usage, w.chain(), own, counted=True)).allowed
    assert not (await svc.check_policy_limits(policies, usage, w.chain(), own)).allowed
    # the cap lowered while it waited: refused, naming what it holds of the usage
    await policies.put(ResourcePolicy(group, max_gpus=Fraction(3, 4), max_concurrent_sessions=3))
    decision = await svc.check_policy_limits(policies, usage, w.chain(), own, counted=True)
    assert decision.refusal is not None
    refusal = decision.refusal
    assert (refusal.scope, refusal.field) == (group, "max_gpus")
    assert (refusal.limit, refusal.used, refusal.requested) == (Fraction(3, 4), Fraction(1), Fraction(1, 2))
    assert refusal.message == "group ML-Lab uses 1 of 0.75 GPUs; 0.5 of them this session's"
    # a limit on something the session does not use does not refuse it
    await policies.put(ResourcePolicy(group, max_vram_mib=0, max_concurrent_sessions=2))
    decision = await svc.check_policy_limits(policies, usage, w.chain(), own, counted=True)
    assert decision.refusal is not None and decision.refusal.field == "max_concurrent_sessions"
    assert decision.refusal.message == "group ML-Lab uses 3 of 2 sessions; 1 of them this session's"
    await policies.put(ResourcePolicy(group, max_vram_mib=0))
    assert (await svc.check_policy_limits(policies, usage, w.chain(), own, counted=True)).allowed


async def test_aggregate_limits_at_org_and_global_levels(w: World):
    policies, usage = InMemoryPolicies(), InMemoryUsage()
    _user, _group, org = scopes(w)
    await policies.put(ResourcePolicy(org, max_concurrent_sessions=10))
    await policies.put(ResourcePolicy(GLOBAL_SCOPE, max_gpus=Fraction(8)))
    usage.set(org, Usage(sessions=10))
    decision = await svc.check_policy_limits(policies, usage, w.chain(), ResourceRequest())
    assert decision.refusal is not None
    assert decision.refusal.message == "organization Acme uses 10 of 10 sessions; this asks 1"
    usage.set(org, Usage(sessions=2))
    usage.set(GLOBAL_SCOPE, Usage(gpus=Fraction(15, 2)))
    decision = await svc.check_policy_limits(policies, usage, w.chain(), ResourceRequest(Fraction(1)))
    assert decision.refusal is not None and decision.refusal.scope == GLOBAL_SCOPE
    assert "uses 7.5 of 8 GPUs; this asks 1" in decision.refusal.message


async def test_allowed_clusters_narrow_at_every_level(w: World):
    policies, usage = InMemoryPolicies(), InMemoryUsage()
    _user, group, org = scopes(w)
    await policies.put(ResourcePolicy(org, allowed_clusters=frozenset({"a", "b"})))
    await policies.put(ResourcePolicy(group, allowed_clusters=frozenset({"b", "c"})))
    effective = await svc.effective_policy(policies, w.chain())
    assert effective.allowed_clusters == frozenset({"b"})
    refused = await svc.check_policy_limits(policies, usage, w.chain(), ResourceRequest(cluster="a"))
    assert refused.refusal is not None and refused.refusal.code == PolicyErrorCode.CLUSTER_NOT_ALLOWED
    ok = await svc.check_policy_limits(policies, usage, w.chain(), ResourceRequest(cluster="b"))
    assert ok.allowed


async def test_effective_limits_list_every_level_with_its_source(w: World):
    policies = InMemoryPolicies()
    user, group, _org = scopes(w)
    await policies.put(ResourcePolicy(user, max_vram_mib=40_000))
    await policies.put(ResourcePolicy(group, max_vram_mib=200_000, storage_quota_mib=1_000_000))
    effective = await svc.effective_policy(policies, w.chain())
    assert [(lim.name, lim.scope, lim.value) for lim in effective.limits] == [
        ("max_vram_mib", user, 40_000),
        ("max_vram_mib", group, 200_000),
        ("storage_quota_mib", group, 1_000_000),
    ]


async def test_who_may_set_policies(w: World):
    policies = InMemoryPolicies()
    _user, group, _org = scopes(w)
    for actor, scope in [(w.group_admin, group), (w.member(), PolicyScope.user(w.alice)), (w.org_admin, GLOBAL_SCOPE)]:
        with pytest.raises(DomainError) as err:
            await svc.set_policy(actor, policies, w.directory, w.clock, ResourcePolicy(scope))
        assert err.value.code == CommonErrorCode.PERMISSION_DENIED
    stored = await svc.set_policy(
        w.org_admin, policies, w.directory, w.clock, ResourcePolicy(group, idle_timeout_seconds=60)
    )
    assert stored.updated_by is not None
    await svc.set_policy(
        w.group_admin,
        policies,
        w.directory,
        w.clock,
        ResourcePolicy(PolicyScope.user(w.alice), idle_timeout_seconds=30),
    )
    assert len(await svc.list_policies(w.member(), policies, w.directory)) == 2
    assert await svc.list_policies(w.member(w.carol, w.other_group), policies, w.directory) == []


def test_policy_values_are_validated_and_formatted():
    with pytest.raises(DomainError):
        ResourcePolicy(GLOBAL_SCOPE, max_concurrent_sessions=-1)
    assert format_quantity(Fraction(15, 4)) == "3.75"
    assert format_quantity(Fraction(1, 16)) == "0.0625"
    assert format_quantity(Fraction(1, 3)) == "0.333"
    assert format_quantity(4) == "4"
