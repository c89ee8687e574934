import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import type { PeftEstimate } from "../../src/core/estimator/peft-estimate.ts";
import { schema } from "../../src/db/index.ts";
import { createApp } from "../../src/http/app.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { qwen25instruct } from "../../src/replay-hub/fixtures/repos-more.ts";
import { PEFT_BASE, PEFT_REPO, peftRepo } from "../../src/replay-hub/fixtures/repos-peft.ts";
import { type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { listAdvisoriesByRepo } from "../../src/repositories/advisories-read.repository.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { watchRepo } from "../../src/services/watch-repos.ts";
import { createSubscription } from "../../src/services/webhooks/subscriptions.ts";
import { freshPgliteDatabase, type TestDatabase } from "../helpers/db.ts";
import { closeProcessed, pipelineServices, revisionRows } from "./harness.ts";

// Qwen2.5-7B r=16 on q, k, v, o, gate, up, down: 28 x 16 x (2 x 7168 + 2 x 4096 + 3 x 22528).
const R16 = 40_370_176;

// A PEFT adapter and its base through the pipeline: adapter_config.json and the adapter header snapshotted
// and diffed, the adapter counted from its header and cross-checked on the base's layers, base + adapter
// memory and fit, an advisory when the rank doubles, the page, and a base revision telling the adapter's
// subscribers.
describe("a PEFT adapter repo through the pipeline", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;
  let adapterOnly: number;

  beforeAll(async () => {
    hub = await startReplayHub({ repos: [qwen25instruct(), peftRepo()] });
    store = await freshPgliteDatabase();
    s = pipelineServices(store.db, hub).services;
    runner = createInProcessRunner({ jobs, services: s, delayScale: 0.001 });
    await runner.start();
    await watchRepo(s, PEFT_REPO);
    await watchRepo(s, PEFT_BASE);
    const sub = await createSubscription(
      { db: s.db, allowPrivateTargets: true },
      { url: "http://127.0.0.1:9/adapter", repoFilter: PEFT_REPO },
    );
    adapterOnly = sub.id;
    await runner.enqueue("poll-all", {});
    await runner.idle();
  }, 180_000);

  afterAll(() => closeProcessed({ runner, store, hub }));

  async function rows(name: string, i: number) {
    const { repo, sha, status, changes, estimate } = await revisionRows(s, name, i);
    return { repo, sha, status, changes, e: estimate as PeftEstimate };
  }

  async function events(type: string) {
    return s.db
      .select()
      .from(schema.webhookEvents)
      .where(eq(schema.webhookEvents.type, type as "base.changed"));
  }

  it("the upload: adapter files tracked, header count 40,370,176 agreeing with the config on the base's layers", async () => {
    expect(runner.failures).toEqual([]);
    const up = await rows(PEFT_REPO, 1);
    const baseHead = await rows(PEFT_BASE, 3);
    expect(up.status).toBe("done");
    expect(up.changes.map((c) => c.slice(0, 3))).toEqual([
      ["*.safetensors", "weights", "added"],
      ["adapter_config.json", "config", "added"],
    ]);
    expect(up.e.family).toBe("peft");
    expect(up.e.params.total).toBe(R16);
    expect(up.e.peft).toMatchObject({
      base_model: PEFT_BASE,
      base: { repo: PEFT_BASE, sha: baseHead.sha },
      r: 16,
      ranks: [16],
      params_header: R16,
      params_config: R16,
      modules_header: 196,
      cross_check: "agrees",
    });
    // Serving: the base's weights (bf16, from its headers) and the fp32 adapter.
    const base = baseHead.e;
    expect(up.e.memory.serve.bytes).toBe(base.weights.bytes + 4 * R16);
    // Training the adapter: the frozen base, 1.2 x 16 bytes per adapter parameter, the base's activations.
    expect(up.e.memory.lora.breakdown).toEqual({
      base_weights: base.memory.lora.breakdown.base_weights,
      adapters: Math.round(19.2 * R16),
      activations: base.memory.lora.breakdown.activations,
      logits: base.memory.lora.breakdown.logits,
    });
    expect(up.e.fit.filter((f) => f.mode === "serve").map((f) => f.verdict)).toEqual([
      "does_not_fit",
      "borderline",
      "fits",
      "fits",
      "fits",
    ]);
  });

  it("rank 16 -> 32: a config change, the header's count doubles, an advisory, the page", async () => {
    const up = await rows(PEFT_REPO, 1);
    const r32 = await rows(PEFT_REPO, 2);
    expect(r32.changes).toContainEqual([
      "adapter_config.json",
      "config",
      "modified",
      "$.lora_alpha 32 -> 64; $.r 16 -> 32",
    ]);
    expect(r32.e.params.total).toBe(2 * R16);
    expect(r32.e.peft.cross_check).toBe("agrees");
    const advisories = await listAdvisoriesByRepo(s.db, r32.repo.id);
    expect(advisories.map((a) => a.introducedSha)).toEqual([r32.sha]);
    expect(up.e.memory.serve.bytes + 4 * R16).toBe(r32.e.memory.serve.bytes);
    const app = await createApp({ db: s.db });
    try {
      const page = await app.inject({ method: "GET", url: `/repos/${PEFT_REPO}/revisions/${r32.sha}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("adapter_config.json");
      expect(page.body).toContain("$.r 16 -&gt; 32");
      // The repo list shows the adapter's base, and that it is watched.
      const list = (await app.inject({ method: "GET", url: "/api/repos" })).json() as {
        repos: { name: string; base: unknown }[];
      };
      expect(list.repos.find((r) => r.name === PEFT_REPO)?.base).toEqual({ repo: PEFT_BASE, watched: true });
      expect(list.repos.find((r) => r.name === PEFT_BASE)?.base).toBeNull();
    } finally {
      await app.close();
    }
  });

  it("a new base revision tells the adapter's subscribers: base.changed with both repos and shas", async () => {
    // Processing the base's history (all older than the adapter) told the adapter nothing.
    expect(await events("base.changed")).toEqual([]);
    const res = await fetch(`${hub.url}/${PEFT_BASE}/resolve/main/config.json`);
    const config = (await res.json()) as Record<string, unknown>;
    hub.addCommit(PEFT_BASE, {
      title: "Extend the context to 32768 positions",
      date: "2025-03-01T10:00:00Z",
      changes: {
        "config.json": {
          kind: "text",
          text: `${JSON.stringify({ ...config, max_position_embeddings: 32768 }, null, 2)}\n`,
        },
      },
    });
    await runner.enqueue("poll-all", {});
    await runner.idle();
    expect(runner.failures).toEqual([]);
    const baseNew = await rows(PEFT_BASE, 4);
    const adapterHead = await rows(PEFT_REPO, 2);
    const got = await events("base.changed");
    expect(got).toHaveLength(1);
    const data = (got[0]!.payload as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({
      adapter: PEFT_REPO,
      adapter_sha: adapterHead.sha,
      base: PEFT_BASE,
      base_sha: baseNew.sha,
    });
    expect(String(data.summary)).toMatch(/^your adapter's base changed: Qwen\/Qwen2.5-7B-Instruct@/);
    const deliveries = await s.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.eventId, got[0]!.id));
    expect(deliveries.map((d) => d.subscriptionId)).toEqual([adapterOnly]);
  });

  it("a force-push withdrawing the base's advisory tells the adapter's subscribers too", async () => {
    const base = (await getRepoByName(s.db, PEFT_BASE))!;
    const [advisory] = await listAdvisoriesByRepo(s.db, base.id);
    expect(advisory?.status).toBe("open");
    // Drop the three newest base commits (the advisory's introducing revision among them).
    hub.forcePush(PEFT_BASE, {
      dropLast: 3,
      commits: [{ title: "Rewrite history", date: "2025-03-02T10:00:00Z", changes: {} }],
    });
    await runner.enqueue("poll-all", {});
    await runner.idle();
    const got = (await events("base.changed")).map(
      (e) => (e.payload as { data: Record<string, unknown> }).data,
    );
    expect(got).toHaveLength(2);
    expect(got).toContainEqual(
      expect.objectContaining({
        adapter: PEFT_REPO,
        base: PEFT_BASE,
        base_sha: advisory!.introducedSha,
        summary: `your adapter's base changed: ${PEFT_BASE} advisory ${advisory!.id} withdrawn (force-push)`,
      }),
    );
  });
});
