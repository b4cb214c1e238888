from __future__ import annotations

import strawberry

from api.common.scalars import BigInt
from domain.common.money import micro_to_credits_str


@strawberry.type(description="An amount of credits: exact micro-credits and a decimal string for display.")
class Credits:
    micro: BigInt = strawberry.field(description="Integer micro-credits.")
    credits: str = strawberry.field(description='Decimal credits, exact, e.g. "12.5".')

    @classmethod
    def of(cls, micro: int) -> Credits:
        return cls(micro=micro, credits=micro_to_credits_str(micro))


@strawberry.type(description="The cheapest and the dearest of what something may cost.")
class CreditsRange:
    low: Credits
    high: Credits

    @classmethod
    def of(cls, low_micro: int, high_micro: int) -> CreditsRange:
        return cls(low=Credits.of(low_micro), high=Credits.of(high_micro))
