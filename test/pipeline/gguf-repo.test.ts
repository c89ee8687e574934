import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRegistry } from "../../jobs/index.ts";
import { ESTIMATOR_VERSION } from "../../src/core/estimator/estimate.ts";
import type { GgufEstimate } from "../../src/core/estimator/gguf/repo-estimate.ts";
import { createApp } from "../../src/http/app.ts";
import type { InProcessRunner } from "../../src/queue/in-process-runner.ts";
import { GGUF_REPO, ggufRepo } from "../../src/replay-hub/fixtures/repos-kinds.ts";
import type { ReplayHub } from "../../src/replay-hub/index.ts";
import { listAdvisoriesByRepo } from "../../src/repositories/advisories-read.repository.ts";
import { listBehaviorChangesByRevision } from "../../src/repositories/behavior-changes.repository.ts";
import { listChangesByRevision } from "../../src/repositories/changes.repository.ts";
import { getEstimate } from "../../src/repositories/estimates.repository.ts";
import { listFindings } from "../../src/repositories/findings.repository.ts";
import { getRepoByName } from "../../src/repositories/repos.repository.ts";
import { listRevisionsByRepo } from "../../src/repositories/revisions-read.repository.ts";
import type { PipelineServices } from "../../src/services/deps.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { processedRepo } from "./harness.ts";

