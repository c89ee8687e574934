/**
 * Against a replay hub that enforces a quota (429 past it, as the Hub does per 5-minute window), hubwatch
 * paced by the same budget spends more requests than one window allows without a single 429: it spreads
 * them out and waits for the reset when the Hub's RateLimit header says little is left.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeSyntheticRepos } from "../../src/replay-hub/index.ts";
import { expectAllDone, type Pipeline, startPipeline, storeInvariants } from "./harness.ts";

let p: Pipeline | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

describe("quota", () => {
  it("a run needing more API requests than one window holds sees zero 429s", async () => {
    const repos = makeSyntheticRepos({ count: 10, revisionsEach: 3 });
    p = await startPipeline({ repos, quota: "40/4", budget: "40/4" });
    const t = Date.now();
    await p.cycle();
    for (const r of repos.slice(0, 4))
      p.hub.addCommit(r.id, {
        title: "README",
        date: "2025-09-01T00:00:00Z",
        changes: { "README.md": { kind: "text", text: "# next\n" } },
      });
    await p.cycle();
    const api = p.hub.requestLog.filter((e) => e.route !== "resolve" && e.route !== "raw");
    expect(api.length).toBeGreaterThan(40);
    expect(Date.now() - t).toBeGreaterThanOrEqual(4000);
    expect(p.hub.quotaRefused()).toBe(0);
    expect(p.hub.requestLog.filter((e) => e.status === 429)).toEqual([]);
    for (const r of repos) await expectAllDone(p, r.id);
    expect(p.runner.failures).toEqual([]);
    expect(await storeInvariants(p)).toEqual([]);
  }, 60_000);
});
