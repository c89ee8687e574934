import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_DELAYS_MS, maxAttempts, nextRetryDelay } from "./backoff.ts";

describe("webhook backoff", () => {
  it("spreads ten attempts over more than a day, growing, then stops", () => {
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(24 * 3_600_000);
    expect(maxAttempts()).toBe(10);
    const mid = () => 0.5;
    expect([1, 2, 3].map((n) => nextRetryDelay(n, undefined, mid))).toEqual([5_000, 300_000, 1_800_000]);
    expect(nextRetryDelay(10)).toBeNull();
    const jittered = nextRetryDelay(1, undefined, () => 0.999)!;
    expect(jittered).toBeGreaterThan(5_000);
    expect(jittered).toBeLessThanOrEqual(5_500);
  });
});
