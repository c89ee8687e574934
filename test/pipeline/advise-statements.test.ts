import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/db/index.ts";
import { type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import {
  countingDatabase,
  processCounting,
  type RevisionCounts,
  type StatementCounter,
} from "../helpers/statement-counter.ts";
import { pipelineServices } from "./harness.ts";

// The advise step's SQL statements per revision (transaction control apart), counted on node-postgres
// against PostgreSQL, through the real pipeline services on fixture repos that open and close advisories
// (estimate and behaviour kinds), with a webhook subscription that wants every event so deliveries are
// recorded too. Opening an advisory allocates its id (a locked counter row) in a statement of its own.
const REPOS = ["Qwen/Qwen3-1.7B", "Qwen/QwQ-32B", "Qwen/Qwen3-0.6B"];
/** Statements of ours (transaction control apart) one advise may send. */
const ADVISE_BUDGET = 8;

describe("advise statements per revision (PostgreSQL)", () => {
  let hub: ReplayHub;
  let store: PgTestDatabase;
  let counter: StatementCounter;
  let s: PipelineServices;
  const counts: RevisionCounts[] = [];

  beforeAll(async () => {
    hub = await startReplayHub();
    store = await freshPgDatabase();
    counter = countingDatabase(store.url);
    s = pipelineServices(counter.db, hub).services;
    await createSubscription({ db: s.db, allowPrivateTargets: true }, { url: "http://127.0.0.1:9/hook" });
    for (const name of REPOS) {
      await watchRepo(s, name);
      counts.push(...(await processCounting(s, counter, name)));
    }
  }, 120_000);

  afterAll(async () => {
    await counter?.close();
    await store?.close();
    await hub?.close();
  });

  it("the fixtures exercise advisories and deliveries", async () => {
    const advisories = await s.db.select().from(schema.advisories);
    expect(advisories.some((a) => a.status === "closed")).toBe(true);
    expect(advisories.some((a) => a.status === "open")).toBe(true);
    expect((await s.db.select().from(schema.webhookDeliveries)).length).toBeGreaterThan(counts.length);
  });

  it(`advise sends at most ${ADVISE_BUDGET} statements per revision, plus the id of an advisory it opens`, () => {
    const allocations = (sql: string[]) =>
      sql.filter((q) => /^insert into "advisory_counters"/.test(q)).length;
    const over = counts
      .map((c) => ({
        sha: c.sha,
        statements: c.steps.advise.statements,
        opened: allocations(c.steps.advise.sql),
      }))
      .filter((c) => c.statements - c.opened > ADVISE_BUDGET);
    expect(over).toEqual([]);
    expect(counts.some((c) => allocations(c.steps.advise.sql) > 0)).toBe(true);
  });
});
