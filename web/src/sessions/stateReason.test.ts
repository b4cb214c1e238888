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
  it("says a waiting session's shortfall from its parameters", () => {
    const p = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));
    expect(localisedReason(ko, "ko", "QUEUED", "waiting for capacity: no GPU capacity of the kind it asks for is free", "WAITING_FOR_CAPACITY", p({ shortfall: "GPU_TAKEN", model: "A100-80GB", cards: "2" }))).toBe("용량 대기 중: A100-80GB 카드 2장이 비어 있는 노드가 없습니다.");
    expect(localisedReason(ko, "ko", "QUEUED", "…", "WAITING_FOR_CAPACITY", p({ shortfall: "GPU_TAKEN", model: "A100-80GB" }))).toBe("용량 대기 중: 요청한 종류의 A100-80GB 용량이 비어 있지 않습니다.");
    expect(localisedReason(ko, "ko", "QUEUED", "…", "APPROVED_WAITING_FOR_CAPACITY", p({ shortfall: "CPU_MEMORY", cpu: "4", memoryGib: "8" }))).toBe("승인됨. 용량 대기 중: CPU 4개와 메모리 8 GiB가 비어 있는 노드가 없습니다.");
    expect(localisedReason(ko, "ko", "QUEUED", "…", "WAITING_FOR_CAPACITY", p({ shortfall: "CPU_MEMORY_BESIDE_GPU", node: "c/n1", cpu: "2.5", memoryGib: "1", freeCpu: "1", freeMemoryGib: "6" }))).toContain("c/n1 노드에 GPU는 비어 있지만");
    // a shortfall this console does not know says the code's own message
    expect(localisedReason(ko, "ko", "QUEUED", "…", "WAITING_FOR_CAPACITY", p({ shortfall: "SOMETHING_NEW" }))).toBe(ko("stateReasonCode.WAITING_FOR_CAPACITY"));
    expect(localisedReason(ko, "ko", "PAUSED", "…", "DRAINED", p({ node: "c/n1" }))).toBe("일시 중지됨: c/n1 노드가 드레인되어 다른 노드에서 다시 시작됩니다.");
  });
  it("keeps the server's words in English", () => {
    expect(localisedReason(makeTranslate("en"), "en", "QUEUED", "waiting for capacity: 2 cards short", "WAITING_FOR_CAPACITY", [])).toBe("waiting for capacity: 2 cards short");
  });
});
