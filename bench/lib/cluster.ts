/**
 * A distributed hubwatch for benchmarks: a replay hub with synthetic repos, a fresh PostgreSQL
 * database, N `hubwatch worker` processes on one BullMQ prefix, and a producer for scheduler ticks.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import pg from "pg";
import { jobs } from "../../jobs/index.ts";
import { createBullmqRunner } from "../../src/queue/bullmq-runner.ts";
import { type ReplayHub, type RepoSpec, startReplayHub } from "../../src/replay-hub/index.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { spawnHubwatch, type Worker } from "../../test/faults/processes.ts";
import { type BenchDatabase, benchDatabase } from "./harness.ts";

export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

export type Cluster = {
  hub: ReplayHub;
  db: BenchDatabase;
  sql: pg.Client;
  workers: Worker[];
  tick(): Promise<void>;
  /** Revisions recorded and settled / expected upstream. */
  progress(): Promise<{ settled: number; expected: number }>;
  waitSettled(timeoutMs: number): Promise<number>;
  rssMiB(): number[];
  /** CPU time (user + system) each worker process has used so far, in seconds. */
  cpuSeconds(): number[];
  close(): Promise<void>;
};

export async function startCluster(opts: {
  repos: RepoSpec[];
  workers: number;
  concurrency?: number;
  nodeArgs?: string[];
  logLevel?: string;
}): Promise<Cluster> {
  const hub = await startReplayHub({ repos: opts.repos });
  const db = await benchDatabase(4);
  for (const r of opts.repos) await watchRepo({ db: db.db }, r.id);
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL,
    HUBWATCH_QUEUE_PREFIX: prefix,
    HF_ENDPOINT: hub.url,
    LOG_LEVEL: opts.logLevel ?? "info",
  };
  const workers = Array.from({ length: opts.workers }, () =>
    spawnHubwatch("worker", env, ["--concurrency", String(opts.concurrency ?? 4)], opts.nodeArgs),
  );
  const started = Date.now();
  while (!workers.every((w) => w.output().includes("worker started"))) {
    if (Date.now() - started > 60_000)
      throw new Error(`workers did not start:\n${workers.map((w) => w.output()).join("\n")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const producer = createBullmqRunner({ jobs, services: {}, redisUrl: REDIS_URL, prefix });
  const expectedTotal = () => hub.repoIds().reduce((n, id) => n + hub.history(id).length, 0);
  const cluster: Cluster = {
    hub,
    db,
    sql,
    workers,
    tick: () => producer.enqueue("poll-all", {}),
    async progress() {
      const { rows } = await sql.query(`select count(*)::int as n from revisions where status <> 'pending'`);
      return { settled: rows[0].n, expected: expectedTotal() };
    },
    async waitSettled(timeoutMs) {
      const t = performance.now();
      for (;;) {
        const p = await cluster.progress();
        if (p.settled >= p.expected) return performance.now() - t;
        if (performance.now() - t > timeoutMs)
          throw new Error(`not settled after ${timeoutMs} ms: ${JSON.stringify(p)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    rssMiB: () => workers.map((w) => rssMiB(w.proc.pid!)),
    cpuSeconds: () => workers.map((w) => cpuSeconds(w.proc.pid!)),
    async close() {
      await Promise.all(workers.map((w) => w.kill("SIGTERM")));
      await producer.close();
      await sql.end();
      await hub.close();
      await db.drop();
      const r = new Redis(REDIS_URL);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    },
  };
  return cluster;
}

/** Resident set size of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** CPU time (user + system) a process has used, in seconds (Linux /proc, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
