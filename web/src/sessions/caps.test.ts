import { describe, expect, it } from "vitest";
import { capQuantity, capShare, quantity } from "./caps";

describe("group caps", () => {
  it("reads the API's exact quantities", () => {
    expect(quantity("4")).toBe(4);
    expect(quantity("2.5")).toBe(2.5);
    expect(quantity("1/4")).toBe(0.25);
    expect(quantity(null)).toBe(0);
  });
  it("says each limit in its unit", () => {
    expect(capQuantity("maxGpus", "1/3")).toBe("1/3 GPU");
    expect(capQuantity("modelCaps", "2")).toBe("2 GPU");
    expect(capQuantity("maxCpuMillicores", "2500")).toBe("2.5 CPU");
    expect(capQuantity("maxMemoryMib", "16384")).toBe("16 GiB");
    expect(capQuantity("storageQuotaMib", "500")).toBe("500 MiB");
    expect(capQuantity("maxConcurrentSessions", "3")).toBe("3");
  });
  it("fills the bar by what is used of the limit", () => {
    expect(capShare("1", "4")).toBe(25);
    expect(capShare("5", "4")).toBe(100);
    expect(capShare("0", "0")).toBe(0);
    expect(capShare("1", "0")).toBe(100);
  });
});
