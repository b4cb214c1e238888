/** The history page's arithmetic: the period choices, series aligned on one time axis for a
 * chart, and a series' means over the period. */

export type HistoryPeriod = "HOUR" | "DAY" | "WEEK" | "MONTH";

export const PERIODS: Record<HistoryPeriod, { seconds: number; step: number }> = {
  HOUR: { seconds: 3600, step: 60 },
  DAY: { seconds: 86400, step: 900 },
  WEEK: { seconds: 7 * 86400, step: 3600 },
  MONTH: { seconds: 30 * 86400, step: 6 * 3600 },
};

/** The start of a period ending at `now`, on a whole minute (a stable query variable). */
export function periodStart(period: HistoryPeriod, now: number): string {
  const minute = Math.floor(now / 60_000) * 60_000;
  return new Date(minute - PERIODS[period].seconds * 1000).toISOString();
}

export interface HistoryPointLike {
  at: string;
  cardEquivalents: number;
  gpuUtilPercent?: number | null;
  noDataMinutes: number;
}

/** Every series on the union of their steps (oldest first); a step a series has no point in
 * is null there (no session ran: a gap, not a zero). */
export function alignSeries(
  series: readonly { label: string; points: readonly HistoryPointLike[] }[],
  value: (p: HistoryPointLike) => number | null | undefined,
): { times: number[]; rows: { label: string; values: (number | null)[] }[] } {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => Date.parse(p.at))))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const rows = series.map((s) => {
    const values: (number | null)[] = times.map(() => null);
    for (const p of s.points) values[index.get(Date.parse(p.at))!] = value(p) ?? null;
    return { label: s.label, values };
  });
  return { times, rows };
}

/** A series' mean allocation over the steps it has, and its GPU util weighted by the cards
 * allocated (null when no step has a GPU util). */
export function seriesSummary(points: readonly HistoryPointLike[]): {
  cards: number;
  util: number | null;
  noData: number;
} {
  if (points.length === 0) return { cards: 0, util: null, noData: 0 };
  const cards = points.reduce((s, p) => s + p.cardEquivalents, 0) / points.length;
  const weighted = points.filter((p) => p.gpuUtilPercent != null && p.cardEquivalents > 0);
  const weight = weighted.reduce((s, p) => s + p.cardEquivalents, 0);
  const util = weight > 0 ? weighted.reduce((s, p) => s + (p.gpuUtilPercent ?? 0) * p.cardEquivalents, 0) / weight : null;
  return { cards, util, noData: points.reduce((s, p) => s + p.noDataMinutes, 0) };
}
