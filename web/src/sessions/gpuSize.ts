import type { Translate } from "../i18n";
import { formatMib } from "../common/format";

/** What a session's GPU request takes, in words: "2 card(s)" / "카드 2장", "A time-slice",
 * "20 GiB / 25 % of a card" — never a bare ratio like "2/1". */
export function gpuSize(
  gpu: { cards: number; exclusive: boolean; shared: boolean; vramMib: number; cores: number },
  t: Translate,
): string {
  if (gpu.exclusive) return t("queue.cards", { n: Math.max(1, gpu.cards) });
  if (gpu.shared) return t("queue.timeSlice");
  return t("queue.fraction", { memory: formatMib(gpu.vramMib), cores: gpu.cores });
}
