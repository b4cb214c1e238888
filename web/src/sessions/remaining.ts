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

/** "2 hr 5 min", "4 min 9 sec", "0 sec"; in Korean "2시간 5분", "4분 9초": the platform's
 * `Intl` unit formats (short display) for the language, two units at most. */
export function formatRemaining(ms: number, language: string = "en"): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const unit = (value: number, u: "hour" | "minute" | "second") =>
    new Intl.NumberFormat(language, { style: "unit", unit: u, unitDisplay: "short" }).format(value);
  if (h > 0) return `${unit(h, "hour")} ${unit(m, "minute")}`;
  if (m > 0) return `${unit(m, "minute")} ${unit(sec, "second")}`;
  return unit(sec, "second");
}
