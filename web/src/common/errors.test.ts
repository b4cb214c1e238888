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

  it("reads in the user's language and keeps the server's detail", () => {
    expect(describeError({ code: "INSUFFICIENT_CREDITS", message: "need 2, have 1" }, ko)).toBe("크레딧이 부족합니다: need 2, have 1");
  });

  it("falls back to the server's message for codes it does not know", () => {
    expect(describeError({ code: "SOMETHING_NEW", message: "a new reason" }, en)).toBe("a new reason");
  });
});
