import { describe, expect, it } from "vitest";
import { makeTranslate } from "../../i18n";
import { chartSeries, rowLabel, SPLITS, usageCsvUrl } from "./report";
import { hashRouteOf } from "../../app/deepLink";

const t = makeTranslate("en");

describe("usage reports", () => {
  it("offers only splits finer than the scope", () => {
    expect(SPLITS.USER).toEqual(["OFFERING"]);
    expect(SPLITS.GROUP).not.toContain("GROUP");
  });
  it("builds the CSV export URL from the report's arguments", () => {
    expect(usageCsvUrl({ scopeKind: "ORGANIZATION", scopeId: "T3Jn=", by: "OFFERING", interval: "DAY", since: null })).toBe(
      "/exports/usage.csv?scopeKind=ORGANIZATION&scope=T3Jn%3D&by=OFFERING&interval=DAY",
    );
  });
  it("labels rows without a name by what they are", () => {
    expect(rowLabel({ kind: "OFFERING", id: "T2ZmZXJpbmc6MQ==", name: "A100-80GB" }, t)).toBe("A100-80GB");
    expect(rowLabel({ kind: null, id: null, name: null }, t)).toBe("All");
    expect(rowLabel({ kind: "OFFERING", id: null, name: null }, t)).toBe("No session (charged by hand)");
    expect(rowLabel({ kind: "USER", id: "VXNlcjox", name: null }, t)).toBe("Deleted (VXNlcjox…)");
  });
  it("charts the largest keys and sums the rest, in credits", () => {
    const rows = ["a", "b", "c"].map((label, i) => ({ label, series: [String((3 - i) * 1_000_000), "500000"] }));
    expect(chartSeries(rows, "Others", 2)).toEqual([
      { label: "a", values: [3, 0.5] },
      { label: "b", values: [2, 0.5] },
      { label: "Others", values: [1, 0.5] },
    ]);
    expect(chartSeries(rows.slice(0, 1), "Others", 2)).toEqual([{ label: "a", values: [3, 0.5] }]);
  });
});

describe("deep links", () => {
  it("turns a path into the hash route it means", () => {
    expect(hashRouteOf("/sessions/abc", "", "")).toBe("/#/sessions/abc");
    expect(hashRouteOf("/admin/usage/", "?x=1", "")).toBe("/#/admin/usage?x=1");
    expect(hashRouteOf("/", "", "")).toBeNull();
    expect(hashRouteOf("/", "", "#/wallet")).toBeNull();
  });
});
