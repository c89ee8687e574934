/**
 * `npm run bench:polling`: what polling costs upstream. Runs the real pipeline (poll-all -> poll-repo ->
 * advance-repo, in-process runner, PostgreSQL on 127.0.0.1) against replay-hub repos of realistic size
 * (Qwen3-8B config, 10-shard checkpoint advertised at ~16 GB, ~10 MB tokenizer.json), and counts Hub
 * requests and body bytes from the replay hub's request log:
 *   - per watched repo per poll cycle when nothing changed;
 *   - per new revision, by kind of change;
 * each against the naive poller that lists the tree and downloads every tracked file in full each cycle
 * (and a kinder naive one that skips weight files entirely). Prints one JSON line last.
 * Then the scale part (bench/lib/scale.ts): BENCH_REPOS small synthetic repos across BENCH_OWNERS owners
 * against a replay hub enforcing BENCH_QUOTA, before (a request per repo per tick, no pacing) and after
 * (owner listings, paced by the same budget): `idle_requests_per_repo` and `hub_429` in the JSON line.
 * Env: BENCH_REPOS (default 4; the realistic part uses at most 4), BENCH_OWNERS (default REPOS/20),
 * BENCH_IDLE_CYCLES (default 3), BENCH_CHANGED (repos with a new revision per change tick, default 20),
 * BENCH_CHANGE_TICKS (default 3), BENCH_QUOTA (default 250/60: a free user's rate, 1,000 per 300 s,
 * in a shorter window so that a run spans several).
 */
import { isTrackedPath } from "../src/core/diff/paths.ts";
import { embeddedRunner } from "../src/main/runners.ts";
import { type ReplayHub, startReplayHub } from "../src/replay-hub/index.ts";
import { watchRepo } from "../src/services/watch-repos.ts";
import { benchDatabase, benchServices, machine, round } from "./lib/harness.ts";
import { changes, realisticRepo } from "./lib/realistic-repo.ts";
import { scaleBench } from "./lib/scale.ts";

const SCALE_REPOS = Number(process.env.BENCH_REPOS ?? 4);
const REPOS = Math.min(4, SCALE_REPOS);
const IDLE_CYCLES = Number(process.env.BENCH_IDLE_CYCLES ?? 3);
const SCALE = {
  repos: SCALE_REPOS,
  owners: Number(process.env.BENCH_OWNERS ?? Math.max(1, Math.round(SCALE_REPOS / 20))),
  idleCycles: IDLE_CYCLES,
  changed: Math.min(SCALE_REPOS, Number(process.env.BENCH_CHANGED ?? 20)),
  changeTicks: Number(process.env.BENCH_CHANGE_TICKS ?? 3),
  quota: process.env.BENCH_QUOTA ?? "250/60",
};

type Cost = { requests: number; bytes: number };
type Naive = { full: Cost; withoutWeights: Cost };

/** The naive poller's cost for one repo at its head: list the tree, GET every tracked file. */
async function naiveCost(hub: ReplayHub, repo: string): Promise<Naive> {
  const res = await fetch(`${hub.url}/api/models/${repo}/tree/main?recursive=true`);
  const body = await res.text();
  const files = (JSON.parse(body) as { type: string; path: string; size: number }[]).filter(
    (f) => f.type === "file" && isTrackedPath(f.path),
  );
  const tree = Buffer.byteLength(body);
  const text = files.filter((f) => !f.path.endsWith(".safetensors"));
  const sum = (fs: typeof files) => fs.reduce((n, f) => n + f.size, 0);
  return {
    full: { requests: 1 + files.length, bytes: tree + sum(files) },
    withoutWeights: { requests: 1 + text.length, bytes: tree + sum(text) },
  };
}

function measured(hub: ReplayHub): Cost & { byRoute: Record<string, { requests: number; bytes: number }> } {
  const s = hub.stats();
  return { requests: s.requests, bytes: s.bytesSent, byRoute: s.byRoute };
}

const per = (c: Cost, n: number): Cost => ({
  requests: round(c.requests / n),
  bytes: Math.round(c.bytes / n),
});
const ratio = (naive: number, ours: number) => (ours === 0 ? null : round(naive / ours, 1));

