/** Remaining time of a session with an expiry: the colour turns to a warning once 90 % of the
 * granted time has passed, and to red when it is over. */
export type RemainingTone = "ok" | "warning" | "expired" | "none";

export function remainingTone(startIso: string | null | undefined, endIso: string | null | undefined, nowMs: number): RemainingTone {
  if (!startIso || !endIso) return "none";
  const start = Date.parse(startIso);
  const end = Date.parse(endIso);
  if (Number.isNaN(start) || Number.isNaN(end) || end <= start) return "none";
  if (nowMs >= end) return "expired";
  const used = (nowMs - start) / (end - start);
  return used >= 0.9 ? "warning" : "ok";
}

export const TONE_COLOR: Record<RemainingTone, string> = {
  ok: "teal",
  warning: "orange",
  expired: "red",
  none: "gray",
};

/** "2 h 05 min", "4 min 09 s", "0 s" — compact and language-neutral. */
export function formatRemaining(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(sec).padStart(2, "0")} s`;
  return `${sec} s`;
}
