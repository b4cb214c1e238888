import { describe, expect, it } from "vitest";
import { checkCuda, checkEmail, checkInt, checkSlug, validateRequired } from "./validation";
import { validatePreset, type PresetDraft } from "../admin/catalog/presetValidation";
import { cardClassModels, offeringInputs, validateOffering } from "../admin/catalog/OfferingsPanel";
import { creditsToMicro, microToCredits } from "./format";
import { toAuditFilter } from "../admin/audit/AuditPage";
import { detectLanguage } from "../i18n";

const preset: PresetDraft = {
  name: "gpu-l",
  cpuCores: "4",
  memoryMib: "16384",
  diskGib: "50",
  shmMib: "1024",
  tier: "L",
  gpuCount: "1",
  customVramMib: "",
  customCores: "",
  description: "",
};

describe("form validation", () => {
  it("checks required fields, slugs, CUDA versions, e-mail and integer ranges", () => {
    expect(validateRequired({ a: " ", b: "x" })).toEqual({ a: "required" });
    expect(checkSlug("")).toBeNull();
    expect(checkSlug("physics-dept")).toBeNull();
    expect(checkSlug("Physics")).toBe("slug");
    expect(checkSlug("-x")).toBe("slug");
    expect(checkCuda("12.2")).toBeNull();
    expect(checkCuda("12")).toBe("cuda");
    expect(checkCuda("", true)).toBeNull();
    expect(checkEmail("a@b.org")).toBeNull();
    expect(checkEmail("nope")).toBe("email");
    expect(checkInt("0", 1)).toBe("range");
    expect(checkInt("1.5", 1)).toBe("positive");
    expect(checkInt("367", 1, 366)).toBe("range");
  });

  it("accepts a valid fractional preset and refuses broken ones field by field", () => {
    expect(validatePreset(preset)).toEqual({});
    expect(validatePreset({ ...preset, name: "", cpuCores: "-1", memoryMib: "x" })).toEqual({
      name: "required",
      cpuCores: "positive",
      memoryMib: "positive",
    });
    expect(validatePreset({ ...preset, tier: "EXCLUSIVE", gpuCount: "17" })).toEqual({ gpuCount: "range" });
    expect(validatePreset({ ...preset, tier: "CUSTOM", customVramMib: "", customCores: "101" })).toEqual({
      customVramMib: "required",
      customCores: "range",
    });
  });

  it("validates offerings and converts credits exactly", () => {
    const o = { vendor: "NVIDIA", name: "A100", vramMib: "81920", cores: "100", minCuda: "12.2", hourlyRate: "2.5", resourceName: "nvidia.com/gpu", description: "", enabled: true };
    expect(validateOffering(o, true)).toEqual({});
    expect(validateOffering({ ...o, hourlyRate: "2.1234567", minCuda: "x" }, true)).toEqual({ hourlyRateMicro: "credits", minCuda: "cuda" });
    expect(creditsToMicro("2.5")).toBe(2_500_000n);
    expect(creditsToMicro("0.000001")).toBe(1n);
    expect(creditsToMicro("1e3")).toBeNull();
    expect(microToCredits("12500000")).toBe("12.5");
    expect(microToCredits(-1n)).toBe("-0.000001");
  });

  it("makes an offering a class of cards: models as the server keeps them, no rate of its own", () => {
    const o = { vendor: "NVIDIA", name: "big", vramMib: "40960", cores: "100", minCuda: "12.0", hourlyRate: "", resourceName: "nvidia.com/gpu", description: "", enabled: true };
    expect(validateOffering(o, true)).toEqual({ hourlyRateMicro: "required" });
    const cls = { ...o, isClass: true, models: " H100-80GB, A100-80GB  A100-80GB," };
    expect(validateOffering(cls, true)).toEqual({});
    expect(validateOffering({ ...cls, vramMib: "0", minCuda: "x" }, true)).toEqual({ vramMib: "range", minCuda: "cuda" });
    expect(cardClassModels(cls.models)).toEqual(["A100-80GB", "H100-80GB"]);
    expect(cardClassModels(" ")).toEqual([]);
    expect(offeringInputs(cls).create).toMatchObject({ vramMib: 40960, minCuda: "12.0", hourlyRateMicro: "0", cardClass: { models: ["A100-80GB", "H100-80GB"] } });
    expect(offeringInputs({ ...cls, models: "" }).create?.cardClass).toEqual({ models: [] });
    const edit = offeringInputs({ ...cls, id: "T2ZmZXJpbmc6MQ==", models: "L40S" }).update;
    expect(edit).toMatchObject({ id: "T2ZmZXJpbmc6MQ==", cardClass: { models: ["L40S"] } });
    expect(edit).not.toHaveProperty("hourlyRateMicro");
    const one = offeringInputs({ ...o, id: "T2ZmZXJpbmc6Mg==", hourlyRate: "2.5" }).update;
    expect(one).toMatchObject({ hourlyRateMicro: "2500000", cardClass: null });
  });

  it("builds the audit filter from the form, leaving blanks out", () => {
    expect(toAuditFilter({ operation: " login ", targetType: "", targetId: "", success: "false", since: "", until: "", organizationId: null })).toEqual({
      operation: "login",
      success: false,
    });
  });

  it("follows the browser language unless the user chose one", () => {
    expect(detectLanguage(null, ["ko-KR", "en-US"])).toBe("ko");
    expect(detectLanguage(null, ["de-DE", "en-GB"])).toBe("en");
    expect(detectLanguage(null, ["fr"])).toBe("en");
    expect(detectLanguage("en", ["ko-KR"])).toBe("en");
  });
});
