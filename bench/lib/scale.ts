/**
 * The scale part of `npm run bench:polling`: BENCH_REPOS small synthetic repos across BENCH_OWNERS owners,
 * already caught up (as a long-running daemon's would be), against a replay hub that enforces a quota.
 *   - before: every repo checked on its own each tick (what poll-all did before owner listings), with no
 *     pacing: requests per idle tick, and the 429s that one such tick meets under the quota;
 *   - after: poll-all (owner listings, per-repo only where needed), paced by the budget: requests per
 *     idle tick, then ticks where BENCH_CHANGED repos each get a new revision: 429s (target zero).
 */
import { jobs } from "../../jobs/index.ts";
import { createHubBudget, parseBudget } from "../../src/hub/budget.ts";
import { createHubClient } from "../../src/hub/client.ts";
import { createInProcessRunner } from "../../src/queue/in-process-runner.ts";
import { makeSyntheticRepos, type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { getRepoByName, markRepoPolled } from "../../src/repositories/repos.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { hubPortFrom } from "../../src/services/hub-port.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { type BenchDatabase, benchDatabase, benchServices, round } from "./harness.ts";

export type ScaleOptions = {
  repos: number;
  owners: number;
  idleCycles: number;
  changed: number;
  changeTicks: number;
  quota: string;
};

function scaleRepos(n: number, owners: number) {
  return makeSyntheticRepos({ count: n, revisionsEach: 2 }).map((r, i) => ({
    ...r,
    id: `owner-${String(i % owners).padStart(3, "0")}/model-${String(i).padStart(5, "0")}`,
  }));
}

/** Watches every repo and records it as caught up at its head (no Hub request). */
async function seedCaughtUp(s: PipelineServices, hub: ReplayHub): Promise<void> {
  for (const id of hub.repoIds()) {
    await watchRepo(s, id);
    const repo = await getRepoByName(s.db, id);
    await markRepoPolled(s.db, repo!.id, { lastSeenSha: hub.headSha(id) });
  }
}

function pipeline(db: BenchDatabase, hub: ReplayHub, budget: string | null) {
  const { services } = benchServices(db, hub.url);
  const api = budget ? parseBudget(budget) : null;
  const client = createHubClient({
    hubUrl: hub.url,
    budget: api ? createHubBudget({ api, resolvers: { ...api, limit: api.limit * 5 } }) : undefined,
  });
  const s: PipelineServices = { ...services, hub: hubPortFrom(client) };
  // 429 retries wait Retry-After scaled down: the before run shows the 429s, not the wait.
  const runner = createInProcessRunner({ jobs, services: s, concurrency: 4, delayScale: 0.001 });
  return { s, runner, client };
}

/** Before: one idle tick checking each repo on its own (no pacing) against the enforced quota. */
async function before(o: ScaleOptions) {
  const hub = await startReplayHub({ repos: scaleRepos(o.repos, o.owners), quota: o.quota });
  const db = await benchDatabase();
  const { s, runner } = pipeline(db, hub, null);
  try {
    await seedCaughtUp(s, hub);
    await runner.start();
    hub.clearLog();
    for (const id of hub.repoIds()) await runner.enqueue("poll-repo", { repo: id });
    await runner.idle();
    const ok = hub.requestLog.filter((e) => e.status !== 429).length;
    return { idle_requests_per_repo: round(ok / o.repos, 3), hub_429: hub.quotaRefused() };
  } finally {
    await runner.close();
    await hub.close();
    await db.drop();
  }
}

/** After: idle ticks through poll-all, then ticks with new revisions, all paced by the budget. */
async function after(o: ScaleOptions) {
  const hub = await startReplayHub({ repos: scaleRepos(o.repos, o.owners), quota: o.quota });
  const db = await benchDatabase();
  const { s, runner, client } = pipeline(db, hub, o.quota);
  try {
    await seedCaughtUp(s, hub);
    await runner.start();
    const tick = async () => {
      const t = performance.now();
      await runner.enqueue("poll-all", {});
      await runner.idle();
      return performance.now() - t;
    };
    hub.clearLog();
    let idleMs = 0;
    for (let i = 0; i < o.idleCycles; i++) idleMs += await tick();
    const idleRequests = hub.requestLog.length / o.idleCycles;
    const ids = hub.repoIds();
    let changeMs = 0;
    for (let t = 0; t < o.changeTicks; t++) {
      for (let i = 0; i < o.changed; i++) {
        const id = ids[(t * o.changed + i * 37) % ids.length]!;
        hub.addCommit(id, {
          title: `README ${t}`,
          date: new Date(Date.UTC(2026, 0, 1, t)).toISOString(),
          changes: { "README.md": { kind: "text", text: `# tick ${t}\n` } },
        });
      }
      changeMs += await tick();
    }
    if (runner.failures.length > 0)
      throw new Error(`jobs failed: ${JSON.stringify(runner.failures.slice(0, 3))}`);
    return {
      idle_requests_per_tick: idleRequests,
      idle_requests_per_repo: round(idleRequests / o.repos, 3),
      idle_tick_s: round(idleMs / o.idleCycles / 1000, 1),
      change_tick_s: round(changeMs / Math.max(1, o.changeTicks) / 1000, 1),
      requests_total: hub.requestLog.length,
      hub_429: hub.quotaRefused(),
      budget_waited_s: round((client.options.budget?.stats().waitedMs ?? 0) / 1000, 1),
    };
  } finally {
    await runner.close();
    await hub.close();
    await db.drop();
  }
}

export async function scaleBench(o: ScaleOptions) {
  const b = await before(o);
  const a = await after(o);
  return { ...o, before: b, after: a };
}
