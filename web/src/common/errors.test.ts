import { describe, expect, it } from "vitest";
import { describeError, mapErrors, normalizeField } from "./errors";
import { makeTranslate } from "../i18n";

describe("error mapping", () => {
  const en = makeTranslate("en");
  const ko = makeTranslate("ko");

  it("normalises server field names to the form's input names", () => {
    expect(normalizeField("name")).toBe("name");
    expect(normalizeField("input.hourly_rate_micro")).toBe("hourlyRateMicro");
    expect(normalizeField(null)).toBeNull();
  });

  it("puts each refusal next to the field it names, the rest above the form", () => {
    const { byField, general } = mapErrors(
      [
        { code: "DUPLICATE", field: "slug", message: "an organisation with this slug already exists" },
        { code: "PERMISSION_DENIED", field: null, message: "you may not do this" },
        { code: "INVALID_VALUE", field: "somethingElse", message: "bad" },
      ],
      ["name", "slug"],
      en,
    );
    expect(byField.slug).toBe("Already exists: an organisation with this slug already exists");
    expect(byField.name).toBeUndefined();
    expect(general).toEqual(["You may not do this", "Invalid value: bad"]);
  });

  it("keeps the server's English detail in English", () => {
    expect(describeError({ code: "INSUFFICIENT_CREDITS", message: "need 2, have 1" }, en)).toBe("Not enough credits: need 2, have 1");
  });

  it("says the detail in Korean from the refusal's parameters, never the English message", () => {
    const params = [
      { name: "available", value: "1.5" },
      { name: "requested", value: "2" },
    ];
    expect(describeError({ code: "INSUFFICIENT_CREDITS", message: "alice has 1.5 credits available; this asks 2", params }, ko)).toBe(
      "크레딧이 부족합니다: 사용 가능 1.5크레딧, 필요 2크레딧",
    );
    const limit = [
      { name: "limit", value: "2" },
      { name: "used", value: "2" },
      { name: "requested", value: "0.25" },
    ];
    expect(describeError({ code: "POLICY_LIMIT_EXCEEDED", message: "group ML-Lab uses 2 of 2 GPUs; this asks 0.25", params: limit }, ko)).toBe(
      "자원 정책 한도를 넘습니다: 한도 2 중 2 사용 중, 이 요청 0.25",
    );
    // no parameters (or not all that the sentence needs): the code's meaning alone
    expect(describeError({ code: "INSUFFICIENT_CREDITS", message: "need 2, have 1" }, ko)).toBe("크레딧이 부족합니다");
    expect(describeError({ code: "DUPLICATE", field: "slug", message: "an organisation with this slug already exists" }, ko)).toBe("이미 있습니다");
    expect(describeError({ code: "SOMETHING_NEW", message: "a new reason" }, ko)).toBe("문제가 발생했습니다.");
  });

  it("falls back to the server's message for codes it does not know", () => {
    expect(describeError({ code: "SOMETHING_NEW", message: "a new reason" }, en)).toBe("a new reason");
  });
});
