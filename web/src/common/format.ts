import type { Language } from "../i18n";

/** The `Intl` locale of a console language (British English, as the rest of the console). */
export const locale = (l: Language) => (l === "ko" ? "ko-KR" : "en-GB");

export function formatDateTime(iso: string | null | undefined, language: Language): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale(language), { dateStyle: "medium", timeStyle: "short" });
}

/** Decimal credit strings from the API are exact; keep them, only group the integer part. */
export function formatCredits(credits: string | null | undefined, language: Language): string {
  if (credits == null) return "—";
  const [int, frac] = credits.split(".");
  const neg = int.startsWith("-");
  const digits = neg ? int.slice(1) : int;
  const grouped = Number(digits).toLocaleString(locale(language));
  const shown = frac ? `${grouped}.${frac.slice(0, 4).replace(/0+$/, "")}` : grouped;
  return `${neg ? "-" : ""}${shown.replace(/\.$/, "")}`;
}

export const MICRO = 1_000_000n;

/** "12.5" credits → 12500000 micro-credits, exactly (no float). Null when not a number. */
export function creditsToMicro(text: string): bigint | null {
  const s = text.trim();
  if (!/^\d+(\.\d{1,6})?$/.test(s)) return null;
  const [int, frac = ""] = s.split(".");
  return BigInt(int) * MICRO + BigInt(frac.padEnd(6, "0"));
}

export function microToCredits(micro: bigint | string | number): string {
  const m = BigInt(micro);
  const neg = m < 0n;
  const abs = neg ? -m : m;
  const int = abs / MICRO;
  const frac = (abs % MICRO).toString().padStart(6, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${int}${frac ? "." + frac : ""}`;
}

export function formatMib(mib: number): string {
  return mib >= 1024 ? `${+(mib / 1024).toFixed(1)} GiB` : `${mib} MiB`;
}

/** "used / total" in the total's unit: "0 / 256 GiB", "20 / 80 GiB", "512 / 768 MiB". */
export function formatMibOf(used: number, total: number): string {
  if (total >= 1024) return `${+(used / 1024).toFixed(1)} / ${+(total / 1024).toFixed(1)} GiB`;
  return `${used} / ${total} MiB`;
}

/** A quantity in a unit by the platform's `Intl` unit formats: "12 ms" / "12밀리초", "1 min" / "1분". */
export function formatUnit(value: number, unit: "millisecond" | "second" | "minute" | "hour" | "day", language: Language): string {
  return new Intl.NumberFormat(locale(language), { style: "unit", unit, unitDisplay: language === "ko" ? "long" : "short" }).format(value);
}

/** A cadence in seconds in the largest whole unit: "every 1 min" / "1분마다" (for periodic jobs). */
export function periodUnit(seconds: number): { value: number; unit: "second" | "minute" | "hour" | "day" } {
  if (seconds % 86400 === 0) return { value: seconds / 86400, unit: "day" };
  if (seconds % 3600 === 0) return { value: seconds / 3600, unit: "hour" };
  if (seconds % 60 === 0) return { value: seconds / 60, unit: "minute" };
  return { value: seconds, unit: "second" };
}
