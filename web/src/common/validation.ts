/** Client-side checks that save a round trip; the server re-checks everything. */

export function validateRequired(values: Record<string, string>): Record<string, "required"> {
  const out: Record<string, "required"> = {};
  for (const [k, v] of Object.entries(values)) if (!v.trim()) out[k] = "required";
  return out;
}

export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const CUDA_RE = /^\d+\.\d+$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Problem = "required" | "slug" | "cuda" | "email" | "positive" | "range" | "credits" | "mountPath" | "envName";

/** A positive integer within [min, max], or a problem. */
export function checkInt(text: string, min: number, max = Number.MAX_SAFE_INTEGER): Problem | null {
  if (!text.trim()) return "required";
  if (!/^\d+$/.test(text.trim())) return "positive";
  const n = Number(text);
  return n < min || n > max ? "range" : null;
}

export function checkCuda(text: string, optional = false): Problem | null {
  if (!text.trim()) return optional ? null : "required";
  return CUDA_RE.test(text.trim()) ? null : "cuda";
}

export function checkSlug(text: string): Problem | null {
  if (!text.trim()) return null; // optional: the server derives one from the name
  return SLUG_RE.test(text.trim()) ? null : "slug";
}

export function checkEmail(text: string): Problem | null {
  if (!text.trim()) return "required";
  return EMAIL_RE.test(text.trim()) ? null : "email";
}
