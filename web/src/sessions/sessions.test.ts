import { describe, expect, it } from "vitest";
import { validateSessionDraft } from "./sessionDraft";
import { mergeSamples, type Sample } from "./usage";
import { sessionActions } from "./states";

const base = { name: "nb", imageId: "img", presetId: "p", bundle: null, offeringId: "o", gpuNeeded: true, bundleMode: false, mounts: {} };
const sample = (sec: number, cpu = 1000): Sample => ({
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, sec)).toISOString(),
  cpuMillicores: cpu,
  memoryMib: 1024,
  gpuUtilPercent: 50,
  gpuMemoryMib: 2048,
});

describe("create-session form", () => {
  it("accepts a complete GPU request", () => {
    expect(validateSessionDraft(base)).toEqual({});
  });
  it("asks for the offering only when the preset has a GPU", () => {
    expect(validateSessionDraft({ ...base, offeringId: null })).toEqual({ offeringId: "required" });
    expect(validateSessionDraft({ ...base, offeringId: null, gpuNeeded: false })).toEqual({});
  });
  it("names the missing preset or bundle", () => {
    expect(validateSessionDraft({ ...base, presetId: null, name: " ", imageId: null })).toEqual({ name: "required", imageId: "required", presetId: "required" });
    expect(validateSessionDraft({ ...base, presetId: null, bundleMode: true })).toEqual({ bundleGpus: "required" });
  });
  it("checks mount paths: absolute, no '..', each used once", () => {
    const mounts = {
      a: { mountPath: "/mnt/data", mode: "READ_WRITE" as const },
      b: { mountPath: "/mnt/data", mode: "READ_ONLY" as const },
      c: { mountPath: "relative", mode: "READ_ONLY" as const },
      d: { mountPath: "/mnt/../etc", mode: "READ_ONLY" as const },
      e: { mountPath: "", mode: "READ_ONLY" as const },
    };
    expect(validateSessionDraft({ ...base, mounts })).toEqual({ "mount:b": "mountPath", "mount:c": "mountPath", "mount:d": "mountPath", "mount:e": "required" });
  });
});

describe("live usage window", () => {
  it("merges samples in time order, replacing duplicates, keeping the last 5 minutes", () => {
    const first = Array.from({ length: 10 }, (_, i) => sample(i));
    const merged = mergeSamples(first, [sample(9, 2000), sample(10)]);
    expect(merged).toHaveLength(11);
    expect(merged[9].cpuMillicores).toBe(2000);
    const later = mergeSamples(merged, [sample(400)]);
    expect(later).toEqual([sample(400)]);
    const window = mergeSamples(merged, [sample(305)]);
    expect(window.map((s) => s.at)).toEqual([sample(5), sample(6), sample(7), sample(8), sample(9), sample(10), sample(305)].map((s) => s.at));
  });
});

describe("session actions", () => {
  it("offers what each state allows", () => {
    expect(sessionActions("RUNNING")).toMatchObject({ pause: true, resume: false, stop: true, extend: true });
    expect(sessionActions("PAUSED")).toMatchObject({ pause: false, resume: true, stop: true });
    expect(sessionActions("STOPPED")).toMatchObject({ pause: false, resume: false, stop: false, extend: false, ended: true });
  });
});
