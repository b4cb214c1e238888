import { useCallback, useMemo, useState } from "react";
import type { CombinedError } from "urql";
import { fillMessage, useT, type Translate } from "../i18n";

/** A refusal as every mutation payload returns it: `errors { code field message }`. */
export interface UserErrorLike {
  code: string;
  field?: string | null;
  message: string;
  /** The refusal's numbers and names (`errors { params { name value } }`). */
  params?: readonly { name: string; value: string }[] | null;
}

/** Server field names may be snake_case or dotted (`input.hourly_rate_micro`); forms use
 * the camelCase input names of the schema. */
export function normalizeField(field: string | null | undefined): string | null {
  if (!field) return null;
  const last = field.replace(/^input\./, "");
  return last.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A readable sentence for one refusal: the localized meaning of its code, then its details.
 * The server's message is English (kept for API clients): in English it is the detail; in any
 * other language the detail is said from the refusal's typed parameters (`error.CODE.detail`
 * with `{name}` placeholders), and left out when there is no such message. */
export function describeError(e: UserErrorLike, t: Translate): string {
  const key = `error.${e.code}`;
  const known = t.has(key) ? t(key) : null;
  if (t.language === "en") {
    if (!known) return e.message;
    if (!e.message || e.message.toLowerCase() === known.toLowerCase()) return known;
    return `${known}: ${e.message}`;
  }
  const base = known ?? t("error.unknown");
  const vars = Object.fromEntries((e.params ?? []).map((p) => [p.name, p.value]));
  const detail = e.params?.length ? fillMessage(t, `${key}.detail`, vars) : null;
  return detail ? `${base}: ${detail}` : base;
}

/** Transport or GraphQL-level failures (network down, masked server error, not signed in). */
export function describeCombinedError(err: CombinedError, t: Translate): string {
  if (err.networkError) return t("error.network");
  const first = err.graphQLErrors[0];
  if (!first) return t("error.unknown");
  const code = typeof first.extensions?.code === "string" ? `error.${first.extensions.code}` : "";
  if (code && t.has(code)) return t(code);
  return t.language === "en" ? first.message : t("error.request");
}

export interface FieldErrors {
  /** The refusal naming this input field, as a readable sentence. */
  field(name: string): string | undefined;
  /** Refusals not shown next to a field the form rendered (or naming no field). */
  general: string[];
  /** Take the result of a mutation; returns true when it succeeded. */
  take<D>(
    result: { error?: CombinedError; data?: D },
    pick: (data: D) => { errors: readonly UserErrorLike[] } | null | undefined,
  ): boolean;
  clear(): void;
  any: boolean;
}

/** Map a payload's errors onto the form's fields; everything else is "general". */
export function mapErrors(errors: readonly UserErrorLike[], fields: readonly string[], t: Translate) {
  const byField: Record<string, string> = {};
  const general: string[] = [];
  for (const e of errors) {
    const f = normalizeField(e.field);
    const text = describeError(e, t);
    if (f && fields.includes(f) && !byField[f]) byField[f] = text;
    else general.push(text);
  }
  return { byField, general };
}

/** The one hook that shows a mutation's `errors { code field message }` next to the field
 * they name. `fields` lists the input fields the form renders; refusals of other fields
 * and transport errors are returned in `general` (shown above the submit button). */
export function useFieldErrors(fields: readonly string[]): FieldErrors {
  const t = useT();
  const [errors, setErrors] = useState<UserErrorLike[]>([]);
  const [transport, setTransport] = useState<string | null>(null);
  const fieldsKey = fields.join(",");
  const mapped = useMemo(
    () => mapErrors(errors, fieldsKey.split(","), t),
    [errors, fieldsKey, t],
  );
  const take = useCallback(
    <D,>(
      result: { error?: CombinedError; data?: D },
      pick: (data: D) => { errors: readonly UserErrorLike[] } | null | undefined,
    ) => {
      if (result.error) {
        setTransport(describeCombinedError(result.error, t));
        setErrors([]);
        return false;
      }
      setTransport(null);
      const payload = result.data ? pick(result.data) : null;
      const errs = payload?.errors ?? [];
      setErrors([...errs]);
      return errs.length === 0 && !!payload;
    },
    [t],
  );
  const clear = useCallback(() => {
    setErrors([]);
    setTransport(null);
  }, []);
  const general = transport ? [transport, ...mapped.general] : mapped.general;
  return {
    field: (name) => mapped.byField[name],
    general,
    take,
    clear,
    any: general.length > 0 || Object.keys(mapped.byField).length > 0,
  };
}