// A GGUF repo through the whole pipeline: snapshot (headers by range), diff (quant files added, re-made,
// removed; metadata; the embedded chat template's verdict), estimate (one per quant file), advise, page.
describe("a GGUF repo through the pipeline", () => {
  let hub: ReplayHub;
  let store: TestDatabase;
  let s: PipelineServices;
  let runner: InProcessRunner<JobRegistry>;

  beforeAll(async () => {
    ({ hub, store, s, runner } = await processedRepo(ggufRepo(), GGUF_REPO));
  }, 180_000);

  afterAll(async () => {
    await runner?.close();
    await store?.close();
    await hub?.close();
  });

  async function revisions() {
    const repo = (await getRepoByName(s.db, GGUF_REPO))!;
    return { repo, revisions: await listRevisionsByRepo(s.db, repo.id) };
  }

  const Q4 = "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf";
  const Q8 = "Meta-Llama-3.1-8B-Instruct-Q8_0.gguf";
  const F16 = "Meta-Llama-3.1-8B-Instruct-F16.gguf";
  const IQ4 = "Meta-Llama-3.1-8B-Instruct-IQ4_XS.gguf";

  async function rows(sha: string) {
    const { revisions: revs } = await revisions();
    const r = revs.find((x) => x.sha === sha)!;
    const changes = (await listChangesByRevision(s.db, r.id)).map((c) => [
      c.path,
      c.category,
      c.kind,
      c.summary,
    ]);
    const behaviour = (await listBehaviorChangesByRevision(s.db, r.id)).map((b) => [b.kind, b.summary]);
    const estimate = (await getEstimate(s.db, r.id, ESTIMATOR_VERSION))?.result as GgufEstimate;
    return { changes, behaviour, estimate };
  }

  it("processes every revision; the upload adds two quant files with exact parameters", async () => {
    expect(runner.failures).toEqual([]);
    const { revisions: revs } = await revisions();
    expect(revs.map((r) => r.status)).toEqual(Array(6).fill("done"));
    const upload = await rows(revs[1]!.sha);
    expect(upload.changes).toEqual([
      [Q4, "weights", "added", "quant file added: Q4_K_M, 8,030,261,312 parameters, 4.91 GB"],
      [Q8, "weights", "added", "quant file added: Q8_0, 8,030,261,312 parameters, 8.53 GB"],
    ]);
    expect(upload.behaviour).toEqual([]);
    const e = upload.estimate;
    expect(e.family).toBe("gguf");
    expect(e.params.total).toBe(8_030_261_312);
    expect(e.gguf.files.map((f) => [f.quant, f.weight_bytes])).toEqual([
      ["Q4_K_M", 4_912_898_304],
      ["Q8_0", 8_532_934_912],
    ]);
    // One serve row per (card, quant): Q8_0 (8.53 GB + 0.54 GB of KV at 4096 tokens) fits a T4.
    expect(e.fit).toHaveLength(10);
    expect(e.fit.find((r) => r.card === "T4 16 GB" && r.mode === "serve Q8_0")?.verdict).toBe("fits");
  });

  it("the re-made quants: metadata (EOS id) and the embedded template's verdict, EOS and prompt behaviour", async () => {
    const { repo, revisions: revs } = await revisions();
    const remade = await rows(revs[2]!.sha);
    expect(remade.changes).toEqual([
      [Q4, "config", "modified", "metadata: $[tokenizer.ggml.eos_token_id] 128001 -> 128009"],
      [Q8, "config", "modified", "metadata: $[tokenizer.ggml.eos_token_id] 128001 -> 128009"],
      [
        `chat_template:gguf:${Q4}`,
        "chat_template",
        "modified",
        expect.stringMatching(/rendered prompt changed/),
      ],
      [
        `chat_template:gguf:${Q8}`,
        "chat_template",
        "modified",
        expect.stringMatching(/rendered prompt changed/),
      ],
    ]);
    expect(remade.behaviour).toEqual([
      ["eos_token", 'EOS token changed: *.gguf eos_token "<|end_of_text|>" -> "<|eot_id|>"'],
      ["prompt", expect.stringMatching(/^rendered prompt changed: chat template "gguf:/)],
    ]);
    const advisories = await listAdvisoriesByRepo(s.db, repo.id);
    expect(advisories.map((a) => [a.introducedSha, a.status])).toEqual([[revs[2]!.sha, "open"]]);
  });

  it("added quants widen the fit table; a re-made quant and a removed one are their own change kinds", async () => {
    const { revisions: revs } = await revisions();
    const added = await rows(revs[3]!.sha);
    expect(added.changes.map((c) => [c[0], c[2]])).toEqual([
      [F16, "added"],
      [IQ4, "added"],
    ]);
    expect(added.behaviour).toEqual([]);
    expect(added.estimate.fit).toHaveLength(20);
    expect(added.estimate.quantization?.method).toBe("gguf F16");
    const remade = await rows(revs[4]!.sha);
    expect(remade.changes).toEqual([
      [
        Q4,
        "weights",
        "modified",
        "re-made: 2 tensor(s) retyped; types Q4_K 193 -> 192, Q6_K 33 -> 32, Q8_0 0 -> 2",
      ],
    ]);
    expect(remade.estimate.gguf.files.find((f) => f.path === Q4)?.weight_bytes).toBe(5_302_796_544);
    const removed = await rows(revs[5]!.sha);
    expect(removed.changes.map((c) => [c[0], c[2]])).toEqual([[F16, "removed"]]);
    expect(removed.behaviour).toEqual([]);
    expect(removed.estimate.fit).toHaveLength(15);
  });

  it("the revision page shows the re-made tensors and a card x quant fit table", async () => {
    const { revisions: revs } = await revisions();
    const app = await createApp({ db: s.db });
    try {
      const page = await app.inject({ method: "GET", url: `/repos/${GGUF_REPO}/revisions/${revs[4]!.sha}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("token_embd.weight");
      // One row per quant file in the estimate, its file name and quant.
      expect(page.body).toMatch(
        /<tr><td><code>Meta-Llama-3\.1-8B-Instruct-IQ4_XS\.gguf<\/code><\/td><td>IQ4_XS<\/td>/,
      );
      // KV per token at f16: 32 layers x 8 KV heads x 128 x (K and V) x 2 bytes = 131,072 bytes.
      expect(page.body).toMatch(/IQ4_XS<\/td>.*?<td class="num">131 KB<\/td>/);
      expect(page.body).toMatch(/<th>serve Q4_K_M<\/th>/);
      expect(page.body).toMatch(/<th>serve IQ4_XS<\/th>/);
      const repoPage = await app.inject({ method: "GET", url: `/repos/${GGUF_REPO}` });
      expect(repoPage.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("a GGUF file that is not GGUF", () => {
  it("fails its revision with a bad_header finding instead of retrying", async () => {
    const bad = {
      id: "hubwatch-fixtures/broken-GGUF",
      commits: [
        {
          title: "upload",
          date: "2024-01-01T00:00:00Z",
          changes: { "m-Q4_K_M.gguf": { kind: "text" as const, text: "GGUF?" } },
        },
      ],
    };
    const { hub, store, s, runner } = await processedRepo(bad, bad.id);
    try {
      await runner.close();
      const repo = (await getRepoByName(s.db, bad.id))!;
      const [rev] = await listRevisionsByRepo(s.db, repo.id);
      expect(rev?.status).toBe("failed");
      expect(rev?.error).toMatch(
        /^bad_header: Bad GGUF header in hubwatch-fixtures\/broken-GGUF@\w+\/m-Q4_K_M\.gguf/,
      );
      const findings = await listFindings(s.db, { limit: 10 });
      expect(findings.map((f) => f.kind)).toEqual(["bad_header"]);
    } finally {
      await store.close();
      await hub.close();
    }
  }, 60_000);
});
