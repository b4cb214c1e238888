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
    const vars = Object.fromEntries((params ?? []).map((p) => [p.name, p.value]));
    // a waiting session's shortfall (GPU_TAKEN, CPU_MEMORY...) has a message of its own
    const kind = vars.shortfall ? `${vars.shortfall}${vars.cards ? "_CARDS" : ""}` : null;
    const said = (kind && fillMessage(t, `stateReasonCode.${code}.${kind}`, vars)) ?? fillMessage(t, `stateReasonCode.${code}`, vars);
    if (said != null) return said;
  }
  const key: string = `stateReason.${state}`;
  return t.has(key) ? t(key) : reason;
}
