import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JobRegistry, jobs } from "../../jobs/index.ts";
import { validateEndpointBadge } from "../../src/core/badge/validate.ts";
import { ESTIMATOR_VERSION } from "../../src/core/estimator/estimate.ts";
import { validateOsvRecord } from "../../src/core/osv/validate.ts";
import { schema } from "../../src/db/index.ts";
import { createInProcessRunner, type InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { realConfig, weights } from "../../src/replay-hub/fixtures/builder.ts";
import { MISSING_REPO_ID, type ReplayHub, startReplayHub } from "../../src/replay-hub/index.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import { markRevisionPending } from "../../src/repositories/revisions.repository.ts";
import { getRevisionBySha } from "../../src/repositories/revisions-read.repository.ts";
import { advanceRepo } from "../../src/services/advance-repo.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import { freshPgliteDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  dumpStore,
  FORCE_PUSH_REPO,
  GATED_REPO,
  pipelineServices,
  requestsDuring,
  watchFixtures,
} from "./harness.ts";

// Embedded mode: PGlite and the in-process runner with the real job registry, against the replay hub.
/** A tick with nothing new: one owner-listing page per owner watched twice or more, one commits page per other repo. */
function idleRoutes(names: string[]): string[] {
  const owners = new Map<string, number>();
  for (const n of names) owners.set(n.split("/")[0]!, (owners.get(n.split("/")[0]!) ?? 0) + 1);
  return [...owners.values()].map((n) => (n >= 2 ? "models" : "commits")).sort();
}

