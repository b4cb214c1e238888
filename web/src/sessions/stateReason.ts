import { fillMessage, type Translate } from "../i18n";

/** The server writes a state's reason in English (for API clients) and as a code with its
 * parameters: in another language the console says it from the code, or, for a reason stored
 * before codes, what the state means. */
export function localisedReason(
  t: Translate,
  language: string,
  state: string,
  reason: string,
  code?: string | null,
  params?: readonly { name: string; value: string }[],
): string {
  if (language === "en") return reason;
  if (code) {
    const said = fillMessage(t, `stateReasonCode.${code}`, Object.fromEntries((params ?? []).map((p) => [p.name, p.value])));
    if (said != null) return said;
  }
  const key: string = `stateReason.${state}`;
  return t.has(key) ? t(key) : reason;
}
