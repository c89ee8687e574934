import type { JobOptions } from "./types.ts";

/**
 * Milliseconds to wait before retry number `attempt` (1 = first retry): exponential, with jitter so
 * that many jobs failing together (the Hub down) do not retry together. `random` is injectable for tests.
 */
export function backoffDelayMs(
  attempt: number,
  opts: JobOptions["backoff"],
  random: () => number = Math.random,
): number {
  const base = opts.delayMs * 2 ** Math.max(0, attempt - 1);
  const spread = base * opts.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}
