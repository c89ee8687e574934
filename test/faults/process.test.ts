/**
 * Process faults in distributed mode (real `hubwatch worker` processes, BullMQ on Redis, PostgreSQL):
 * a worker SIGKILLed mid-job, Redis restarted mid-run, PostgreSQL restarted mid-run, the scheduler
 * running twice. Each run must end in exactly the state a clean run reaches (same revisions and statuses,
 * same advisories and findings: nothing duplicated, nothing lost) with the store's invariants intact.
 * The shared Redis (6379) and PostgreSQL (5432) are never restarted: the restart tests start their own
 * redis-server and PostgreSQL cluster on free ports and stop them by pid.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { jobs } from "../../jobs/index.ts";
import { createDatabase } from "../../src/db/client.ts";
import { migrateDatabase } from "../../src/db/migrate.ts";
import { createBullmqRunner } from "../../src/queue/bullmq-runner.ts";
import { type ReplayHub, type RepoSpec, startReplayHub } from "../../src/replay-hub/index.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgDatabase } from "../helpers/db.ts";
import {
  allSettled,
  FAULTED_REPO,
  healthyRepos,
  outcomeOf,
  referenceOutcome,
  revisionsOf,
  storeInvariants,
  waitFor,
} from "./harness.ts";
import { freePort, spawnHubwatch, startPgCluster, startRedis, type Worker } from "./processes.ts";

const A = FAULTED_REPO;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

type Run = {
  hub: ReplayHub;
  sql: pg.Client;
  prefix: string;
  env: Record<string, string>;
  tick(): Promise<void>;
  worker(args?: string[], env?: Record<string, string>): Worker;
  scheduler(cron: string): Worker;
};

/** A replay hub, a watched store at `databaseUrl`, and what workers need to share one queue. */
async function distributedRun(opts: {
  repos: RepoSpec[];
  databaseUrl: string;
  redisUrl: string;
}): Promise<Run> {
  const hub = await startReplayHub({ repos: opts.repos });
  cleanups.push(() => hub.close());
  const handle = await createDatabase({ databaseUrl: opts.databaseUrl, poolSize: 2 });
  await migrateDatabase(handle.db, handle.kind);
  for (const r of opts.repos) await watchRepo({ db: handle.db }, r.id);
  await handle.close();
  const sql = new pg.Client({ connectionString: opts.databaseUrl });
  await sql.connect();
  sql.on("error", () => {}); // the PostgreSQL restart test cuts this connection too
  cleanups.push(() => sql.end());
  const prefix = `faults-${randomBytes(4).toString("hex")}`;
  cleanups.push(() => deleteKeys(opts.redisUrl, prefix));
  const env = {
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    HUBWATCH_QUEUE_PREFIX: prefix,
    HF_ENDPOINT: hub.url,
  };
  return {
    hub,
    sql,
    prefix,
    env,
    // One scheduler tick, from a short-lived producer (what `hubwatch poll` does in distributed mode).
    async tick() {
      const producer = createBullmqRunner({ jobs, services: {}, redisUrl: opts.redisUrl, prefix });
      try {
        await producer.enqueue("poll-all", {});
      } finally {
        await producer.close();
      }
    },
    worker(args = [], extraEnv = {}) {
      const w = spawnHubwatch("worker", { ...env, ...extraEnv }, [
        "--lock-ms",
        "2000",
        "--stalled-ms",
        "500",
        ...args,
      ]);
      cleanups.push(() => w.kill("SIGKILL"));
      return w;
    },
    scheduler(cron) {
      const s = spawnHubwatch("scheduler", { ...env, HUBWATCH_POLL_CRON: cron });
      cleanups.push(() => s.kill("SIGTERM"));
      return s;
    },
  };
}

async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const r = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const keys = await r.keys(`${prefix}:*`);
    if (keys.length) await r.del(...keys);
  } finally {
    r.disconnect();
  }
}

/** Ticks every `everyMs` (as a scheduler would) until every revision is settled. */
async function tickUntilSettled(run: Run, everyMs = 1500, timeoutMs = 60_000): Promise<void> {
  let last = 0;
  await waitFor(
    "every revision settled",
    async () => {
      if (Date.now() - last > everyMs) {
        last = Date.now();
        await run.tick().catch(() => {}); // Redis may still be coming back
      }
      return allSettled(run);
    },
    timeoutMs,
  );
}

