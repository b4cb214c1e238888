import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";
import { ledgerCsvUrl } from "../credits/LedgerTable";
import { childKind } from "../admin/credits/levels";
import { EMPTY_POLICY, parseModelCaps, policyInput, validatePolicy } from "../admin/policies/policyForm";

describe("CSV", () => {
  it("quotes only what needs quoting", () => {
    expect(toCsv([["a", "b,c", 'say "hi"', null, 3]])).toBe('a,"b,c","say ""hi""",,3\r\n');
  });
  it("builds the ledger export URL from the table's filters", () => {
    expect(ledgerCsvUrl({})).toBe("/exports/ledger.csv");
    expect(ledgerCsvUrl({ accountId: "QWNj=", kind: "CHARGE", since: "2026-01-01T00:00:00.000Z" })).toBe(
      "/exports/ledger.csv?account=QWNj%3D&kind=CHARGE&since=2026-01-01T00%3A00%3A00.000Z",
    );
  });
});

describe("credits tree", () => {
  it("allocates one level down", () => {
    expect(childKind("top")).toBe("ORGANIZATION");
    expect(childKind("organization")).toBe("GROUP");
    expect(childKind("group")).toBe("USER");
  });
});

describe("policy form", () => {
  it("parses per-model caps", () => {
    expect(parseModelCaps("A100-80GB=4, H100-80GB=1/2")).toEqual([
      { model: "A100-80GB", cards: "4" },
      { model: "H100-80GB", cards: "1/2" },
    ]);
    expect(parseModelCaps("")).toEqual([]);
    expect(parseModelCaps("A100")).toBeNull();
  });
  it("validates and converts units (minutes, hours, cores)", () => {
    const d = { ...EMPTY_POLICY, idleTimeoutMinutes: "30", maxSessionHours: "8", maxCpuCores: "2.5", maxGpus: "1/2", approvalRequired: "true" as const };
    expect(validatePolicy(d)).toEqual({});
    expect(policyInput(d)).toMatchObject({ idleTimeoutSeconds: 1800, maxSessionSeconds: 28800, maxCpuMillicores: 2500, maxGpus: "1/2", approvalRequired: true, preemptible: null, maxVramMib: null });
    expect(validatePolicy({ ...EMPTY_POLICY, maxConcurrentSessions: "x", maxGpus: "two", modelCaps: "A100=" })).toEqual({ maxConcurrentSessions: "positive", maxGpus: "range", modelCaps: "range" });
  });
});

describe("node operation progress", async () => {
  const { activeStep, STEPS } = await import("../admin/clusters/SharingModeChange");
  it("shows the current step, and all done when it succeeded", () => {
    expect(activeStep(null, "RUNNING")).toBe(0);
    expect(activeStep("DRAIN", "RUNNING")).toBe(2);
    expect(activeStep("WAIT_FOR_RESOURCE", "FAILED")).toBe(4);
    expect(activeStep("UNCORDON", "SUCCEEDED")).toBe(STEPS.length);
  });
});
