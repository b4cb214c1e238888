import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { UsageInterval } from "../../gql/graphql";
import { locale } from "../../common/format";
import { useLanguage } from "../../i18n";
import { chartSeries } from "./report";

const COLORS = ["#4c6ef5", "#12b886", "#fab005", "#e64980", "#7950f2", "#fd7e14", "#15aabf", "#82c91e", "#868e96"];

/** Spend per day, week or month (uPlot on a canvas): bars for a single series, one line per
 * key otherwise (the largest eight keys, then the rest summed). */
export default function UsageSeriesChart({
  periods,
  interval,
  rows,
  height = 280,
}: {
  periods: string[];
  interval: UsageInterval;
  rows: { label: string; series: string[] }[];
  height?: number;
}) {
  const { t, language } = useLanguage();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const series = chartSeries(rows, t("usage.others"));
    const single = series.length === 1;
    const format = new Intl.DateTimeFormat(locale(language), interval === "MONTH" ? { year: "numeric", month: "short" } : { month: "short", day: "numeric" });
    const when = (i: number | null | undefined) => (i == null || !periods[i] ? "—" : format.format(new Date(periods[i])));
    // credits: two decimals from 1 up, three significant digits below (a few seconds of a
    // fractional card cost thousandths of a credit)
    const credits = (v: number) =>
      v.toLocaleString(locale(language), Math.abs(v) >= 1 || v === 0 ? { maximumFractionDigits: 2 } : { maximumSignificantDigits: 3 });
    const amount = (_u: uPlot, v: number | null) => (v == null ? "—" : credits(v));
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height,
      scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? when(i) : "")), space: 60 },
        { label: t("usage.credits"), size: 70, values: (_u, ticks) => ticks.map(credits) },
      ],
      series: [
        { label: t("usage.period"), value: (_u, i) => when(i) },
        ...series.map((s, k) => {
          const color = COLORS[k % COLORS.length];
          return single
            ? { label: s.label, stroke: color, fill: `${color}b3`, width: 1, paths: uPlot.paths.bars!({ size: [0.7, 80] }), points: { show: false }, value: amount }
            : { label: s.label, stroke: color, width: 2, points: { show: true, size: 5 }, value: amount };
        }),
      ],
    };
    const data: uPlot.AlignedData = [periods.map((_, i) => i), ...series.map((s) => s.values)];
    const u = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
    };
  }, [periods, interval, rows, height, t, language]);

  return <div ref={box} data-testid="usage-series-chart" data-periods={periods.length} data-series={rows.length} />;
}
