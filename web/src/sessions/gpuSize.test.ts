import { describe, expect, it } from "vitest";
import { makeTranslate } from "../i18n";
import { gpuSize } from "./gpuSize";

describe("a session's GPU size", () => {
  const ko = makeTranslate("ko");
  const en = makeTranslate("en");
  it("counts whole cards, not a ratio", () => {
    expect(gpuSize({ cards: 2, exclusive: true, shared: false, vramMib: 163840, cores: 200 }, ko)).toBe("카드 2장");
    expect(gpuSize({ cards: 2, exclusive: true, shared: false, vramMib: 163840, cores: 200 }, en)).toBe("2 card(s)");
  });
  it("says a fraction's memory and compute, and a time-slice", () => {
    expect(gpuSize({ cards: 0, exclusive: false, shared: false, vramMib: 20480, cores: 25 }, ko)).toBe("20 GiB / 카드의 25 %");
    expect(gpuSize({ cards: 1, exclusive: false, shared: true, vramMib: 0, cores: 0 }, ko)).toBe("타임슬라이스 하나");
  });
});
