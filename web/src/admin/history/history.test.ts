import { describe, expect, it } from "vitest";
import { alignSeries, periodStart, seriesSummary } from "./history";

const at = (m: number) => new Date(Date.UTC(2026, 11, 1, 12, m)).toISOString();
const point = (m: number, cards: number, util: number | null, noData = 0) => ({
  at: at(m),
  cardEquivalents: cards,
  gpuUtilPercent: util,
  noDataMinutes: noData,
});

describe("usage history", () => {
  it("starts a period on a whole minute", () => {
    expect(periodStart("HOUR", Date.UTC(2026, 11, 1, 12, 30, 45))).toBe("2026-12-01T11:30:00.000Z");
    expect(periodStart("DAY", Date.UTC(2026, 11, 1, 12, 0, 0))).toBe("2026-11-30T12:00:00.000Z");
  });
  it("aligns series on the union of their steps, with gaps where a series has none", () => {
    const { times, rows } = alignSeries(
      [
        { label: "c1", points: [point(0, 1, 50), point(10, 2, 10)] },
        { label: "c2", points: [point(5, 0.5, null)] },
      ],
      (p) => p.cardEquivalents,
    );
    expect(times.map((t) => new Date(t).toISOString())).toEqual([at(0), at(5), at(10)]);
    expect(rows).toEqual([
      { label: "c1", values: [1, null, 2] },
      { label: "c2", values: [null, 0.5, null] },
    ]);
  });
  it("weights GPU util by the cards allocated and leaves unknown util out", () => {
    expect(seriesSummary([point(0, 1, 90), point(1, 3, 10), point(2, 2, null, 4)])).toEqual({ cards: 2, util: 30, noData: 4 });
    expect(seriesSummary([point(0, 0, null)])).toEqual({ cards: 0, util: null, noData: 0 });
    expect(seriesSummary([])).toEqual({ cards: 0, util: null, noData: 0 });
  });
});
