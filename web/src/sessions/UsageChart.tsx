import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { locale } from "../common/format";
import { useLanguage } from "../i18n";
import type { Sample } from "./usage";

function toData(samples: Sample[]): uPlot.AlignedData {
  return [
    samples.map((s) => Date.parse(s.at) / 1000),
    samples.map((s) => s.gpuUtilPercent),
    samples.map((s) => s.cpuMillicores / 1000),
    samples.map((s) => s.memoryMib / 1024),
    samples.map((s) => s.gpuMemoryMib / 1024),
  ];
}

/** Live 1 s CPU / memory / GPU chart over the last 5 minutes (uPlot on a canvas). */
export function UsageChart({ samples, height = 260 }: { samples: Sample[]; height?: number }) {
  const { t, language } = useLanguage();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // the time axis and legend in the viewer's language (uPlot's own are English: "Time", "Dec 1")
    const clock = new Intl.DateTimeFormat(locale(language), { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    const at = (s: number | null | undefined) => (s == null ? "—" : clock.format(new Date(s * 1000)));
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height,
      scales: { x: { time: true }, pct: { range: [0, 100] }, cores: { auto: true }, gib: { auto: true } },
      axes: [
        { values: (_u, ticks) => ticks.map((s) => at(s)), space: 80 },
        { scale: "pct", label: t("usage.gpuUtil"), values: (_u, v) => v.map((x) => `${x}%`) },
        { scale: "cores", side: 1, label: t("usage.cpu"), grid: { show: false } },
      ],
      series: [
        { label: t("usage.time"), value: (_u, s) => at(s) },
        { label: t("usage.gpuUtil"), scale: "pct", stroke: "#12b886", width: 2, value: (_u, v) => (v == null ? "—" : `${v.toFixed(0)} %`) },
        { label: t("usage.cpu"), scale: "cores", stroke: "#4c6ef5", width: 2, value: (_u, v) => (v == null ? "—" : v.toFixed(2)) },
        { label: t("usage.memory"), scale: "gib", stroke: "#fab005", width: 2, value: (_u, v) => (v == null ? "—" : `${v.toFixed(1)} GiB`) },
        { label: t("usage.gpuMemory"), scale: "gib", stroke: "#e64980", width: 2, dash: [4, 4], value: (_u, v) => (v == null ? "—" : `${v.toFixed(1)} GiB`) },
      ],
    };
    const u = new uPlot(opts, toData([]), el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [height, t, language]);

  useEffect(() => {
    plot.current?.setData(toData(samples));
  }, [samples]);

  return <div ref={box} data-testid="usage-chart" data-samples={samples.length} />;
}
