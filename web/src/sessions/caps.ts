import { formatMib } from "../common/format";

/** The aggregate limits a policy sets (EffectiveLimit.field). */
export type CapField = "maxConcurrentSessions" | "maxGpus" | "modelCaps" | "maxVramMib" | "maxCpuMillicores" | "maxMemoryMib" | "storageQuotaMib";

/** An exact quantity from the API ("4", "2.5", "1/3") as a number. */
export function quantity(text: string | null | undefined): number {
  if (!text) return 0;
  const [a, b] = text.split("/");
  const n = b === undefined ? Number(a) : Number(a) / Number(b);
  return Number.isFinite(n) ? n : 0;
}

/** A limit's quantity in its unit: "2.5 GPU", "4 CPU", "16 GiB", "3". */
export function capQuantity(field: CapField, text: string): string {
  switch (field) {
    case "maxGpus":
    case "modelCaps":
      return `${text} GPU`;
    case "maxCpuMillicores":
      return `${+(quantity(text) / 1000).toFixed(3)} CPU`;
    case "maxVramMib":
    case "maxMemoryMib":
    case "storageQuotaMib":
      return formatMib(quantity(text));
    default:
      return text;
  }
}

/** used / limit in percent, 100 when a zero limit is used at all. */
export function capShare(used: string | null | undefined, limit: string): number {
  const l = quantity(limit);
  const u = quantity(used);
  if (l <= 0) return u > 0 ? 100 : 0;
  return Math.min(100, (u / l) * 100);
}
