import { describe, expect, it } from "vitest";
import { envFromTemplate, envInput, envProblems, shmProblem, templateParts, type FormDraft, type TemplateDraft } from "./sessionDraft";

const tpl: TemplateDraft = {
  id: "t1",
  imageId: "img",
  presetId: "p",
  cpuMillicores: null,
  shmMib: 2048,
  env: { EPOCHS: "3" },
  mounts: [{ volumeId: "v1", mountPath: "/mnt/data", mode: "READ_ONLY" }],
};
const form: FormDraft = {
  imageId: "img",
  bundleMode: false,
  shm: "2048",
  env: [{ name: "EPOCHS", value: "5" }],
  mounts: { v1: { mountPath: "/mnt/data", mode: "READ_ONLY" }, v2: { mountPath: "/mnt/out", mode: "READ_WRITE" } },
};

describe("environment variables and shared memory of the form", () => {
  it("sends named rows and drops blank ones", () => {
    expect(envInput([{ name: " A ", value: "1" }, { name: "", value: "" }])).toEqual([{ name: "A", value: "1" }]);
  });
  it("names each bad row", () => {
    expect(envProblems([{ name: "OK_1", value: "" }, { name: "1BAD", value: "x" }, { name: "", value: "v" }, { name: "OK_1", value: "2" }, { name: "", value: "" }])).toEqual({
      "env:1": "envName",
      "env:2": "required",
      "env:3": "envName",
    });
  });
  it("reads a template's variables", () => {
    expect(envFromTemplate({ A: "1", B: 2 })).toEqual([{ name: "A", value: "1" }, { name: "B", value: "2" }]);
    expect(envFromTemplate(null)).toEqual([]);
    expect(envFromTemplate(["A"])).toEqual([]);
  });
  it("takes an empty shared memory as the default and refuses words", () => {
    expect(shmProblem("")).toBeNull();
    expect(shmProblem("1024")).toBeNull();
    expect(shmProblem("1 GiB")).toBe("positive");
  });
});

describe("a session from a template", () => {
  it("names the template and sends only the mounts it lacks while the form keeps it", () => {
    expect(templateParts(tpl, form)).toEqual({ templateId: "t1", mounts: [["v2", form.mounts.v2]] });
  });
  it("is made from the form alone once the form drops what the template would add back", () => {
    const alone = (f: Partial<FormDraft>) => templateParts(tpl, { ...form, ...f });
    expect(alone({ imageId: "other" }).templateId).toBeNull();
    expect(alone({ bundleMode: true }).templateId).toBeNull();
    expect(alone({ shm: "" }).templateId).toBeNull();
    expect(alone({ env: [] }).templateId).toBeNull();
    const rest = { v2: form.mounts.v2 };
    expect(alone({ mounts: rest })).toEqual({ templateId: null, mounts: [["v2", form.mounts.v2]] });
    expect(alone({ mounts: { ...form.mounts, v1: { mountPath: "/mnt/data", mode: "READ_WRITE" } } }).templateId).toBeNull();
  });
  it("without a template sends every mount", () => {
    expect(templateParts(undefined, form).mounts).toHaveLength(2);
  });
});
