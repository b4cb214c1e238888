/** Per-second usage samples of a session, kept for the chart's 5-minute window. */
export interface Sample {
  at: string;
  cpuMillicores: number;
  memoryMib: number;
  gpuUtilPercent: number;
  gpuMemoryMib: number;
}

export const WINDOW_SECONDS = 300;

/** Merge new samples into the window: ordered by time, one per instant, last 5 minutes. */
export function mergeSamples(prev: Sample[], incoming: readonly Sample[], windowSeconds = WINDOW_SECONDS): Sample[] {
  const byAt = new Map<string, Sample>();
  for (const s of prev) byAt.set(s.at, s);
  for (const s of incoming) byAt.set(s.at, s);
  const all = [...byAt.values()].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (all.length === 0) return all;
  const newest = Date.parse(all[all.length - 1].at);
  return all.filter((s) => newest - Date.parse(s.at) <= windowSeconds * 1000);
}