const started = performance.now();

async function main(): Promise<void> {
  const ids = Array.from({ length: REPOS }, (_, i) => `bench/qwen3-8b-${i}`);
  const hub = await startReplayHub({ repos: ids.map(realisticRepo) });
  const db = await benchDatabase();
  const { services } = benchServices(db, hub.url);
  const runner = embeddedRunner(services);
  try {
    for (const id of ids) await watchRepo(services, id);
    await runner.start();
    const cycle = async () => {
      const t = performance.now();
      await runner.enqueue("poll-all", {});
      await runner.idle();
      return performance.now() - t;
    };
    await cycle(); // first poll: the whole (two-revision) history of every repo
    hub.clearLog();
    let idleMs = 0;
    for (let i = 0; i < IDLE_CYCLES; i++) idleMs += await cycle();
    const idle = per(measured(hub), REPOS * IDLE_CYCLES);
    const naiveIdle = await naiveCost(hub, ids[0]!);
    hub.clearLog();

    const revisions: Record<string, unknown> = {};
    let i = 10;
    for (const change of changes()) {
      for (const id of ids) hub.addCommit(id, change.spec(i));
      i += 1;
      hub.clearLog();
      const ms = await cycle();
      const m = measured(hub);
      const ours = per(m, REPOS);
      const naive = await naiveCost(hub, ids[0]!);
      hub.clearLog();
      revisions[change.kind] = {
        hubwatch: ours,
        byRoute: Object.fromEntries(
          Object.entries(m.byRoute).map(([k, v]) => [
            k,
            { requests: v.requests / REPOS, bytes: Math.round(v.bytes / REPOS) },
          ]),
        ),
        naive: naive.full,
        naiveWithoutWeights: naive.withoutWeights,
        bytesRatio: ratio(naive.full.bytes, ours.bytes),
        bytesRatioWithoutWeights: ratio(naive.withoutWeights.bytes, ours.bytes),
        requestsRatio: ratio(naive.full.requests, ours.requests),
        msPerRepo: round(ms / REPOS, 1),
      };
    }
    if (runner.failures.length > 0) throw new Error(`jobs failed: ${JSON.stringify(runner.failures)}`);
    await runner.close();
    await hub.close();
    await db.drop();
    const scale = await scaleBench(SCALE);
    console.error(
      `scale ${SCALE.repos} repos / ${SCALE.owners} owners: idle requests per repo ${scale.before.idle_requests_per_repo} -> ${scale.after.idle_requests_per_repo}; 429s ${scale.before.hub_429} -> ${scale.after.hub_429}`,
    );
    const result = {
      bench: "polling",
      machine: machine(),
      idle_requests_per_repo: scale.after.idle_requests_per_repo,
      hub_429: scale.after.hub_429,
      wall_s: round((performance.now() - started) / 1000, 1),
      scale,
      repos: REPOS,
      idleCycle: {
        perRepo: idle,
        naivePerRepo: naiveIdle.full,
        naiveWithoutWeightsPerRepo: naiveIdle.withoutWeights,
        bytesRatio: ratio(naiveIdle.full.bytes, idle.bytes),
        requestsRatio: ratio(naiveIdle.full.requests, idle.requests),
        msPerRepo: round(idleMs / (REPOS * IDLE_CYCLES), 1),
      },
      perRevision: revisions,
    };
    for (const [kind, r] of Object.entries(revisions)) {
      const x = r as { hubwatch: Cost; naive: Cost; bytesRatio: number };
      console.error(
        `${kind.padEnd(18)} hubwatch ${x.hubwatch.requests} req ${x.hubwatch.bytes} B | naive ${x.naive.requests} req ${x.naive.bytes} B | ${x.bytesRatio}x`,
      );
    }
    console.log(JSON.stringify(result));
  } catch (err) {
    await runner.close().catch(() => {});
    await hub.close().catch(() => {});
    await db.drop().catch(() => {});
    throw err;
  }
}

await main();