/** Revisions done so far, read on a connection of its own (the test's may have been cut). */
async function doneCountAll(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  c.on("error", () => {});
  await c.connect();
  try {
    const { rows } = await c.query<{ n: number }>(
      "select count(*)::int as n from revisions where status = 'done'",
    );
    return rows[0]!.n;
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * Holds a lock that blocks every write to `revisions` (reads go on). `blocked()` says whether a
 * worker's backend now waits on it inside an explicit transaction (BEGIN earlier than the statement).
 */
async function holdInTransaction(url: string) {
  const doneBefore = await doneCountAll(url);
  const c = new pg.Client({ connectionString: url });
  const gone = new Promise<void>((resolve) => {
    c.on("error", () => resolve());
    c.on("end", () => resolve());
  });
  await c.connect();
  await c.query("begin");
  await c.query("lock table revisions in share row exclusive mode");
  return {
    doneBefore,
    async blocked() {
      await c.query("select pg_stat_clear_snapshot()"); // else the transaction sees its first snapshot only
      const { rows } = await c.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where application_name = 'hubwatch-worker' and wait_event_type = 'Lock' and xact_start < query_start`,
      );
      return rows[0]!.n > 0;
    },
    lost: () => gone,
  };
}

async function doneCount(run: Run, repo: string): Promise<number> {
  return (await revisionsOf(run, repo)).filter((r) => r.status === "done").length;
}

describe("process faults (distributed mode)", () => {
  it("a worker SIGKILLed mid-job: its job is recovered by another worker, every revision processed once", async () => {
    const repos = healthyRepos();
    const expected = await referenceOutcome(repos);
    const db = await freshPgDatabase();
    cleanups.push(() => db.close());
    const run = await distributedRun({ repos, databaseUrl: db.url, redisUrl: inject("redisUrl") });
    // A's first file download hangs for 4 s: the worker is killed while that job is mid-flight.
    run.hub.setFault({ kind: "delay", ms: 4000, times: 1, repo: A, route: "resolve" });
    const first = run.worker();
    await run.tick();
    await waitFor(
      "a job mid-flight",
      async () => run.hub.requestLog.some((e) => e.fault === "delay"),
      30_000,
    );
    expect(await allSettled(run)).toBe(false);
    await first.kill("SIGKILL");
    expect(first.proc.signalCode).toBe("SIGKILL");
    run.worker();
    await tickUntilSettled(run);
    expect(await outcomeOf(run.sql)).toEqual(expected);
    expect(await storeInvariants(run)).toEqual([]);
  });

  it("Redis restarted mid-run (queue lost): the worker reconnects, the next tick re-derives the work from the store", async () => {
    const repos = healthyRepos();
    const expected = await referenceOutcome(repos);
    const redis = await startRedis(await freePort());
    cleanups.push(() => redis.stop());
    const db = await freshPgDatabase();
    cleanups.push(() => db.close());
    const run = await distributedRun({ repos, databaseUrl: db.url, redisUrl: redis.url });
    // Slow file downloads so the restart lands while revisions are still pending.
    run.hub.setFault({ kind: "delay", ms: 300, times: 40, route: "resolve" });
    const worker = run.worker();
    await run.tick();
    await waitFor("a first revision done", async () => (await doneCount(run, A)) >= 1, 30_000);
    expect(await allSettled(run)).toBe(false); // the restart lands mid-run
    await redis.stop();
    await new Promise((r) => setTimeout(r, 700));
    await redis.start();
    await tickUntilSettled(run);
    expect(worker.proc.exitCode).toBeNull(); // the worker survived the outage
    expect(await outcomeOf(run.sql)).toEqual(expected);
    expect(await storeInvariants(run)).toEqual([]);
  });

  it("PostgreSQL restarted 3 times in immediate mode while workers hold clients mid-transaction: workers stay up, end state equals a clean run", async () => {
    const repos = healthyRepos(6);
    const expected = await referenceOutcome(repos);
    const cluster = await startPgCluster(await freePort());
    cleanups.push(() => cluster.stop());
    const workerUrl = `${cluster.url}?application_name=hubwatch-worker`;
    const run = await distributedRun({ repos, databaseUrl: cluster.url, redisUrl: inject("redisUrl") });
    // Slow downloads keep the run going through every restart.
    run.hub.setFault({ kind: "delay", ms: 150, times: 200, route: "resolve" });
    const workers = [1, 2].map(() =>
      run.worker(["--concurrency", "4"], {
        DATABASE_URL: workerUrl,
        HUBWATCH_START_TIMEOUT_S: "60",
        LOG_LEVEL: "info",
      }),
    );
    // Both workers up before the first restart: a restart during start-up (migrations) is a start failure,
    // reported in one line with exit 1 for the restart policy, not what this test is about.
    await waitFor(
      "both workers started",
      async () => workers.every((w) => w.output().includes('"worker started"')),
      90_000,
    );
    await run.tick();
    for (let restart = 1; restart <= 3; restart++) {
      // Writers to `revisions` block on a lock this test holds: workers are then inside open transactions
      // (BEGIN sent, a statement waiting) on checked-out clients, the moment a crash hurts most.
      const held = await holdInTransaction(cluster.url);
      await waitFor(
        `restart ${restart}: a worker blocked inside a transaction`,
        () => held.blocked(),
        60_000,
      );
      await cluster.restart();
      await held.lost();
      await waitFor(
        `restart ${restart}: progress after the restart`,
        async () => (await doneCountAll(cluster.url)) > held.doneBefore,
        120_000,
      ).catch((err) => {
        const state = workers.map((w) => `exit ${w.proc.exitCode ?? w.proc.signalCode ?? "none (running)"}`);
        throw new Error(`${err}\nworkers: ${state.join(", ")}\n${workers[0]!.output().slice(-3000)}`);
      });
    }
    await run.sql.end().catch(() => {});
    run.sql = new pg.Client({ connectionString: cluster.url });
    await run.sql.connect();
    cleanups.push(() => run.sql.end());
    // Jobs that met a restart retry on the real schedule (10 s base, doubling): wait that out.
    await tickUntilSettled(run, 1500, 240_000).catch((err) => {
      throw new Error(
        `${err instanceof Error ? err.message : err}\nworker output:\n${workers[0]!.output().slice(-4000)}`,
      );
    });
    for (const w of workers) {
      expect(w.proc.exitCode, w.output().slice(-3000)).toBeNull();
      expect(w.proc.signalCode).toBeNull();
      expect(w.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    }
    // The workers saw the connections die, and said so in one JSON line each time.
    const lost = workers
      .flatMap((w) => w.output().split("\n"))
      .filter((l) => l.includes('"connection lost"'));
    expect(lost.length).toBeGreaterThanOrEqual(3);
    for (const line of lost) expect(JSON.parse(line)).toMatchObject({ dependency: "postgresql" });
    expect(await outcomeOf(run.sql)).toEqual(expected);
    expect(await storeInvariants(run)).toEqual([]);
  }, 600_000);

  it("the scheduler running twice (two `hubwatch scheduler` processes ticking every second, two workers): every revision fetched and stored once", async () => {
    const repos = healthyRepos();
    const db = await freshPgDatabase();
    cleanups.push(() => db.close());
    const run = await distributedRun({ repos, databaseUrl: db.url, redisUrl: inject("redisUrl") });
    run.worker(["--concurrency", "2"]);
    run.worker(["--concurrency", "2"]);
    run.scheduler("* * * * * *");
    run.scheduler("* * * * * *");
    await waitFor("first revisions done", async () => (await doneCount(run, A)) >= 2, 30_000);
    for (const r of repos) run.hub.addCommit(r.id, lateCommit());
    await waitFor("every revision settled", () => allSettled(run), 60_000);
    await new Promise((r) => setTimeout(r, 2000)); // a few more double ticks with nothing new
    const final = repos.map((r) => ({ ...r, commits: [...r.commits, lateCommit()] }));
    expect(await outcomeOf(run.sql)).toEqual(await referenceOutcome(final));
    expect(await storeInvariants(run)).toEqual([]);
    // Exactly once upstream too: each revision's tree was listed by one worker, once.
    const trees = new Map<string, number>();
    for (const e of run.hub.requestLog.filter((x) => x.route === "tree" && x.status === 200)) {
      const key = e.path.split("?")[0]!;
      trees.set(key, (trees.get(key) ?? 0) + 1);
    }
    expect([...trees.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(trees.size).toBe(repos.length * 5);
  });
});

function lateCommit() {
  return {
    title: "late README",
    date: "2025-06-01T00:00:00Z",
    changes: { "README.md": { kind: "text" as const, text: "# late\n" } },
  };
}
