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
