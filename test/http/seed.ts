import { readFileSync } from "node:fs";
import { buildBadges } from "../../src/core/badge/index.ts";
import { diffChatTemplate } from "../../src/core/diff/chat-diff.ts";
import { diffJson } from "../../src/core/diff/json.ts";
import { diffWeights, summarizeWeights, type TensorInfo } from "../../src/core/diff/weights.ts";
import { estimate } from "../../src/core/estimator/estimate.ts";
import { buildOsvRecord, type OsvRecord } from "../../src/core/osv/index.ts";
import type { Db } from "../../src/db/types.ts";
import { insertAdvisory } from "../../src/repositories/advisories.repository.ts";
import { upsertBadge } from "../../src/repositories/badges.repository.ts";
import { replaceBehaviorChanges } from "../../src/repositories/behavior-changes.repository.ts";
import { upsertChanges } from "../../src/repositories/changes.repository.ts";
import { upsertEstimate } from "../../src/repositories/estimates.repository.ts";
import { addRepo } from "../../src/repositories/repos.repository.ts";
import { insertPendingRevisions, markRevisionDone } from "../../src/repositories/revisions.repository.ts";

// A small synthetic history seeded through the real repositories and builders:
// acme/tiny-lm: A (base) -> B (vocab grows: advisory opened) -> C (hostile chat template) -> D (restored: fixed)
// acme/other: X (base) -> Y (layers change: advisory open).

export const SHA = {
  A: "a".repeat(40),
  B: "b".repeat(40),
  C: "c".repeat(40),
  D: "d".repeat(40),
  X: "1".repeat(40),
  Y: "2".repeat(40),
  E: "e".repeat(40),
} as const;

const HOSTILE_TEMPLATE =
  "{{ '<script>window.pwned=1</script>' }}{% for m in messages %}<img src=x onerror=alert(1)>{{ m.content }}{% endfor %}";
export const HOSTILE_TITLE = `Update template <script>document.title="pwned"</script> & "quotes"`;

