import { afterEach, describe, expect, it } from "vitest";
import { schema } from "../../src/db/index.ts";
import { type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { freshPgDatabase, type PgTestDatabase } from "../helpers/db.ts";
import { pipelineServices } from "./harness.ts";
import {
  bullRunner,
  exited,
  obliterate,
  redisUrl,
  spawnWorker,
  uniquePrefix,
  waitFor,
  waitUntilDrained,
} from "./queue-helpers.ts";

const REPO = "openai-community/gpt2";
// Short locks so a dead worker's job is found stalled within seconds (defaults: 30 s).
const LOCKS = { lockDurationMs: 1500, stalledIntervalMs: 1000 };
const WORKER_ARGS = ["--concurrency", "1", "--lock-ms", "1500", "--stalled-ms", "1000"];

type Setup = { hub: ReplayHub; db: PgTestDatabase; s: PipelineServices; prefix: string };

// `hubwatch worker` processes: killed mid-job (another worker finishes the job) or stopped with SIGTERM
// (the running job finishes first).
describe("worker processes", () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
  });

  async function setup(): Promise<Setup> {
    const hub = await startReplayHub();
    const db = await freshPgDatabase({ poolSize: 4 });
    cleanup.push(
      () => hub.close(),
      () => db.close(),
    );
    const s = pipelineServices(db.db, hub).services;
    await watchRepo(s, REPO);
    // The first revision's tree listing hangs 5 s: the window in which the worker is stopped.
    hub.setFault({ kind: "delay", times: 1, ms: 5000, route: "tree", repo: REPO });
    return { hub, db, s, prefix: uniquePrefix() };
  }

  /** Starts a worker process and queues a poll; resolves once the worker is inside an advance-repo job. */
  async function workerMidJob({ hub, db, s, prefix }: Setup) {
    const child = spawnWorker(
      { DATABASE_URL: db.url, REDIS_URL: redisUrl(), HUBWATCH_QUEUE_PREFIX: prefix, HF_ENDPOINT: hub.url },
      WORKER_ARGS,
    );
    let output = "";
    child.stderr?.on("data", (d) => (output += d));
    cleanup.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited(child);
    });
    const producer = bullRunner(s, prefix);
    cleanup.push(
      () => producer.close(),
      () => obliterate(producer),
    );
    const hubQueue = producer.queue("hub");
    await waitFor(`worker ready (${output})`, async () => (await hubQueue.getWorkers()).length > 0, 60_000);
    await producer.enqueue("poll-repo", { repo: REPO });
    await waitFor("advance job active", async () =>
      (await hubQueue.getActive()).some((j) => j.name === "advance-repo"),
    );
    await new Promise((r) => setTimeout(r, 500));
    return { child, producer, output: () => output };
  }

  async function treeRequests(hub: ReplayHub, sha: string): Promise<number> {
    return hub.requestLog.filter((r) => r.route === "tree" && r.path.includes(sha)).length;
  }

  it("a worker killed mid-job: its job is found stalled and another worker finishes it", async () => {
    const ctx = await setup();
    const { child, producer } = await workerMidJob(ctx);
    const [active] = (await producer.queue("hub").getActive()).filter((j) => j.name === "advance-repo");
    const sha = (active!.data as { sha: string }).sha;
    child.kill("SIGKILL");
    expect((await exited(child)).signal).toBe("SIGKILL");
    const repo = (await getRepoByName(ctx.s.db, REPO))!;
    const rows = () => ctx.s.db.select().from(schema.revisions);
    expect((await rows()).find((r) => r.sha === sha)?.status).toBe("pending");

    const rescuer = bullRunner(ctx.s, ctx.prefix, LOCKS);
    cleanup.push(() => rescuer.close());
    await rescuer.start();
    await waitUntilDrained(producer, 60_000);

    const revisions = (await rows()).filter((r) => r.repoId === repo.id);
    expect(revisions.map((r) => r.status)).toEqual(ctx.hub.history(REPO).map(() => "done"));
    // The killed worker had asked for the tree; the rescuer asked again and finished the revision.
    await waitFor(
      "the dead worker's request to be logged",
      async () => (await treeRequests(ctx.hub, sha)) >= 2,
      10_000,
    );
    const estimates = await ctx.s.db.select().from(schema.estimates);
    const mine = estimates.filter((e) => revisions.some((r) => r.id === e.revisionId));
    expect(mine).toHaveLength(revisions.length); // one per revision, however many workers touched it
    expect(mine.filter((e) => e.result)).toHaveLength(revisions.length - 1); // the initial commit has no config
  }, 120_000);

  it("SIGTERM: the worker finishes its running job, then exits 0", async () => {
    const ctx = await setup();
    const { child, producer } = await workerMidJob(ctx);
    const [active] = (await producer.queue("hub").getActive()).filter((j) => j.name === "advance-repo");
    const sha = (active!.data as { sha: string }).sha;
    child.kill("SIGTERM");
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    const revision = (await ctx.s.db.select().from(schema.revisions)).find((r) => r.sha === sha);
    expect(revision?.status).toBe("done");
    expect(await treeRequests(ctx.hub, sha)).toBe(1);
  }, 120_000);
});
