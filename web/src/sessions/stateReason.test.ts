import { describe, expect, it } from "vitest";
import { makeTranslate } from "../i18n";
import { localisedReason } from "./stateReason";

describe("a session's state reason", () => {
  const ko = makeTranslate("ko");
  it("is said in Korean from its code and parameters, not the server's English", () => {
    expect(localisedReason(ko, "ko", "SCHEDULED", "placed on demo/a100-1", "PLACED", [{ name: "node", value: "demo/a100-1" }])).toBe("demo/a100-1 노드에 배치되었습니다.");
    expect(localisedReason(ko, "ko", "REJECTED", "no budget left", "REJECTED", [{ name: "reason", value: "no budget left" }])).toBe("거절됨: no budget left");
  });
  it("falls back to what the state means for a reason stored before codes, or a code missing a parameter", () => {
    expect(localisedReason(ko, "ko", "QUEUED", "waiting for capacity", null, [])).toBe(ko("stateReason.QUEUED"));
    expect(localisedReason(ko, "ko", "PREEMPTED", "node x was lost", "NODE_LOST", [])).toBe(ko("stateReason.PREEMPTED"));
  });
  it("keeps the server's words in English", () => {
    expect(localisedReason(makeTranslate("en"), "en", "QUEUED", "waiting for capacity: 2 cards short", "WAITING_FOR_CAPACITY", [])).toBe("waiting for capacity: 2 cards short");
  });
});
