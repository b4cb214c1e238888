import { describe, expect, it } from "vitest";
import { formatRemaining, remainingTone } from "./remaining";

const start = "2026-01-01T00:00:00Z";
const end = "2026-01-01T10:00:00Z";
const at = (h: number) => Date.parse(start) + h * 3600_000;

describe("remaining-time colour", () => {
  it("stays calm before 90 % of the granted time", () => {
    expect(remainingTone(start, end, at(0))).toBe("ok");
    expect(remainingTone(start, end, at(8.99))).toBe("ok");
  });
  it("warns from 90 %", () => {
    expect(remainingTone(start, end, at(9))).toBe("warning");
    expect(remainingTone(start, end, at(9.99))).toBe("warning");
  });
  it("is expired at the end", () => {
    expect(remainingTone(start, end, at(10))).toBe("expired");
  });
  it("has no colour without an expiry", () => {
    expect(remainingTone(start, null, at(1))).toBe("none");
    expect(remainingTone(end, start, at(1))).toBe("none");
  });
  it("formats what is left", () => {
    expect(formatRemaining(2 * 3600_000 + 5 * 60_000)).toBe("2 hr 5 min");
    expect(formatRemaining(4 * 60_000 + 9_000)).toBe("4 min 9 sec");
    expect(formatRemaining(-5)).toBe("0 sec");
    expect(formatRemaining(3 * 3600_000 + 53 * 60_000, "ko")).toBe("3시간 53분");
    expect(formatRemaining(4 * 60_000 + 9_000, "ko")).toBe("4분 9초");
  });
});
