import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { useLanguage } from "../../i18n";
import { locale } from "../../common/format";

const COLORS = ["#4c6ef5", "#12b886", "#fab005", "#e64980", "#7950f2", "#fd7e14", "#15aabf", "#82c91e", "#868e96"];

/** One line per key over time (uPlot on a canvas); a step without sessions is a gap. */
export default function HistoryChart({
  times,
  rows,
  unit,
  max,
  height = 240,
  testId,
}: {
  times: number[];
  rows: { label: string; values: (number | null)[] }[];
  unit: string;
  max?: number;
  height?: number;
  testId: string;
}) {
  const { t, language } = useLanguage();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const format = new Intl.DateTimeFormat(locale(language), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
    const when = (i: number | null | undefined) => (i == null || times[i] == null ? "—" : format.format(new Date(times[i])));
    const number = (v: number) => v.toLocaleString(locale(language), { maximumFractionDigits: 2 });
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height,
      scales: {
        x: { time: false },
        y: { range: (_u, _min, top) => [0, max ?? (top > 0 ? top * 1.1 : 1)] },
      },
      axes: [
        { values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? when(i) : "")), space: 90 },
        { label: unit, size: 70, values: (_u, ticks) => ticks.map(number) },
      ],
      series: [
        { label: t("usage.time"), value: (_u, i) => when(i) },
        ...rows.slice(0, COLORS.length).map((r, k) => ({
          label: r.label,
          stroke: COLORS[k % COLORS.length],
          width: 2,
          spanGaps: false,
          points: { show: times.length < 60, size: 4 },
          value: (_u: uPlot, v: number | null) => (v == null ? "—" : number(v)),
        })),
      ],
    };
    const data = [times.map((_, i) => i), ...rows.slice(0, COLORS.length).map((r) => r.values)] as uPlot.AlignedData;
    const u = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
    };
  }, [times, rows, unit, max, height, t, language]);

  return <div ref={box} data-testid={testId} data-points={times.length} data-series={rows.length} />;
}