describe("pipeline, embedded (PGlite + in-process runner)", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;
  let watched: string[];

  async function pollAll(): Promise<void> {
    await runner.enqueue("poll-all", {});
    await runner.idle();
  }

  beforeAll(async () => {
    hub = await startReplayHub();
    store = await freshPgliteDatabase();
    s = pipelineServices(store.db, hub).services;
    runner = createInProcessRunner({ jobs, services: s, delayScale: 0.001 });
    await runner.start();
    watched = await watchFixtures(s, hub);
    await pollAll();
  }, 120_000);

  afterAll(async () => {
    await runner?.close();
    await store?.close();
    await hub?.close();
  });

  it("processes every revision: done, failed with a reason, or (gated) pending", async () => {
    expect(runner.failures).toEqual([]);
    const repos = new Map((await s.db.select().from(schema.repos)).map((r) => [r.id, r]));
    const revisions = await s.db.select().from(schema.revisions);
    const byStatus = (name: string) => {
      const rows = revisions.filter((r) => repos.get(r.repoId)?.name === name);
      return {
        done: rows.filter((r) => r.status === "done").length,
        failed: rows.filter((r) => r.status === "failed").length,
      };
    };
    for (const name of hub.repoIds().filter((n) => n !== GATED_REPO)) {
      const { done, failed } = byStatus(name);
      expect(done + failed, name).toBe(hub.history(name).length);
    }
    const failed = revisions.filter((r) => r.status === "failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toMatch(/^bad_config: config\.json: not valid JSON/);
    const status = Object.fromEntries([...repos.values()].map((r) => [r.name, r.status]));
    expect(status[GATED_REPO]).toBe("gated");
    expect(status[MISSING_REPO_ID]).toBe("not_found");
    const kinds = (await s.db.select().from(schema.findings)).map((f) => f.kind).sort();
    expect(kinds).toEqual(["bad_config", "gated", "not_found"]);
  });

  it("opens and closes advisories from upstream changes, every record schema-valid", async () => {
    const advisories = await s.db.select().from(schema.advisories);
    const repos = new Map((await s.db.select().from(schema.repos)).map((r) => [r.id, r.name]));
    const summary = advisories.map((a) => `${repos.get(a.repoId)} ${a.status}`).sort();
    expect(summary).toEqual([
      "BAAI/bge-base-en-v1.5 open", // a Dense module adds 196,864 parameters
      "Qwen/QwQ-32B open", // rendered prompt changed (the generation prompt opens <think>)
      "Qwen/QwQ-32B open", // EOS token: generation also stops at <|im_end|>
      "Qwen/Qwen2.5-7B-Instruct open", // rendered prompt changed (default system prompt)
      "Qwen/Qwen3-0.6B closed", // tied embedding stored twice, then dropped
      "Qwen/Qwen3-0.6B open", // ... and stored twice again
      "Qwen/Qwen3-0.6B open", // EOS token: generation_config.json deleted
      "Qwen/Qwen3-1.7B closed", // 32 layers, reverted to 28
      "Qwen/Qwen3-4B-Instruct-2507 open", // 48 layers: full fine-tune no longer fits
      "hubwatch-diffusers/stable-diffusion-v1-5 open", // the VAE swapped for TAESD: 81,208,800 fewer parameters
      "hubwatch-gguf/Meta-Llama-3.1-8B-Instruct-GGUF open", // re-made quants: Llama 3.1 template, <|eot_id|> EOS
      "hubwatch-peft/Qwen2.5-7B-Instruct-MCQ-LoRA open", // retrained at rank 32: the adapter's count doubles
      "openai-community/gpt2 open", // vocabulary padded
    ]);
    for (const a of advisories) {
      expect(validateOsvRecord(a.record).errors, a.id).toEqual([]);
      expect(a.id).toMatch(/^x_HUBWATCH-\d{4}-\d{4}$/);
    }
    for (const b of await s.db.select().from(schema.badges))
      expect(validateEndpointBadge(b.json).errors).toEqual([]);
  });

  it("tells a template change that alters prompts from one that does not", async () => {
    const changes = await s.db.select().from(schema.changes);
    const templates = changes.filter((c) => c.category === "chat_template" && c.kind === "modified");
    expect(templates.length).toBeGreaterThan(0);
    expect(templates.every((c) => typeof c.promptChanged === "boolean")).toBe(true);
    expect(changes.some((c) => c.category === "tokenizer" && /added token/.test(c.summary))).toBe(true);
    expect(changes.some((c) => c.path === "generation_config.json" && c.kind === "removed")).toBe(true);
  });

  it("a poll with nothing new costs one owner listing per owner watched twice or more, one commits page per other repo", async () => {
    const { requests } = await requestsDuring(hub, pollAll);
    expect(requests.map((r) => r.route).sort()).toEqual(idleRoutes(watched));
    expect(requests.filter((r) => r.route === "models").length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThan(watched.length);
  });

  it("a new revision fetches only the changed files, and weights only by header range reads", async () => {
    const { config } = realConfig("openai-community__gpt2");
    const grown = { ...config, vocab_size: 50432 };
    hub.addCommit("openai-community/gpt2", {
      title: "Grow vocabulary",
      date: "2024-05-01T10:00:00Z",
      changes: { "config.json": { kind: "text", text: JSON.stringify(grown, null, 2) }, ...weights(grown) },
    });
    const { requests } = await requestsDuring(hub, pollAll);
    const gpt2 = requests.filter((r) => r.repo === "openai-community/gpt2");
    const files = gpt2.filter((r) => r.route === "resolve" || r.route === "raw");
    const paths = new Set(
      files.map((r) => decodeURIComponent(r.path.split("?")[0]!.split("/").slice(5).join("/"))),
    );
    expect([...paths].sort()).toEqual(["config.json", "model.safetensors"]);
    for (const r of files.filter((f) => f.path.includes(".safetensors"))) {
      expect(r.range, r.path).toMatch(/^bytes=\d+-\d+$/);
      expect(r.bytes).toBeLessThan(1_000_000);
    }
    expect(gpt2.filter((r) => r.route === "commits")).toHaveLength(1);
    expect(gpt2.filter((r) => r.route === "tree")).toHaveLength(1);
    expect(requests.length - gpt2.length).toBe(idleRoutes(watched).length - 1);
  });

  it("records a force-push, flags the revisions gone upstream, and processes the new head", async () => {
    const head = hub.forcePush(FORCE_PUSH_REPO);
    await pollAll();
    expect(runner.failures).toEqual([]);
    const repo = (await getRepoByName(s.db, FORCE_PUSH_REPO))!;
    expect(repo.lastSeenSha).toBe(head);
    expect((await getRevisionBySha(s.db, repo.id, head))?.status).toBe("done");
    const revisions = (await s.db.select().from(schema.revisions)).filter((r) => r.repoId === repo.id);
    expect(revisions.filter((r) => r.forcePushedAway)).toHaveLength(1);
    const findings = (await s.db.select().from(schema.findings)).filter((f) => f.repoId === repo.id);
    expect(findings.map((f) => f.kind)).toEqual(["force_push"]);
  });

  it("re-running processed revisions leaves one of everything", async () => {
    const before = await dumpStore(s.db);
    const rows = await s.db.select().from(schema.revisions);
    const repos = new Map((await s.db.select().from(schema.repos)).map((r) => [r.id, r.name]));
    for (const rev of rows.filter((r) => r.status !== "pending" && !r.forcePushedAway)) {
      await markRevisionPending(s.db, rev.id);
    }
    // Oldest first per repo, as the runner would; twice at once on each repo for good measure.
    for (const name of new Set(rows.map((r) => repos.get(r.repoId)!))) {
      for (let i = 0; i < 20; i++) {
        const [a, b] = await Promise.all([advanceRepo(s, name), advanceRepo(s, name)]);
        if (!a.nextPendingSha && !b.nextPendingSha) break;
      }
    }
    const after = await dumpStore(s.db);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
  }, 60_000);

  it("an estimator upgrade re-estimates stored revisions, records drift, and leaves advisories alone", async () => {
    const advisoriesBefore = await s.db.select().from(schema.advisories);
    // Pretend every stored estimate came from an older estimator that counted 1000 parameters fewer.
    await s.db.execute(sql`update estimates set estimator_version = '0.0.1-old',
      result = jsonb_set(result, '{params,total}', to_jsonb((result->'params'->>'total')::bigint - 1000))
      where result is not null`);
    const since = Date.now();
    // The next tick finds the stale estimates and queues re-estimate jobs itself.
    await runner.enqueue("poll-all", {});
    await runner.idle();
    expect(runner.failures).toEqual([]);
    // By arrival time: a response to the previous test may be logged late (the log is written on close).
    await new Promise((r) => setTimeout(r, 50));
    const during = hub.requestLog.filter((r) => r.at >= since);
    expect(during.map((r) => r.route).sort()).toEqual(idleRoutes(watched)); // re-estimates read the store
    const estimates = await s.db.select().from(schema.estimates);
    const current = estimates.filter((e) => e.estimatorVersion === ESTIMATOR_VERSION && e.result);
    // Revisions gone upstream after a force-push are history no more: not re-estimated.
    const live = new Set(
      (await s.db.select().from(schema.revisions)).filter((r) => !r.forcePushedAway).map((r) => r.id),
    );
    const old = estimates.filter((e) => e.estimatorVersion === "0.0.1-old" && live.has(e.revisionId));
    expect(current.length).toBe(old.length);
    const drift = await s.db.select().from(schema.estimatorDrift);
    expect(drift).toHaveLength(old.length);
    expect(drift.every((d) => d.fromVersion === "0.0.1-old" && d.toVersion === ESTIMATOR_VERSION)).toBe(true);
    expect(await s.db.select().from(schema.advisories)).toEqual(advisoriesBefore);
  });
});
