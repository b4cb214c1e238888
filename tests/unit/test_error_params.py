"""Refusals carry their numbers as typed parameters (issue 18: a console says a refusal in its
own language from the code and the parameters, never by parsing the English message)."""

from __future__ import annotations

from fractions import Fraction

from domain.credits.errors import BudgetExceededError, InsufficientCreditsError
from domain.policies.errors import PolicyErrorCode, PolicyLimitError


def test_a_policy_refusal_names_its_limit_use_and_request() -> None:
    e = PolicyLimitError(
        PolicyErrorCode.POLICY_LIMIT_EXCEEDED, "uses 2 of 2 GPUs", "max_gpus", 2, Fraction(7, 4), Fraction(1, 4)
    )
    assert e.params == {"limit": "2", "used": "1.75", "requested": "0.25"}
    assert PolicyLimitError(PolicyErrorCode.CLUSTER_NOT_ALLOWED, "not allowed", "allowed_clusters").params == {}


def test_credit_refusals_name_their_amounts_in_credits() -> None:
    assert InsufficientCreditsError("alice", 1_500_000, 2_000_000).params == {"available": "1.5", "requested": "2"}
    assert BudgetExceededError("over budget", 10_000_000, 10_250_000).params == {"limit": "10", "spent": "10.25"}
