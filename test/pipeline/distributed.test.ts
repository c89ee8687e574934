import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { validateOsvRecord } from "../../src/core/osv/validate.ts";
import { createDatabase } from "../../src/db/client.ts";
import { schema } from "../../src/db/index.ts";
import type { BullmqRunner } from "../../src/queue/bullmq-runner.ts";
import { createInProcessRunner } from "../../src/queue/in-process-runner.ts";
import { type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { markRevisionPending } from "../../src/repositories/revisions.repository.ts";
import { advanceRepo } from "../../src/services/advance-repo.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgDatabase, freshPgliteDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { dumpStore, GATED_REPO, pipelineServices, watchFixtures } from "./harness.ts";
import { bullRunner, obliterate, uniquePrefix, waitUntilDrained } from "./queue-helpers.ts";

// Distributed mode: real PostgreSQL and Redis, BullMQ workers, the same handlers as embedded mode.
describe("pipeline, distributed (PostgreSQL + BullMQ)", () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  afterAll(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function embeddedReference(): Promise<Record<string, string[]>> {
    const hub = await startReplayHub();
    const store = await freshPgliteDatabase();
    const s = pipelineServices(store.db, hub).services;
    const runner = createInProcessRunner({ jobs, services: s, delayScale: 0.001 });
    await runner.start();
    await watchFixtures(s, hub);
    await runner.enqueue("poll-all", {});
    await runner.idle();
    const dump = await dumpStore(s.db);
    await runner.close();
    await store.close();
    await hub.close();
    return dump;
  }

  it("two workers on one queue process every revision once, ending in the store embedded mode builds", async () => {
    const hub: ReplayHub = await startReplayHub();
    const db: PgTestDatabase = await freshPgDatabase({ poolSize: 4 });
    cleanup.push(
      () => hub.close(),
      () => db.close(),
    );
    const prefix = uniquePrefix();
    // Two workers as two processes would have them: each its own pool and Hub client.
    const done: Record<string, number> = { a: 0, b: 0 };
    const workers: BullmqRunner<JobRegistry>[] = [];
    for (const id of ["a", "b"] as const) {
      const own = await createDatabase({ databaseUrl: db.url, poolSize: 4 });
      const runner = bullRunner(pipelineServices(own.db, hub).services, prefix, {
        concurrency: 1,
        onCompleted: () => {
          done[id] = (done[id] ?? 0) + 1;
        },
      });
      cleanup.push(() => own.close());
      cleanup.push(() => runner.close());
      workers.push(runner);
    }
    const producer = bullRunner(pipelineServices(db.db, hub).services, prefix);
    cleanup.push(
      () => producer.close(),
      () => obliterate(producer),
    );
    const s = pipelineServices(db.db, hub).services;
    await watchFixtures(s, hub);
    await Promise.all(workers.map((w) => w.start()));
    await producer.enqueue("poll-all", {});
    await waitUntilDrained(producer);

    // Each processed revision had its tree listed once: no job ran twice.
    const trees = hub.requestLog
      .filter((r) => r.route === "tree" && r.status === 200)
      .map((r) => r.path.split("?")[0]);
    expect(new Set(trees).size).toBe(trees.length);
    const revisions = await s.db.select().from(schema.revisions);
    const settled = revisions.filter((r) => r.status !== "pending");
    expect(trees.length).toBe(settled.length + 1); // + the gated repo's first locked revision, left pending
    expect(done.a).toBeGreaterThan(0);
    expect(done.b).toBeGreaterThan(0);

    const advisories = await s.db.select().from(schema.advisories);
    expect(advisories.map((a) => a.id).sort()).toEqual(
      advisories.map((_, i) => `x_HUBWATCH-${new Date().getUTCFullYear()}-${String(i + 1).padStart(4, "0")}`),
    );
    for (const a of advisories) expect(validateOsvRecord(a.record).errors).toEqual([]);

    const reference = await embeddedReference();
    const dump = await dumpStore(s.db);
    for (const table of Object.keys(reference)) expect(dump[table], table).toEqual(reference[table]);
    expect(revisions.filter((r) => r.status === "pending").length).toBe(hub.history(GATED_REPO).length - 1);

    // The same revisions processed again, by two workers at once on real PostgreSQL: same store.
    for (const rev of revisions.filter((r) => r.status !== "pending"))
      await markRevisionPending(s.db, rev.id);
    const other = await createDatabase({ databaseUrl: db.url, poolSize: 4 });
    cleanup.push(() => other.close());
    const s2 = pipelineServices(other.db, hub).services;
    for (const repo of await s.db.select().from(schema.repos)) {
      for (let i = 0; i < 20; i++) {
        const [a, b] = await Promise.all([advanceRepo(s, repo.name), advanceRepo(s2, repo.name)]);
        if (!a.nextPendingSha && !b.nextPendingSha) break;
      }
    }
    const again = await dumpStore(s.db);
    for (const table of Object.keys(reference))
      expect(again[table], `${table} after reprocessing`).toEqual(reference[table]);
  }, 120_000);
});

describe("BullMQ runner error handling", () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
  });

  it("a Hub 429 pauses the queue for Retry-After without using attempts; a bad payload is not retried", async () => {
    const hub = await startReplayHub();
    const db = await freshPgDatabase({ poolSize: 4 });
    cleanup.push(
      () => hub.close(),
      () => db.close(),
    );
    const s = pipelineServices(db.db, hub).services;
    const prefix = uniquePrefix();
    const failed: { name: string; final: boolean; error: string }[] = [];
    const worker = bullRunner(s, prefix, { onFailed: (f) => void failed.push(f) });
    cleanup.push(
      () => worker.close(),
      () => obliterate(worker),
    );
    await watchRepo(s, "openai-community/gpt2");
    // More 429s in a row than the job has attempts (5): only a rate limit that spends none gets through.
    hub.setFault({ kind: "rate-limit", times: 8, retryAfterS: 0.2, route: "commits" });
    await worker.start();
    const started = Date.now();
    await worker.enqueue("poll-repo", { repo: "openai-community/gpt2" });
    await worker.queue("hub").add("poll-repo", { repo: "not a repo" }, { attempts: 5 });
    await waitUntilDrained(worker, 60_000);
    const statuses = hub.requestLog.filter((r) => r.route === "commits").map((r) => r.status);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(8);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const revisions = await s.db.select().from(schema.revisions);
    expect(revisions.every((r) => r.status === "done")).toBe(true);
    expect(revisions).toHaveLength(hub.history("openai-community/gpt2").length);
    expect(failed.filter((f) => f.name === "poll-repo" && !f.error.includes("bad payload"))).toEqual([]);
    expect(failed.filter((f) => f.error.includes("bad payload"))).toEqual([
      expect.objectContaining({ final: true }),
    ]);
  }, 90_000);
});
