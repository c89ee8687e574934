/**
 * Jobs that failed for good are kept in a bounded history, in both modes: the embedded runner's in
 * memory, distributed mode's in Redis. A real job fails for good here: relay-webhooks (one attempt) on a
 * store that cannot be reached. The history shows in `GET /api/failed` and `hubwatch failed ls`, counts
 * in the queue gauge of `/metrics` (with the embedded runner's waiting and delayed jobs), and
 * `POST /api/failed/retry` queues the job again.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { Redis } from "ioredis";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../../src/config/env.ts";
import * as schema from "../../src/db/schema/index.ts";
import type { Db } from "../../src/db/types.ts";
import { createApp } from "../../src/http/app.ts";
import { servicesFor } from "../../src/main/boot.ts";
import { distributedRunner, embeddedRunner } from "../../src/main/runners.ts";
import { type FailedJobEntry, failedJobs } from "../../src/ops/failed-jobs.ts";
import { memoryFailedJobs } from "../../src/ops/memory-failed-jobs.ts";
import { createMetrics } from "../../src/ops/metrics.ts";
import { waitFor } from "../faults/harness.ts";
import { freePort } from "../faults/processes.ts";
import { freshPgDatabase } from "../helpers/db.ts";

const BIN = new URL("../../bin/hubwatch.js", import.meta.url).pathname;
const LOCAL = `hwl_${"t".repeat(40)}`;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

/** A store nobody listens on: every query is refused. */
async function unreachableDb(): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/none`,
    max: 1,
  });
  pool.on("error", () => {});
  cleanups.push(() => pool.end());
  return drizzle({ client: pool, schema }) as unknown as Db;
}

/** Prometheus text -> "name{labels}" -> value. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const entry = (n: number): FailedJobEntry => ({
  queue: "hub",
  name: "poll-repo",
  jobId: `poll__o--r${n}`,
  payload: { repo: `o/r${n}` },
  error: `e${n}`,
  attempts: 5,
  failedAt: new Date(n * 1000).toISOString(),
});

describe("failed-job history", () => {
  it("embedded: kept in memory, bounded, listed by /api/failed, counted by /metrics, retried", async () => {
    const db = await freshPgDatabase({ poolSize: 2 });
    cleanups.push(() => db.close());
    const config = loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: "", REDIS_URL: "" });
    const metrics = createMetrics();
    const { services } = servicesFor(config, await unreachableDb(), { metrics });
    const runner = embeddedRunner(services, { metrics });
    cleanups.push(() => runner.close());
    await runner.start();
    await runner.enqueue("relay-webhooks", {});
    await runner.idle();
    const [failed, ...more] = await runner.failedJobs.list();
    expect(more).toEqual([]);
    expect(failed).toMatchObject({ queue: "maintenance", name: "relay-webhooks", attempts: 1 });
    expect(failed?.error).toMatch(/ECONNREFUSED|connect/);

    // A poll an hour out: delayed, in the same gauge.
    await runner.enqueue("poll-all", {}, { delayMs: 3_600_000 });
    const app = await createApp({
      db: db.db,
      rateLimit: false,
      enqueue: runner.enqueue,
      failedJobs: runner.failedJobs,
      metrics: metrics.registry,
      localAdminToken: LOCAL,
    });
    cleanups.push(() => app.close());
    const auth = { authorization: `Bearer ${LOCAL}` };
    const listed = (await app.inject({ method: "GET", url: "/api/failed", headers: auth })).json();
    expect(listed).toEqual({ revisions: [], jobs: [failed] });
    const scraped = parse((await app.inject({ method: "GET", url: "/metrics" })).body);
    expect(scraped.get('hubwatch_queue_jobs{queue="maintenance",state="failed"}')).toBe(1);
    expect(scraped.get('hubwatch_queue_jobs{queue="hub",state="delayed"}')).toBe(1);
    expect(scraped.get('hubwatch_queue_jobs{queue="hub",state="waiting"}')).toBe(0);
    expect(scraped.get('hubwatch_queue_jobs{queue="webhooks",state="active"}')).toBe(0);

    const retry = await app.inject({
      method: "POST",
      url: "/api/failed/retry",
      headers: auth,
      payload: { all: true },
    });
    expect(retry.json()).toEqual({ revisions: [], jobs: 1 });
    await waitFor(
      "the retried job ran (and failed again)",
      async () => (await runner.failedJobs.list()).length === 1,
      10_000,
    );
    const [again] = await runner.failedJobs.list();
    expect(again?.failedAt).not.toBe(undefined);

    const bounded = memoryFailedJobs(() => ({}), 3);
    for (const n of [1, 2, 3, 4, 5]) await bounded.record(entry(n));
    expect((await bounded.list()).map((e) => e.jobId)).toEqual(["poll__o--r5", "poll__o--r4", "poll__o--r3"]);
  }, 60_000);

  it("distributed: kept in Redis, bounded, shown by `hubwatch failed ls`", async () => {
    const db = await freshPgDatabase({ poolSize: 2 });
    cleanups.push(() => db.close());
    const redisUrl = inject("redisUrl");
    const prefix = `failed-${randomBytes(4).toString("hex")}`;
    cleanups.push(async () => {
      const r = new Redis(redisUrl);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    });
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      HUBWATCH_QUEUE_PREFIX: prefix,
      LOG_LEVEL: "silent",
    };
    const config = loadConfig(env);
    const { services } = servicesFor(config, await unreachableDb());
    const runner = distributedRunner(config, services);
    cleanups.push(() => runner.close());
    await runner.start();
    await runner.enqueue("relay-webhooks", {});
    await waitFor(
      "the job is in the history",
      async () => (await runner.failedJobs.list()).length === 1,
      20_000,
    );
    const [failed] = await runner.failedJobs.list();
    expect(failed).toMatchObject({
      queue: "maintenance",
      name: "relay-webhooks",
      jobId: "relay-webhooks",
      attempts: 1,
    });

    const ls = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [BIN, "failed", "ls"], { env: { ...process.env, ...env } }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const lines = ls.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]?.split("\t").slice(0, 3)).toEqual(["job", "relay-webhooks", "relay-webhooks"]);
    expect(lines[0]).toMatch(/after 1 attempt\(s\): .*(ECONNREFUSED|connect)/);

    const bounded = failedJobs(redisUrl, `${prefix}-bounded`, 3);
    cleanups.push(() => bounded.close());
    for (const n of [1, 2, 3, 4, 5]) await bounded.record(entry(n));
    expect((await bounded.list()).map((e) => e.jobId)).toEqual(["poll__o--r5", "poll__o--r4", "poll__o--r3"]);
    expect((await bounded.counts(["hub"])).hub).toMatchObject({ failed: 3 });
  }, 60_000);
});
