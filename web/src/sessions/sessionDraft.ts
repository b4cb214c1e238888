import type { Expiry, MountMode } from "../gql/graphql";
import type { Problem } from "../common/validation";

export interface MountDraft {
  mountPath: string;
  mode: MountMode;
}

export const EXPIRY_SECONDS: Record<Expiry, number | null> = {
  H1: 3600,
  H4: 4 * 3600,
  D1: 86400,
  D7: 7 * 86400,
  D30: 30 * 86400,
  NONE: null,
};

const MOUNT_PATH_RE = /^\/[A-Za-z0-9._\-/]*$/;

export interface SessionDraft {
  name: string;
  imageId: string | null;
  presetId: string | null;
  bundle: string | null;
  offeringId: string | null;
  gpuNeeded: boolean;
  bundleMode: boolean;
  mounts: Record<string, MountDraft>;
}

/** Client-side checks of the create-session form; keys are the input fields (`mount:<id>`
 * for a mount's path). The admission pipeline re-checks everything and names its step. */
export function validateSessionDraft(d: SessionDraft): Record<string, Problem> {
  const p: Record<string, Problem> = {};
  if (!d.name.trim()) p.name = "required";
  if (!d.imageId) p.imageId = "required";
  if (d.bundleMode ? !d.bundle : !d.presetId) p[d.bundleMode ? "bundleGpus" : "presetId"] = "required";
  if (d.gpuNeeded && !d.offeringId) p.offeringId = "required";
  const paths = new Set<string>();
  for (const [id, m] of Object.entries(d.mounts)) {
    const path = m.mountPath.trim();
    if (!path) p[`mount:${id}`] = "required";
    else if (!MOUNT_PATH_RE.test(path) || path.includes("..") || paths.has(path)) p[`mount:${id}`] = "mountPath";
    paths.add(path);
  }
  return p;
}

/** One environment variable of the form (a blank row is ignored). */
export interface EnvDraft {
  name: string;
  value: string;
}

const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables to send: blank rows dropped, names trimmed. */
export function envInput(env: EnvDraft[]): { name: string; value: string }[] {
  return env.filter((e) => e.name.trim() || e.value).map((e) => ({ name: e.name.trim(), value: e.value }));
}

/** Client-side checks of the variables (`env:<row>` keys): a name such as MY_VAR, used once. */
export function envProblems(env: EnvDraft[]): Record<string, Problem> {
  const p: Record<string, Problem> = {};
  const seen = new Set<string>();
  env.forEach((e, i) => {
    const name = e.name.trim();
    if (!name && !e.value) return;
    if (!name) p[`env:${i}`] = "required";
    else if (!ENV_NAME_RE.test(name) || seen.has(name)) p[`env:${i}`] = "envName";
    seen.add(name);
  });
  return p;
}

/** A template's variables (a JSON object of name → value) as rows of the form. */
export function envFromTemplate(env: unknown): EnvDraft[] {
  if (!env || typeof env !== "object" || Array.isArray(env)) return [];
  return Object.entries(env as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value ?? "") }));
}

/** Shared memory in MiB: empty for the preset's default, else a whole number. */
export function shmProblem(text: string): Problem | null {
  const s = text.trim();
  if (!s) return null;
  return /^\d+$/.test(s) ? null : "positive";
}

export interface TemplateDraft {
  id: string;
  imageId: string;
  presetId?: string | null;
  cpuMillicores?: number | null;
  shmMib?: number | null;
  env: unknown;
  mounts: { volumeId: string; mountPath: string; mode: MountMode }[];
}

export interface FormDraft {
  imageId: string | null;
  bundleMode: boolean;
  shm: string;
  env: EnvDraft[];
  mounts: Record<string, MountDraft>;
}

/** What a session made from this form asks for beside the template: the server starts from
 * the template (its image, preset or bundle, variables, shared memory and mounts) and adds the
 * request's. So the template is named only while the form keeps what cannot be taken away from
 * it (its image, its kind of instance, every one of its variables and mounts, its shared
 * memory); the mounts sent are then the ones it lacks. Once the form drops any of that, the
 * session is made from the form alone. */
export function templateParts(tpl: TemplateDraft | undefined, form: FormDraft): { templateId: string | null; mounts: [string, MountDraft][] } {
  const all = Object.entries(form.mounts);
  if (!tpl) return { templateId: null, mounts: all };
  const names = new Set(envInput(form.env).map((e) => e.name));
  const keeps =
    tpl.imageId === form.imageId &&
    !(tpl.presetId && form.bundleMode) &&
    !(tpl.cpuMillicores != null && !tpl.presetId && !form.bundleMode) &&
    !(tpl.shmMib != null && !form.shm.trim()) &&
    envFromTemplate(tpl.env).every((e) => names.has(e.name)) &&
    tpl.mounts.every((m) => form.mounts[m.volumeId]?.mountPath.trim() === m.mountPath && form.mounts[m.volumeId]?.mode === m.mode);
  if (!keeps) return { templateId: null, mounts: all };
  const own = new Set(tpl.mounts.map((m) => m.volumeId));
  return { templateId: tpl.id, mounts: all.filter(([id]) => !own.has(id)) };
}
