"""Every placement policy the scheduler knows can be chosen through the API, and no other."""

from __future__ import annotations

from api.clusters.types import PlacementPolicy
from domain.scheduling.policies import POLICIES


def test_the_api_offers_exactly_the_schedulers_policies() -> None:
    assert {p.value for p in PlacementPolicy} == set(POLICIES)
