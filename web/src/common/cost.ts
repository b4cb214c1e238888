/** Credit estimates for display, in exact integer micro-credits (DESIGN: charge = rate ×
 * ratio × seconds / 3600). The server's admission decides; these only inform the user. */

export const TIER_RATIO: Record<string, [number, number] | null> = {
  XL: [1, 2],
  L: [1, 4],
  M: [1, 8],
  S: [1, 16],
};

/** Cost of running `seconds` at `hourlyMicro` (already multiplied by the ratio), rounded up
 * to a whole micro-credit so an estimate never understates. */
export function estimateCost(hourlyMicro: bigint, seconds: number): bigint {
  if (seconds <= 0 || hourlyMicro <= 0n) return 0n;
  const s = BigInt(Math.ceil(seconds));
  return (hourlyMicro * s + 3599n) / 3600n;
}

/** What admission reserves: the cost over the shorter of the chosen expiry and the hold
 * window (one hour by default). No expiry = the hold window. */
export function holdEstimate(hourlyMicro: bigint, expirySeconds: number | null, holdWindowSeconds = 3600): bigint {
  const span = expirySeconds == null ? holdWindowSeconds : Math.min(expirySeconds, holdWindowSeconds);
  return estimateCost(hourlyMicro, span);
}

/** Hourly cost of a share of a card: whole-card rate × numerator / denominator, exact. */
export function hourlyForRatio(cardHourlyMicro: bigint, ratio: string): bigint {
  const [n, d] = ratio.split("/").map((x) => BigInt(x.trim()));
  if (d === undefined) return cardHourlyMicro * n;
  if (d === 0n) throw new Error("ratio with a zero denominator");
  return (cardHourlyMicro * n + d - 1n) / d;
}

/** Whether the available balance covers the hold; null when the balance is unknown. */
export function affordable(availableMicro: bigint | null, holdMicro: bigint): boolean | null {
  if (availableMicro == null) return null;
  return availableMicro >= holdMicro;
}

/** A preset's hourly cost range on a class of cards (the scheduler picks the card, billed at
 * its rate): [low, high] in micro-credits, or null when it is one price (one model). */
export function classCostRange(range: { low: { micro: unknown }; high: { micro: unknown } } | null | undefined): [bigint, bigint] | null {
  if (!range) return null;
  const low = BigInt(range.low.micro as string | number | bigint);
  const high = BigInt(range.high.micro as string | number | bigint);
  return low === high ? null : [low, high];
}

/** A running session's cost at this moment, ticking between the server's answers: the
 * server's running seconds when the status arrived plus the seconds since (only while
 * RUNNING: a paused or queued session's clock stands still), at the session's hourly cost,
 * floored to a micro-credit as the meter does. */
export function liveCostMicro(hourlyMicro: bigint, runningSecondsAtReceipt: number, secondsSinceReceipt: number, running: boolean): bigint {
  const seconds = Math.max(0, Math.floor(runningSecondsAtReceipt + (running ? Math.max(0, secondsSinceReceipt) : 0)));
  if (hourlyMicro <= 0n) return 0n;
  return (hourlyMicro * BigInt(seconds)) / 3600n;
}
