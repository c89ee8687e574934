import { describe, expect, it } from "vitest";
import { createHubBudget, parseBudget, parseRateLimit } from "./budget.ts";

/** A clock that only moves when someone sleeps: the budget's schedule, without waiting for it. */
function fakeClock() {
  let t = 1_000_000;
  const sleepers: { at: number; wake: () => void }[] = [];
  return {
    now: () => t,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: t + ms, wake })),
    /** Runs until nobody sleeps, advancing time to each wake-up. */
    async drain() {
      for (;;) {
        await new Promise((r) => setImmediate(r));
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers.shift();
        if (!next) return;
        t = Math.max(t, next.at);
        next.wake();
      }
    },
  };
}

describe("Hub request budget", () => {
  it("never lets more than the limit through in any window, and spaces requests instead of bursting", async () => {
    const clock = fakeClock();
    const budget = createHubBudget(
      { api: { limit: 100, windowS: 10 }, resolvers: parseBudget("500/10") },
      clock,
    );
    const sent: number[] = [];
    const all = Array.from({ length: 350 }, () => budget.acquire("api").then(() => sent.push(clock.now())));
    await clock.drain();
    await Promise.all(all);
    expect(sent).toHaveLength(350);
    for (let i = 0; i < sent.length; i++) {
      const inWindow = sent.filter((t) => t >= sent[i]! && t < sent[i]! + 10_000).length;
      expect(inWindow).toBeLessThanOrEqual(100);
    }
    // Spread out: the first tenth of the window holds only the small burst.
    expect(sent.filter((t) => t < sent[0]! + 1_000).length).toBeLessThanOrEqual(20);
  });

  it("waits for the reset when the Hub says little is left, and after a 429", async () => {
    const clock = fakeClock();
    const budget = createHubBudget(
      { api: parseBudget("1000/300"), resolvers: parseBudget("5000/300") },
      clock,
    );
    const start = clock.now();
    budget.observe("api", 200, new Headers({ RateLimit: '"api";r=3;t=42' }));
    const p = budget.acquire("api");
    await clock.drain();
    await p;
    expect(clock.now() - start).toBeGreaterThanOrEqual(42_000);
    budget.observe("api", 429, new Headers({ RateLimit: '"api";r=0;t=7' }));
    const q = budget.acquire("api");
    const at = clock.now();
    await clock.drain();
    await q;
    expect(clock.now() - at).toBeGreaterThanOrEqual(7_000);
    expect(budget.stats().limited).toBe(1);
  });

  it("adopts the Hub's policy once an answer states it", async () => {
    const clock = fakeClock();
    const budget = createHubBudget(
      { api: parseBudget("1000/300"), resolvers: parseBudget("5000/300") },
      clock,
    );
    budget.observe("api", 200, new Headers({ "RateLimit-Policy": '"fixed window";"api";q=10;w=10' }));
    const sent: number[] = [];
    const all = Array.from({ length: 30 }, () => budget.acquire("api").then(() => sent.push(clock.now())));
    await clock.drain();
    await Promise.all(all);
    expect(sent.at(-1)! - sent[0]!).toBeGreaterThanOrEqual(20_000);
    expect(parseRateLimit(new Headers({ RateLimit: '"api";r=5;t=9' }))).toMatchObject({
      remaining: 5,
      resetS: 9,
    });
  });
});
