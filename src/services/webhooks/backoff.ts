/**
 * Delays before each retry, after the first immediate attempt (Standard Webhooks' example schedule):
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, about 3 days in all.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

/** Delay in ms before attempt `attemptsMade + 1`, or null when the delivery is dead. Jitter is +-10%. */
export function nextRetryDelay(
  attemptsMade: number,
  delays: readonly number[] = DEFAULT_RETRY_DELAYS_MS,
  random: () => number = Math.random,
): number | null {
  const base = delays[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** Total attempts a delivery gets: the first plus one per retry delay. */
export function maxAttempts(delays: readonly number[] = DEFAULT_RETRY_DELAYS_MS): number {
  return delays.length + 1;
}
