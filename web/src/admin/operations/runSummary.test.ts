import { describe, expect, it } from "vitest";
import { makeTranslate } from "../../i18n";
import { runSummary } from "./OperationsPage";

describe("a background run's summary", () => {
  const en = makeTranslate("en");
  const ko = makeTranslate("ko");
  const run = {
    summary: "1 running session(s) billed, 1 charge(s), 0.005833 credits",
    counts: [
      { name: "sessions", value: "1" },
      { name: "charges", value: "1" },
      { name: "credits", value: "0.005833" },
      { name: "settlements", value: "0" },
      { name: "warned", value: "0" },
      { name: "paused", value: "0" },
    ],
  };

  it("is said in Korean from the run's counts", () => {
    expect(runSummary(ko, "sessions.meter", run)).toBe(
      "실행 중인 세션 1개 청구, 청구 1건, 0.005833크레딧; 누락된 정산 0건 마감, 잔액 부족 지갑 0개, 일시 정지 0개",
    );
  });

  it("never shows the server's English line in Korean", () => {
    expect(runSummary(ko, "sessions.meter", { summary: run.summary, counts: [] })).toBeNull();
    expect(runSummary(ko, "some.new_job", run)).toBeNull();
    expect(runSummary(en, "some.new_job", run)).toBe(run.summary);
  });
});
