import type { EstimateChange } from "../core/advise/types.ts";
import type { BehaviorChange } from "../core/diff/behavior.ts";
import type { Change } from "../repositories/changes.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import type { PipelineServices } from "./deps.ts";
import type { OutboxEvent } from "./webhooks/outbox.ts";

/** The links a revision event carries: the HTML revision page (absolute with PUBLIC_URL), the Hub commit. */
function revisionLinks(s: Pick<PipelineServices, "config">, repo: string, sha: string) {
  const base = s.config.PUBLIC_URL?.replace(/\/+$/, "") ?? "";
  const hub = s.config.HF_ENDPOINT.replace(/\/+$/, "");
  return {
    revision: `${base}/repos/${repo}/revisions/${sha}`,
    history: `${base}/repos/${repo}`,
    commit: `${hub}/${repo}/commit/${sha}`,
  };
}

function describe(c: EstimateChange): string {
  return c.summary ?? `${c.kind}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`;
}

/**
 * The `revision.changed` event of a processed revision, or null when it changed nothing tracked: its
 * change kinds (behaviour kinds such as `prompt` or `eos_token`, and estimate kinds such as
 * `params_total` or `fit_verdict`), one summary sentence, the file changes and links, from the changes
 * recorded for the revision (listRevisionChanges).
 */
export function revisionChangedEvent(
  s: Pick<PipelineServices, "config">,
  repo: Repo,
  revision: Revision,
  parent: string | null,
  recorded: { files: Pick<Change, "path" | "category" | "kind" | "summary">[]; behavior: BehaviorChange[] },
  estimateChanges: EstimateChange[],
): OutboxEvent | null {
  const { files, behavior } = recorded;
  if (files.length + behavior.length + estimateChanges.length === 0) return null;
  const kinds = [...new Set([...behavior.map((b) => b.kind), ...estimateChanges.map((c) => c.kind)])];
  const sentences = [...behavior.map((b) => b.summary), ...estimateChanges.map(describe)];
  const summary =
    sentences.length > 0
      ? sentences.join("; ")
      : `${files.length} file${files.length === 1 ? "" : "s"} changed, no behaviour or estimate change`;
  return {
    type: "revision.changed",
    repo,
    subject: `${repo.name}@${revision.sha}`,
    kinds,
    data: {
      repo: repo.name,
      sha: revision.sha,
      parent,
      title: revision.title ?? null,
      kinds,
      summary,
      behavior: behavior.map((b) => ({ kind: b.kind, summary: b.summary })),
      estimate: estimateChanges.map((c) => ({ kind: c.kind, key: c.key, before: c.before, after: c.after })),
      files: files.map((f) => ({ path: f.path, category: f.category, kind: f.kind, summary: f.summary })),
      links: revisionLinks(s, repo.name, revision.sha),
    },
  };
}
