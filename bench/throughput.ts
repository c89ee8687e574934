/**
 * `npm run bench:throughput`: end-to-end revisions per second in distributed mode (real `hubwatch worker`
 * processes, BullMQ on the local Redis, PostgreSQL on 127.0.0.1) against the replay hub, which runs in
 * this process on the same machine. Four parts, each on a fresh database and queue:
 *   1. scale-out: BENCH_SCALE_REPOS synthetic repos x BENCH_REVISIONS revisions with BENCH_SCALE_WORKERS
 *      workers (1, 2 and 4);
 *   2. catch-up: BENCH_REPOS repos x BENCH_REVISIONS revisions with BENCH_CATCHUP_WORKERS workers, then
 *      BENCH_ROUNDS-1 more rounds of as many new revisions; resident memory of each worker after each round;
 *   3. where the time goes: one worker run under --cpu-prof on BENCH_PROFILE_REPOS repos, self time by
 *      module (bench/lib/profile.ts), plus the pipeline's own per-step timings (debug log);
 *   4. SQL statements per revision and per step (BENCH_STATEMENT_REPOS repos, processed step by step in
 *      this process, bench/lib/statements.ts).
 * Prints one JSON line last. Parts can be chosen with BENCH_PARTS=scale,catchup,profile,statements.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { makeSyntheticRepos } from "../src/replay-hub/index.ts";
import type { CommitSpec } from "../src/replay-hub/types.ts";
import { startCluster } from "./lib/cluster.ts";
import { machine, round } from "./lib/harness.ts";
import { profileByModule, stepTimings } from "./lib/profile.ts";
import { statementsPerStep } from "./lib/statements.ts";

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const REVISIONS = env("BENCH_REVISIONS", 10);
const SCALE_REPOS = env("BENCH_SCALE_REPOS", 40);
const CATCHUP_REPOS = env("BENCH_REPOS", 100);
const CATCHUP_WORKERS = env("BENCH_CATCHUP_WORKERS", 2);
const PROFILE_REPOS = env("BENCH_PROFILE_REPOS", 30);
const SCALE_WORKERS = (process.env.BENCH_SCALE_WORKERS ?? "1,2,4").split(",").map(Number);
const STATEMENT_REPOS = env("BENCH_STATEMENT_REPOS", 3);
const PARTS = (process.env.BENCH_PARTS ?? "scale,catchup,profile,statements").split(",");
const TIMEOUT = env("BENCH_TIMEOUT_S", 900) * 1000;
/** Catch-up rounds: the first is the initial history, each later one as many new revisions again. */
const ROUNDS = env("BENCH_ROUNDS", 3);

async function scaleOut(workers: number) {
  const repos = makeSyntheticRepos({ count: SCALE_REPOS, revisionsEach: REVISIONS });
  const c = await startCluster({ repos, workers });
  try {
    const cpu0 = c.cpuSeconds();
    const load = loadavg()[0]!;
    await c.tick();
    const ms = await c.waitSettled(TIMEOUT);
    const { expected } = await c.progress();
    const cpu = c.cpuSeconds().reduce((sum, t, i) => sum + t - cpu0[i]!, 0);
    return {
      workers,
      revisions: expected,
      seconds: round(ms / 1000),
      revisionsPerSecond: round(expected / (ms / 1000)),
      workerCpuMsPerRevision: round((cpu * 1000) / expected, 1),
      loadAverage: [round(load), round(loadavg()[0]!)],
    };
  } finally {
    await c.close();
  }
}

/** Round-two revisions: README, generation_config.json and tokenizer_config.json edits. */
function laterCommit(i: number): CommitSpec {
  const date = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
  const text = (t: string) => ({ kind: "text" as const, text: t });
  const files: CommitSpec["changes"][] = [
    { "README.md": text(`# synthetic\n\nround two, revision ${i}\n`) },
    {
      "generation_config.json": text(
        `${JSON.stringify({ temperature: 0.5 + i / 100, top_p: 0.9 }, null, 2)}\n`,
      ),
    },
    {
      "tokenizer_config.json": text(
        `${JSON.stringify({ model_max_length: 4096 + i, eos_token: "<|im_end|>" }, null, 2)}\n`,
      ),
    },
  ];
  return { title: `round two ${i}`, date, changes: files[i % files.length]! };
}

async function catchUp() {
  const repos = makeSyntheticRepos({ count: CATCHUP_REPOS, revisionsEach: REVISIONS });
  const c = await startCluster({ repos, workers: CATCHUP_WORKERS });
  try {
    const rounds = [];
    const rssAtStart = c.rssMiB();
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      if (round_ > 0)
        for (const r of repos)
          for (let i = 0; i < REVISIONS; i++) c.hub.addCommit(r.id, laterCommit(round_ * 100 + i));
      await c.tick();
      const ms = await c.waitSettled(TIMEOUT);
      const n = CATCHUP_REPOS * REVISIONS;
      rounds.push({
        revisions: n,
        seconds: round(ms / 1000),
        revisionsPerSecond: round(n / (ms / 1000)),
        workerRssMiB: c.rssMiB(),
      });
      console.error(JSON.stringify(rounds.at(-1)));
    }
    const hubStats = c.hub.stats();
    return {
      repos: CATCHUP_REPOS,
      revisionsEach: REVISIONS,
      workers: CATCHUP_WORKERS,
      workerRssMiBAtStart: rssAtStart,
      rounds,
      hub: { requests: hubStats.requests, bytes: hubStats.bytesSent },
    };
  } finally {
    await c.close();
  }
}

async function profile() {
  const dir = mkdtempSync(join(tmpdir(), "hubwatch-prof-"));
  const repos = makeSyntheticRepos({ count: PROFILE_REPOS, revisionsEach: REVISIONS });
  const c = await startCluster({
    repos,
    workers: 1,
    logLevel: "debug",
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
  });
  try {
    await c.tick();
    const ms = await c.waitSettled(TIMEOUT);
    const worker = c.workers[0]!;
    await c.close(); // SIGTERM: the worker exits cleanly and writes its profile
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    return {
      repos: PROFILE_REPOS,
      revisions: PROFILE_REPOS * REVISIONS,
      seconds: round(ms / 1000),
      cpuByArea: file ? profileByModule(join(dir, file)) : null,
      stepsMs: stepTimings(worker.output()),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const result: Record<string, unknown> = { bench: "throughput", machine: machine() };
if (PARTS.includes("scale")) {
  const runs = [];
  for (const w of SCALE_WORKERS) {
    runs.push(await scaleOut(w));
    console.error(JSON.stringify(runs.at(-1)));
  }
  const base = runs[0]!.revisionsPerSecond;
  result.scaleOut = runs.map((r) => ({ ...r, speedup: round(r.revisionsPerSecond / base) }));
}
if (PARTS.includes("catchup")) {
  result.catchUp = await catchUp();
  console.error(JSON.stringify(result.catchUp));
}
if (PARTS.includes("profile")) {
  result.profile = await profile();
  console.error(JSON.stringify(result.profile));
}
if (PARTS.includes("statements")) {
  result.statements = await statementsPerStep(STATEMENT_REPOS, REVISIONS);
  console.error(JSON.stringify(result.statements));
}
console.log(JSON.stringify(result));
