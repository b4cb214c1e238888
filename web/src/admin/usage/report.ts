import type { ScopeKind, UsageDimension } from "../../gql/graphql";
import type { Translate } from "../../i18n";

/** The splits finer than each scope (the server refuses the others). */
export const SPLITS: Record<Exclude<ScopeKind, "GLOBAL">, UsageDimension[]> = {
  ORGANIZATION: ["GROUP", "USER", "OFFERING"],
  GROUP: ["USER", "OFFERING"],
  USER: ["OFFERING"],
};

/** `GET /exports/usage.csv` with the same arguments as the report on screen. */
export function usageCsvUrl(f: {
  scopeKind: string;
  scopeId: string;
  by?: string | null;
  interval?: string | null;
  since?: string | null;
  until?: string | null;
}): string {
  const p = new URLSearchParams({ scopeKind: f.scopeKind, scope: f.scopeId });
  if (f.by) p.set("by", f.by);
  if (f.interval) p.set("interval", f.interval);
  if (f.since) p.set("since", f.since);
  if (f.until) p.set("until", f.until);
  return `/exports/usage.csv?${p.toString()}`;
}

/** A report row's label: its name; the whole scope without a split; charges posted without a
 * session have no offering; a key whose name is gone shows the start of its id. */
export function rowLabel(x: { kind?: UsageDimension | null; id?: string | null; name?: string | null }, t: Translate): string {
  if (x.name) return x.name;
  if (!x.kind) return t("usage.total");
  if (!x.id) return x.kind === "OFFERING" ? t("usage.noOffering") : t("usage.unattributed");
  return t("usage.unknown", { id: `${x.id.slice(0, 8)}…` });
}

/** Chart series: the `top` keys by spend, the rest summed as one more series (in credits). */
export function chartSeries(
  rows: readonly { label: string; series: readonly (string | number)[] }[],
  others: string,
  top = 8,
): { label: string; values: number[] }[] {
  const credits = (micro: string | number) => Number(micro) / 1_000_000;
  const shown = rows.slice(0, top).map((r) => ({ label: r.label, values: r.series.map(credits) }));
  const rest = rows.slice(top);
  if (rest.length === 0) return shown;
  const sum = rest[0].series.map((_, i) => rest.reduce((s, r) => s + credits(r.series[i] ?? 0), 0));
  return [...shown, { label: others, values: sum }];
}
