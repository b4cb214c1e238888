"""Money is integer micro-credits. Ratios are exact fractions; rounding happens once, at the end."""

from __future__ import annotations

from fractions import Fraction

MICRO_PER_CREDIT = 1_000_000
SECONDS_PER_HOUR = 3600

MicroCredits = int


def credits_to_micro(credits: Fraction | int | str) -> MicroCredits:
    """Parse a credit amount ("12.5", 3) into micro-credits; refuses sub-micro precision."""
    value = Fraction(credits) * MICRO_PER_CREDIT
    if value.denominator != 1:
        raise ValueError("amount has more precision than one micro-credit")
    return int(value)


def micro_to_credits_str(micro: MicroCredits) -> str:
    sign = "-" if micro < 0 else ""
    whole, frac = divmod(abs(micro), MICRO_PER_CREDIT)
    return f"{sign}{whole}.{frac:06d}".rstrip("0").rstrip(".") if frac else f"{sign}{whole}"


def cost_micro(hourly_rate_micro: MicroCredits, ratio: Fraction, seconds: int) -> MicroCredits:
    """rate × ratio × seconds / 3600, floored to a whole micro-credit (never overcharge)."""
    exact = Fraction(hourly_rate_micro) * ratio * seconds / SECONDS_PER_HOUR
    return exact.numerator // exact.denominator
