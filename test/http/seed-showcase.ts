import { readFileSync } from "node:fs";
import { buildBadges } from "../../src/core/badge/index.ts";
import { diffChatTemplate } from "../../src/core/diff/chat-diff.ts";
import { diffJson } from "../../src/core/diff/json.ts";
import { estimate } from "../../src/core/estimator/estimate.ts";
import { buildOsvRecord } from "../../src/core/osv/index.ts";
import type { Db } from "../../src/db/types.ts";
import { insertAdvisory } from "../../src/repositories/advisories.repository.ts";
import { upsertBadge } from "../../src/repositories/badges.repository.ts";
import { replaceBehaviorChanges } from "../../src/repositories/behavior-changes.repository.ts";
import { upsertChanges } from "../../src/repositories/changes.repository.ts";
import { upsertEstimate } from "../../src/repositories/estimates.repository.ts";
import { addRepo } from "../../src/repositories/repos.repository.ts";
import {
  insertPendingRevisions,
  markForcePushedAway,
  markRevisionDone,
} from "../../src/repositories/revisions.repository.ts";

// A repo with a story, for screenshots: acme/chatty-lm grows from 28 to 36 layers, a force-pushed
// commit comes and goes, a template edit changes the prompt and the EOS token (advisory opened),
// and the model shrinks back (the size advisory closes).

const base = JSON.parse(
  readFileSync(new URL("../../fixtures/models/Qwen__Qwen3-0.6B/config.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

export const SHOW = {
  repo: "acme/chatty-lm",
  sha: (i: number) => `5eed${i}`.padEnd(40, String(i)),
};

const OLD_TEMPLATE =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const NEW_TEMPLATE =
  "{% if messages[0].role != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

const steps: { title: string; config: Record<string, unknown> | null }[] = [
  { title: "initial commit", config: null },
  { title: "Upload model", config: base },
  { title: "Deeper: 32 layers", config: { ...base, num_hidden_layers: 32 } },
  { title: "Try 40 layers (reverted)", config: { ...base, num_hidden_layers: 40 } },
  { title: "Deeper: 36 layers", config: { ...base, num_hidden_layers: 36 } },
  { title: "Default system prompt, new EOS", config: { ...base, num_hidden_layers: 36 } },
  { title: "Back to 28 layers", config: base },
];

export async function seedShowcase(db: Db): Promise<void> {
  const { repo } = await addRepo(db, SHOW.repo);
  const t0 = Date.parse("2026-04-01T09:00:00Z");
  const revs = await insertPendingRevisions(
    db,
    repo.id,
    steps.map((s, i) => ({
      sha: SHOW.sha(i),
      ...(i > 0 ? { parentSha: SHOW.sha(i - 1) } : {}),
      title: s.title,
      author: "acme-bot",
      committedAt: new Date(t0 + i * 3 * 86_400_000),
    })),
  );
  for (const [i, r] of revs.entries()) {
    const config = steps[i]?.config;
    const e = config ? estimate(config) : null;
    await upsertEstimate(db, {
      revisionId: r.id,
      estimatorVersion: e?.estimator_version ?? "1",
      ...(e ? { paramsTotal: e.params.total, result: e } : { error: "no config.json in this revision" }),
    });
    const prev = steps[i - 1]?.config;
    if (config && prev && i !== 5) {
      const d = diffJson(prev, config);
      await upsertChanges(db, r.id, [
        {
          path: "config.json",
          kind: "modified",
          category: "config",
          summary: d.changes.map((c) => `${c.path} ${String(c.before)} -> ${String(c.after)}`).join(", "),
          detail: { type: "json", changes: d.changes },
        },
      ]);
    }
    await markRevisionDone(db, r.id);
  }
  await markForcePushedAway(db, repo.id, [SHOW.sha(3)]);
  const tpl = diffChatTemplate(OLD_TEMPLATE, NEW_TEMPLATE, { bos_token: "", eos_token: "<|im_end|>" });
  const tplRev = revs[5]?.id as number;
  await upsertChanges(db, tplRev, [
    {
      path: "tokenizer_config.json",
      kind: "modified",
      category: "chat_template",
      summary: "chat_template changed: adds a default system prompt",
      detail: { type: "chat_template", ...tpl },
      promptChanged: tpl.promptChanged,
    },
  ]);
  await replaceBehaviorChanges(db, tplRev, [
    {
      kind: "prompt",
      summary: "rendered prompt changed in every scenario without a system message",
      detail: {
        type: "prompt",
        templates: [{ name: "default", status: "modified", changed: [] }],
        before: "a",
        after: "b",
      },
    },
    {
      kind: "eos_token",
      summary: "generation_config.json eos_token_id 151645 -> [151645, 151643]",
      detail: {
        type: "values",
        changes: [
          { file: "generation_config.json", field: "eos_token_id", before: 151645, after: [151645, 151643] },
        ],
        before: "a",
        after: "b",
      },
    },
  ]);
  await advisory(db, repo.id, 1, SHOW.sha(2), SHOW.sha(6), t0 + 6 * 86_400_000, "Parameter count changed");
  await advisory(
    db,
    repo.id,
    2,
    SHOW.sha(5),
    null,
    t0 + 15 * 86_400_000,
    "Rendered prompt and EOS token changed",
  );
  const last = estimate(base);
  const badges = buildBadges({
    params_total: last.params.total,
    params_active: last.params.active,
    fit: last.fit,
    open_advisories: 1,
    tied_embedding_stored_twice: false,
  });
  for (const [metric, json] of Object.entries(badges)) await upsertBadge(db, repo.id, metric, json);
}

async function advisory(
  db: Db,
  repoId: number,
  n: number,
  introducedSha: string,
  fixedSha: string | null,
  at: number,
  summary: string,
) {
  const record = buildOsvRecord({
    changes: [],
    baseline: {},
    details: `${summary}.`,
    summary,
    id: `x_HUBWATCH-2026-010${n}`,
    repo: SHOW.repo,
    introducedSha,
    ...(fixedSha ? { fixedSha } : {}),
    published: new Date(at),
    modified: new Date(fixedSha ? at + 12 * 86_400_000 : at),
  });
  await insertAdvisory(db, {
    id: record.id,
    repoId,
    introducedSha,
    ...(fixedSha ? { fixedSha, status: "closed" as const } : {}),
    published: new Date(record.published),
    modified: new Date(record.modified),
    record,
  });
}
