/**
 * `/metrics` scraped from a real `hubwatch worker` (HUBWATCH_HEALTH_PORT) during and after a run against
 * the replay hub: job timings, Hub requests by endpoint and status with a 429 and the budget it
 * announced, the store's revisions (pending, oldest pending age, done), advisories, webhook deliveries
 * and queue depth. Each value is checked against what the run did, not just for presence.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { jobs } from "../../jobs/index.ts";
import { createBullmqRunner } from "../../src/queue/bullmq-runner.ts";
import { startReplayHub } from "../../src/replay-hub/index.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { allSettled, healthyRepos, waitFor } from "../faults/harness.ts";
import { freePort, spawnHubwatch } from "../faults/processes.ts";
import { freshPgDatabase } from "../helpers/db.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

/** Prometheus text -> "name{labels}" -> value (labels as written, in the order prom-client writes them). */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe("metrics", () => {
  it("a worker's /metrics during and after a run: jobs, Hub requests and 429s, revisions, queues, advisories, deliveries", async () => {
    const repos = healthyRepos(2);
    const hub = await startReplayHub({ repos });
    cleanups.push(() => hub.close());
    const db = await freshPgDatabase({ poolSize: 2 });
    cleanups.push(() => db.close());
    for (const r of repos) await watchRepo({ db: db.db }, r.id);
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    cleanups.push(() => sql.end());
    const prefix = `metrics-${randomBytes(4).toString("hex")}`;
    const redisUrl = inject("redisUrl");
    cleanups.push(async () => {
      const r = new Redis(redisUrl);
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    });
    const port = await freePort();
    hub.setFault({ kind: "rate-limit", times: 1, retryAfterS: 1, route: "commits" });
    hub.setFault({ kind: "delay", ms: 400, times: 6, route: "resolve" });
    const worker = spawnHubwatch(
      "worker",
      {
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl,
        HUBWATCH_QUEUE_PREFIX: prefix,
        HF_ENDPOINT: hub.url,
        HUBWATCH_HEALTH_PORT: String(port),
      },
      ["--concurrency", "1"],
    );
    cleanups.push(() => worker.kill("SIGKILL"));
    const scrape = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return parse(await res.text());
    };
    await waitFor("worker metrics served", async () => (await scrape().catch(() => null)) !== null, 60_000);
    const producer = createBullmqRunner({ jobs, services: {}, redisUrl, prefix });
    cleanups.push(() => producer.close());
    await producer.enqueue("poll-all", {});

    // During the run: revisions are pending, the oldest has an age, the hub queue has work.
    let during: Map<string, number> | undefined;
    await waitFor(
      "a scrape with revisions both done and pending",
      async () => {
        const m = await scrape();
        if (
          (m.get('hubwatch_revisions{status="done"}') ?? 0) < 1 ||
          (m.get("hubwatch_revisions_pending") ?? 0) < 1
        )
          return false;
        during = m;
        return true;
      },
      60_000,
    );
    expect(during!.get("hubwatch_oldest_pending_revision_age_seconds")).toBeGreaterThan(0);
    expect(during!.has('hubwatch_queue_jobs{queue="hub",state="waiting"}')).toBe(true);

    await waitFor("every revision settled", () => allSettled({ sql, hub }), 90_000);
    const m = await scrape();
    const total = repos.reduce((n, r) => n + r.commits.length, 0);
    expect(m.get('hubwatch_revisions{status="done"}')).toBe(total);
    expect(m.get("hubwatch_revisions_pending")).toBe(0);
    expect(m.get("hubwatch_oldest_pending_revision_age_seconds")).toBe(0);
    expect(m.get('hubwatch_job_duration_seconds_count{job="advance-repo",outcome="ok"}')).toBe(total);
    expect(m.get('hubwatch_job_duration_seconds_count{job="poll-repo",outcome="ok"}')).toBeGreaterThanOrEqual(
      2,
    );
    // The 429 on the commits list: counted once; the budget gauge set from RateLimit headers.
    expect(m.get('hubwatch_hub_requests_total{endpoint="commits",status="429"}')).toBe(1);
    expect(m.get("hubwatch_hub_rate_limited_total")).toBe(1);
    // The replay hub announces its budget on every answer: the gauge holds the last one seen.
    expect(m.get("hubwatch_hub_budget_remaining")).toBeGreaterThanOrEqual(0);
    const resolved = hub.requestLog.filter((e) => e.route === "resolve" && e.status === 200).length;
    expect(m.get('hubwatch_hub_requests_total{endpoint="resolve",status="200"}')).toBe(resolved);
    expect(m.get('hubwatch_queue_jobs{queue="hub",state="failed"}')).toBe(0);
    const advisories = await sql.query<{ n: number }>(
      "select count(*)::int as n from advisories where status = 'open'",
    );
    expect(m.get('hubwatch_advisories{status="open"}')).toBe(advisories.rows[0]!.n);
    expect(m.get('hubwatch_webhook_deliveries{outcome="delivered"}')).toBe(0);
    expect(m.get("hubwatch_webhook_receiver_lag_seconds")).toBe(0);
  }, 180_000);
});
