"""The shared kernel: validators (exact field and message of each refusal), errors, money
arithmetic and the test clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction
from uuid import UUID

import pytest

from domain.common.clock import FrozenClock, SystemClock, UuidGenerator
from domain.common.errors import (
    CommonErrorCode,
    DomainError,
    DuplicateError,
    InvalidValueError,
    NotFoundError,
    PermissionDeniedError,
    ValidationErrors,
)
from domain.common.money import cost_micro, credits_to_micro, micro_to_credits_str
from domain.common.validation import (
    ErrorCollector,
    clean_email,
    clean_name,
    clean_slug,
    clean_username,
    non_negative,
    positive,
    slugify,
)


def refusal(fn: object, *args: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as err:
        fn(*args)  # type: ignore[operator]
    return err.value.code, err.value.field, err.value.message


def test_names_are_trimmed_with_inner_blanks_collapsed_and_bounded() -> None:
    assert clean_name("  GPU \t lab  ", "name") == "GPU lab"
    assert clean_name("x" * 100, "name") == "x" * 100
    assert refusal(clean_name, " \n ", "name") == ("INVALID_VALUE", "name", "name must not be empty")
    assert refusal(clean_name, "x" * 101, "title") == ("INVALID_VALUE", "title", "title must be at most 100 characters")
    assert clean_name("abc", "n", 3) == "abc"
    assert refusal(clean_name, "abcd", "n", 3) == ("INVALID_VALUE", "n", "n must be at most 3 characters")


def test_slugs() -> None:
    assert clean_slug("  Lab-7 ") == "lab-7"
    assert clean_slug("a") == "a" and clean_slug("a" * 63) == "a" * 63
    msg = "must be 1–63 lowercase letters, digits or '-', not starting or ending with '-'"
    for bad in ("", "-lab", "lab-", "a" * 64, "l_b"):
        assert refusal(clean_slug, bad) == ("INVALID_VALUE", "slug", f"slug {msg}")
    assert refusal(clean_slug, "-x", "orgSlug") == ("INVALID_VALUE", "orgSlug", f"orgSlug {msg}")
    assert slugify("  Acme GPU  Lab!! ") == "acme-gpu-lab"
    assert slugify("!!!") == "org"
    assert slugify("a" * 62 + " b") == "a" * 62  # cut to 63, then the trailing '-' dropped
    assert slugify("ab" * 40) == ("ab" * 40)[:63]
    assert slugify("!" + "a" * 63) == "a" * 63  # the leading '-' goes before the cut to 63


def test_usernames_and_emails() -> None:
    assert clean_username(" Alice.B_c-d ") == "alice.b_c-d"
    assert clean_username("a" * 64) == "a" * 64
    msg = "must be 1–64 lowercase letters, digits, '.', '_' or '-'"
    for bad in ("", ".alice", "alice-", "a" * 65, "al ice"):
        assert refusal(clean_username, bad) == ("INVALID_VALUE", "username", f"username {msg}")
    assert refusal(clean_username, "-", "login") == ("INVALID_VALUE", "login", f"login {msg}")
    assert clean_email("  ada@example.org ") == "ada@example.org"
    long_ok = "a" * 242 + "@example.org"  # 254 characters
    assert clean_email(long_ok) == long_ok
    for bad in ("ada", "ada@example", "a b@example.org", "a" * 243 + "@example.org"):
        assert refusal(clean_email, bad) == ("INVALID_VALUE", "email", "email is not an email address")
    assert refusal(clean_email, "x", "contact") == ("INVALID_VALUE", "contact", "contact is not an email address")


def test_number_bounds() -> None:
    assert non_negative(0, "n") == 0 and non_negative(7, "n") == 7
    assert refusal(non_negative, -1, "vramMib") == ("INVALID_VALUE", "vramMib", "vramMib must not be negative (got -1)")
    assert positive(1, "n") == 1
    assert refusal(positive, 0, "cores") == ("INVALID_VALUE", "cores", "cores must be greater than zero (got 0)")
    assert refusal(positive, -3, "cores") == ("INVALID_VALUE", "cores", "cores must be greater than zero (got -3)")


def test_an_error_collector_reports_one_error_as_itself_and_several_together() -> None:
    nothing = ErrorCollector()
    nothing.raise_if_any()
    assert nothing.errors == []
    one = ErrorCollector()
    assert one.check(positive, 5, "a") == 5
    assert one.check(positive, 0, "b") is None
    with pytest.raises(InvalidValueError) as single:
        one.raise_if_any()
    assert single.value is one.errors[0] and single.value.field == "b"
    many = ErrorCollector()
    assert many.check(clean_name, "", field="name") is None
    many.add(DuplicateError("slug", "slug taken"))
    with pytest.raises(ValidationErrors) as several:
        many.raise_if_any()
    assert [(e.field, e.message) for e in several.value.errors] == [
        ("name", "name must not be empty"),
        ("slug", "slug taken"),
    ]
    assert (several.value.code, several.value.field, several.value.message) == (
        CommonErrorCode.INVALID_VALUE,
        "name",
        "name must not be empty",
    )


def test_errors_carry_code_field_and_message() -> None:
    e = DomainError(CommonErrorCode.CONFLICT, "busy", "id")
    assert (e.code, e.message, e.field, str(e)) == (CommonErrorCode.CONFLICT, "busy", "id", "busy")
    assert repr(e) == "DomainError(CONFLICT, 'busy', field='id')"
    nf = NotFoundError("group")
    assert (nf.code, nf.message, nf.field) == (CommonErrorCode.NOT_FOUND, "group not found", "id")
    assert NotFoundError("volume", "mounts").field == "mounts"
    pd = PermissionDeniedError()
    assert (pd.code, pd.message, pd.field) == (CommonErrorCode.PERMISSION_DENIED, "you may not do this", None)
    assert PermissionDeniedError("no", "role").field == "role"
    d = DuplicateError("name", "taken")
    assert (d.code, d.field, d.message) == (CommonErrorCode.DUPLICATE, "name", "taken")
    with pytest.raises(AssertionError, match=r"^ValidationErrors needs at least one error$"):
        ValidationErrors([])


def test_money_is_exact_micro_credits_floored_once() -> None:
    assert credits_to_micro("12.5") == 12_500_000
    assert credits_to_micro(3) == 3_000_000
    assert credits_to_micro(Fraction(1, 4)) == 250_000
    with pytest.raises(ValueError, match=r"^amount has more precision than one micro-credit$"):
        credits_to_micro("0.0000001")
    assert micro_to_credits_str(12_500_000) == "12.5"
    assert micro_to_credits_str(3_000_000) == "3"
    assert micro_to_credits_str(-1_000_001) == "-1.000001"
    assert micro_to_credits_str(-2_000_000) == "-2"
    assert micro_to_credits_str(0) == "0"
    assert micro_to_credits_str(10) == "0.00001"
    # 3.6 credits/h × 1/4 card × 10 s = 2 500 micro-credits exactly; one second less floors
    assert cost_micro(3_600_000, Fraction(1, 4), 10) == 2_500
    assert cost_micro(1_000_000, Fraction(1, 3), 1) == 92  # 92.59… floored, never rounded up
    assert cost_micro(1_000_000, Fraction(1), 3600) == 1_000_000


def test_clocks_and_ids() -> None:
    clock = FrozenClock()
    assert clock.now() == datetime(2026, 1, 1, tzinfo=UTC)
    assert clock.advance(90) == datetime(2026, 1, 1, 0, 1, 30, tzinfo=UTC)
    assert clock.advance(timedelta(hours=1)) == datetime(2026, 1, 1, 1, 1, 30, tzinfo=UTC)
    assert clock.now() == datetime(2026, 1, 1, 1, 1, 30, tzinfo=UTC)
    clock.set(datetime(2027, 5, 5, tzinfo=UTC))
    assert clock.now() == datetime(2027, 5, 5, tzinfo=UTC)
    assert FrozenClock(datetime(2030, 1, 1, tzinfo=UTC)).now() == datetime(2030, 1, 1, tzinfo=UTC)
    before = datetime.now(UTC)
    now = SystemClock().now()
    assert now.tzinfo is UTC and before <= now <= datetime.now(UTC)
    a, b = UuidGenerator().new_id(), UuidGenerator().new_id()
    assert isinstance(a, UUID) and a != b and a.version == 4
