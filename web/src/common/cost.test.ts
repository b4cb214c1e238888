import { describe, expect, it } from "vitest";
import { affordable, classCostRange, estimateCost, holdEstimate, hourlyForRatio, liveCostMicro } from "./cost";

describe("cost estimate", () => {
  it("charges rate × seconds / 3600 exactly, rounding up to a micro-credit", () => {
    expect(estimateCost(3_600_000_000n, 3600)).toBe(3_600_000_000n);
    expect(estimateCost(3_600_000_000n, 1)).toBe(1_000_000n);
    expect(estimateCost(1_000_000n, 1)).toBe(278n); // 277.7… rounds up
    expect(estimateCost(1_000_000n, 0)).toBe(0n);
    expect(estimateCost(0n, 100)).toBe(0n);
  });

  it("holds the shorter of the expiry and the hold window", () => {
    const rate = 2_000_000n; // 2 credits/h
    expect(holdEstimate(rate, 1800)).toBe(1_000_000n);
    expect(holdEstimate(rate, 8 * 3600)).toBe(2_000_000n);
    expect(holdEstimate(rate, null)).toBe(2_000_000n);
    expect(holdEstimate(rate, 8 * 3600, 2 * 3600)).toBe(4_000_000n);
  });

  it("takes a share of a whole card's rate from an exact ratio", () => {
    expect(hourlyForRatio(8_000_000n, "1/4")).toBe(2_000_000n);
    expect(hourlyForRatio(8_000_000n, "2")).toBe(16_000_000n);
    expect(hourlyForRatio(1_000_000n, "1/3")).toBe(333_334n);
    expect(() => hourlyForRatio(1n, "1/0")).toThrow();
  });

  it("says whether the available balance covers the hold", () => {
    expect(affordable(5n, 5n)).toBe(true);
    expect(affordable(4n, 5n)).toBe(false);
    expect(affordable(null, 5n)).toBeNull();
  });
});

describe("classCostRange", () => {
  it("is a range only when the cards of a class cost differently", () => {
    expect(classCostRange({ low: { micro: "250000" }, high: { micro: "625000" } })).toEqual([250_000n, 625_000n]);
    expect(classCostRange({ low: { micro: 250000 }, high: { micro: 250000 } })).toBeNull();
    expect(classCostRange(null)).toBeNull();
    expect(classCostRange(undefined)).toBeNull();
  });
});

describe("live cost", () => {
  it("ticks with the seconds since the status arrived while running, floored like the meter", () => {
    const rate = 1_000_000n; // 1 credit/h
    expect(liveCostMicro(rate, 75, 0, true)).toBe(20_833n); // 75 s: 0.0208…
    expect(liveCostMicro(rate, 75, 45, true)).toBe(33_333n); // 120 s later in the browser
    expect(liveCostMicro(rate, 75, 45, false)).toBe(20_833n); // paused: the clock stands
    expect(liveCostMicro(rate, 0, 3600, true)).toBe(rate);
    expect(liveCostMicro(0n, 100, 100, true)).toBe(0n);
    expect(liveCostMicro(rate, 10, -5, true)).toBe(2_777n); // a clock going back never lowers it
  });
});
