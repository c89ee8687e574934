import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRegistry } from "../../jobs/index.ts";
import type { SentenceTransformersJson } from "../../src/core/estimator/sentence-transformers.ts";
import { createApp } from "../../src/http/app.ts";
import type { InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { ST_REPO, sentenceTransformersRepo } from "../../src/replay-hub/fixtures/repos-kinds.ts";
import type { ReplayHub } from "../../src/replay-hub/index.ts";
import { listAdvisoriesByRepo } from "../../src/repositories/advisories-read.repository.ts";
import { listBehaviorChangesByRevision } from "../../src/repositories/behavior-changes.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { closeProcessed, processedRepo, revisionRows } from "./harness.ts";

// A sentence-transformers repo through the pipeline: module files snapshotted and diffed, the estimate
// counting every module, pooling and dimension changes as behaviour changes, the page.
describe("a sentence-transformers repo through the pipeline", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;

  beforeAll(async () => {
    ({ hub, store, s, runner } = await processedRepo(sentenceTransformersRepo(), ST_REPO));
  }, 120_000);

  afterAll(() => closeProcessed({ runner, store, hub }));

  async function rows(i: number) {
    const { repo, revision, sha, status, changes, estimate } = await revisionRows(s, ST_REPO, i);
    const behaviour = (await listBehaviorChangesByRevision(s.db, revision.id)).map((b) => [
      b.kind,
      b.summary,
    ]);
    const e = estimate as {
      params: { total: number };
      sentence_transformers: SentenceTransformersJson;
    };
    return { repo, sha, status, changes, behaviour, e };
  }

  it("the upload: module files tracked, the estimate carries pooling, dimension and max length", async () => {
    expect(runner.failures).toEqual([]);
    const up = await rows(1);
    expect(up.status).toBe("done");
    expect(up.changes.map((c) => c[0])).toEqual(
      expect.arrayContaining([
        "modules.json",
        "1_Pooling/config.json",
        "sentence_bert_config.json",
        "config.json",
      ]),
    );
    expect(up.e.sentence_transformers).toMatchObject({
      pooling: "cls",
      normalize: true,
      dimension: 768,
      max_seq_length: 512,
      dense_params: 0,
    });
    // The BertModel reader's count for bert-base with its pooler (the estimate of the config alone).
    expect(up.e.params.total).toBe(109_482_240);
  });

  it("a pooling switch and a Dense projection are embedding behaviour changes; Dense parameters count", async () => {
    const pool = await rows(2);
    expect(pool.changes).toEqual([
      [
        "1_Pooling/config.json",
        "config",
        "modified",
        "$.pooling_mode_cls_token true -> false; $.pooling_mode_mean_tokens false -> true",
      ],
    ]);
    expect(pool.behaviour).toEqual([
      ["embedding", 'embedding output changed: sentence-transformers pooling "cls" -> "mean"'],
    ]);
    const dense = await rows(3);
    expect(dense.behaviour).toEqual([
      ["embedding", "embedding output changed: sentence-transformers dimension 768 -> 256"],
    ]);
    expect(dense.e.sentence_transformers.dense_params).toBe(768 * 256 + 256);
    expect(dense.e.params.total - pool.e.params.total).toBe(768 * 256 + 256);
    // The parameter count moved: an advisory, as for any model.
    const advisories = await listAdvisoriesByRepo(s.db, dense.repo.id);
    expect(advisories.map((a) => a.introducedSha)).toEqual([dense.sha]);
    const app = await createApp({ db: s.db });
    try {
      const page = await app.inject({ method: "GET", url: `/repos/${ST_REPO}/revisions/${dense.sha}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("2_Dense/config.json");
      expect(page.body).toContain("embedding output changed");
    } finally {
      await app.close();
    }
  });
});
