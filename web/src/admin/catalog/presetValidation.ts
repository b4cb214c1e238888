import type { GpuTier } from "../../gql/graphql";
import { checkInt, type Problem } from "../../common/validation";

export interface PresetDraft {
  id?: string;
  name: string;
  cpuCores: string;
  memoryMib: string;
  diskGib: string;
  shmMib: string;
  tier: GpuTier;
  gpuCount: string;
  customVramMib: string;
  customCores: string;
  description: string;
}

/** Client-side checks of the preset form (mirrors the server's rules so most mistakes are
 * caught before submitting); keys are the form's fields. */
export function validatePreset(d: PresetDraft): Record<string, Problem> {
  const p: Record<string, Problem> = {};
  if (!d.name.trim()) p.name = "required";
  const cpu = Number(d.cpuCores);
  if (!d.cpuCores.trim()) p.cpuCores = "required";
  else if (!Number.isFinite(cpu) || cpu <= 0) p.cpuCores = "positive";
  for (const f of ["memoryMib", "diskGib", "shmMib"] as const) {
    const problem = checkInt(d[f], 1);
    if (problem) p[f] = problem;
  }
  if (d.tier === "EXCLUSIVE") {
    const problem = checkInt(d.gpuCount, 1, 16);
    if (problem) p.gpuCount = problem;
  }
  if (d.tier === "CUSTOM") {
    const vram = checkInt(d.customVramMib, 1);
    if (vram) p.customVramMib = vram;
    const cores = checkInt(d.customCores, 1, 100);
    if (cores) p.customCores = cores;
  }
  return p;
}
