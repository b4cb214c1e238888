import type { Problem } from "../../common/validation";

/** The policy form's text inputs; empty means "not set here" (inherits from wider scopes). */
export interface PolicyDraft {
  maxConcurrentSessions: string;
  maxGpus: string;
  modelCaps: string;
  maxVramMib: string;
  maxCpuCores: string;
  maxMemoryMib: string;
  storageQuotaMib: string;
  idleTimeoutMinutes: string;
  maxSessionHours: string;
  defaultPriority: string;
  approvalRequired: "" | "true" | "false";
  preemptible: "" | "true" | "false";
}

const INT = /^\d+$/;
const RATIO = /^\d+(\/\d+|\.\d+)?$/;

/** "A100-80GB=4, H100-80GB=1/2" → [{model, cards}] */
export function parseModelCaps(text: string): { model: string; cards: string }[] | null {
  if (!text.trim()) return [];
  const out: { model: string; cards: string }[] = [];
  for (const part of text.split(",")) {
    const [model, cards] = part.split("=").map((s) => s?.trim());
    if (!model || !cards || !RATIO.test(cards)) return null;
    out.push({ model, cards });
  }
  return out;
}

export function validatePolicy(d: PolicyDraft): Record<string, Problem> {
  const p: Record<string, Problem> = {};
  for (const f of ["maxConcurrentSessions", "maxVramMib", "maxMemoryMib", "storageQuotaMib", "idleTimeoutMinutes", "maxSessionHours"] as const) {
    if (d[f].trim() && !INT.test(d[f].trim())) p[f] = "positive";
  }
  if (d.defaultPriority.trim() && !/^-?\d+$/.test(d.defaultPriority.trim())) p.defaultPriority = "positive";
  if (d.maxCpuCores.trim() && !(Number(d.maxCpuCores) > 0)) p.maxCpuCores = "positive";
  if (d.maxGpus.trim() && !RATIO.test(d.maxGpus.trim())) p.maxGpus = "range";
  if (parseModelCaps(d.modelCaps) === null) p.modelCaps = "range";
  return p;
}

const int = (s: string) => (s.trim() ? Number(s.trim()) : null);
const bool = (s: "" | "true" | "false") => (s === "" ? null : s === "true");

/** The draft as policySet's input fields (seconds, millicores). */
export function policyInput(d: PolicyDraft) {
  return {
    maxConcurrentSessions: int(d.maxConcurrentSessions),
    maxGpus: d.maxGpus.trim() || null,
    modelCaps: parseModelCaps(d.modelCaps),
    maxVramMib: int(d.maxVramMib),
    maxCpuMillicores: d.maxCpuCores.trim() ? Math.round(Number(d.maxCpuCores) * 1000) : null,
    maxMemoryMib: int(d.maxMemoryMib),
    storageQuotaMib: int(d.storageQuotaMib),
    idleTimeoutSeconds: d.idleTimeoutMinutes.trim() ? Number(d.idleTimeoutMinutes) * 60 : null,
    maxSessionSeconds: d.maxSessionHours.trim() ? Number(d.maxSessionHours) * 3600 : null,
    defaultPriority: int(d.defaultPriority),
    approvalRequired: bool(d.approvalRequired),
    preemptible: bool(d.preemptible),
  };
}

export const EMPTY_POLICY: PolicyDraft = {
  maxConcurrentSessions: "",
  maxGpus: "",
  modelCaps: "",
  maxVramMib: "",
  maxCpuCores: "",
  maxMemoryMib: "",
  storageQuotaMib: "",
  idleTimeoutMinutes: "",
  maxSessionHours: "",
  defaultPriority: "",
  approvalRequired: "",
  preemptible: "",
};