const baseConfig = JSON.parse(
  readFileSync(new URL("../../fixtures/models/Qwen__Qwen3-0.6B/config.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

export type Seeded = { records: OsvRecord[]; repoIds: Record<string, number> };

export async function seedHistory(db: Db): Promise<Seeded> {
  const { repo: tiny } = await addRepo(db, "acme/tiny-lm");
  const { repo: other } = await addRepo(db, "acme/other");
  const t0 = Date.parse("2026-03-01T00:00:00Z");
  const day = 86_400_000;
  const revs = await insertPendingRevisions(db, tiny.id, [
    { sha: SHA.A, title: "initial commit", author: "system", committedAt: new Date(t0) },
    {
      sha: SHA.B,
      parentSha: SHA.A,
      title: "Grow vocabulary",
      author: "alice",
      committedAt: new Date(t0 + day),
    },
    {
      sha: SHA.C,
      parentSha: SHA.B,
      title: HOSTILE_TITLE,
      author: "<b>mallory</b>",
      committedAt: new Date(t0 + 2 * day),
    },
    {
      sha: SHA.D,
      parentSha: SHA.C,
      title: "Restore vocabulary",
      author: "alice",
      committedAt: new Date(t0 + 3 * day),
    },
  ]);
  const otherRevs = await insertPendingRevisions(db, other.id, [
    { sha: SHA.X, title: "initial commit", committedAt: new Date(t0) },
    { sha: SHA.Y, parentSha: SHA.X, title: "More layers", committedAt: new Date(t0 + day) },
  ]);
  const configs = [
    baseConfig,
    { ...baseConfig, vocab_size: 200_000 },
    { ...baseConfig, vocab_size: 200_000 },
    baseConfig,
  ];
  for (const [i, r] of revs.entries()) {
    const e = estimate(configs[i]);
    await upsertEstimate(db, {
      revisionId: r.id,
      estimatorVersion: e.estimator_version,
      paramsTotal: e.params.total,
      result: e,
    });
    await markRevisionDone(db, r.id);
  }
  const byS = Object.fromEntries(revs.map((r) => [r.sha, r.id]));
  const weightsB: TensorInfo[] = [
    { name: "model.embed_tokens.weight", dtype: "BF16", shape: [151936, 1024] },
  ];
  const weightsC: TensorInfo[] = [
    { name: "model.embed_tokens.weight", dtype: "BF16", shape: [200000, 1024] },
    { name: "lm_head.weight", dtype: "BF16", shape: [200000, 1024] },
  ];
  const vocab = diffJson(configs[0], configs[1]);
  await upsertChanges(db, byS[SHA.B]!, [
    {
      path: "config.json",
      kind: "modified",
      category: "config",
      summary: "vocab_size 151936 -> 200000",
      detail: { type: "json", changes: vocab.changes },
    },
    {
      path: "model.safetensors",
      kind: "modified",
      category: "weights",
      summary: "embed_tokens reshaped",
      detail: {
        type: "weights",
        ...diffWeights(weightsB, weightsC),
        before: summarizeWeights(weightsB),
        after: summarizeWeights(weightsC),
      },
    },
  ]);
  const tpl = diffChatTemplate("{% for m in messages %}{{ m.content }}{% endfor %}", HOSTILE_TEMPLATE, {
    bos_token: "<s>",
    eos_token: "</s>",
  });
  await upsertChanges(db, byS[SHA.C]!, [
    {
      path: "chat_template.jinja",
      kind: "modified",
      category: "chat_template",
      summary: "template <script> changed",
      detail: { type: "chat_template", ...tpl },
      promptChanged: tpl.promptChanged,
    },
  ]);
  await replaceBehaviorChanges(db, byS[SHA.C]!, [
    {
      kind: "prompt",
      summary: 'rendered prompt changed: chat template "<svg onload=alert(1)>" added',
      detail: {
        type: "prompt",
        templates: [{ name: "<svg onload=alert(1)>", status: "added", changed: [] }],
        before: "{}",
        after: "{}",
      },
    },
  ]);
  await upsertChanges(db, byS[SHA.D]!, [
    {
      path: "config.json",
      kind: "modified",
      category: "config",
      summary: "vocab_size 200000 -> 151936",
      detail: { type: "json", changes: diffJson(configs[1], configs[0]).changes },
    },
  ]);
  for (const r of otherRevs) await markRevisionDone(db, r.id);

  const base = {
    changes: [],
    baseline: {},
    details: "Parameter count changed.",
    summary: "Parameter count changed",
  };
  const r1 = buildOsvRecord({
    ...base,
    id: "x_HUBWATCH-2026-0001",
    repo: "acme/tiny-lm",
    introducedSha: SHA.B,
    fixedSha: SHA.D,
    parentSha: SHA.A,
    published: new Date(t0 + day),
    modified: new Date(t0 + 3 * day),
  });
  const r2 = buildOsvRecord({
    ...base,
    id: "x_HUBWATCH-2026-0002",
    repo: "acme/other",
    introducedSha: SHA.Y,
    parentSha: SHA.X,
    published: new Date(t0 + day + 1000),
    modified: new Date(t0 + day + 1000),
  });
  await insertAdvisory(db, {
    id: r1.id,
    repoId: tiny.id,
    introducedSha: SHA.B,
    fixedSha: SHA.D,
    status: "closed",
    published: new Date(r1.published),
    modified: new Date(r1.modified),
    record: r1,
  });
  await insertAdvisory(db, {
    id: r2.id,
    repoId: other.id,
    introducedSha: SHA.Y,
    published: new Date(r2.published),
    modified: new Date(r2.modified),
    record: r2,
  });

  const last = estimate(configs[3]);
  const badges = buildBadges({
    params_total: last.params.total,
    fit: last.fit,
    open_advisories: 0,
    tied_embedding_stored_twice: false,
  });
  for (const [metric, json] of Object.entries(badges)) await upsertBadge(db, tiny.id, metric, json);
  return { records: [r1, r2], repoIds: { tiny: tiny.id, other: other.id } };
}
