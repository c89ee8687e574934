import { renderDetail } from "./diff-view.ts";
import { renderEstimateComparison } from "./estimate-view.ts";
import { renderWeightMetadata, type WeightMetadata } from "./header-meta-view.ts";
import { html, type SafeHtml } from "./html.ts";
import { fmtDate, layout, repoPath } from "./layout.ts";
import { noChangesText, withoutUrls } from "./states.ts";

type Change = {
  path: string;
  kind: string;
  category: string;
  summary: string;
  promptChanged: boolean | null;
  detail: unknown;
};
type Est = { result: unknown; error: string | null; estimatorVersion: string } | undefined;

type RevisionPageData = {
  repoName: string;
  /** The repo's Hub status (ok, gated, not_found, error): why a revision may not be fetched yet. */
  repoStatus?: string;
  revision: {
    sha: string;
    title: string | null;
    author: string | null;
    committedAt: Date | null;
    status: string;
    error: string | null;
    forcePushedAway?: boolean;
  };
  previous: { sha: string } | null;
  /** The revision the estimate is compared with: the nearest earlier one with an estimate. */
  comparedWith: { sha: string } | null;
  changes: Change[];
  /** What the revision changes in how the model behaves (prompt, EOS, ...), one per kind. */
  behavior: { kind: string; summary: string }[];
  estimate: Est;
  previousEstimate: Est;
  /** Header `__metadata__` of both sides, loaded only when the weights changed. */
  weightMetadata?: WeightMetadata | null;
};

/** Behaviour kinds that change what a deployed model does on every request: called out at the top. */
const CALLOUT_KINDS: Record<string, string> = {
  prompt: "The rendered prompt changes",
  eos_token: "The end-of-sequence token changes",
  bos_token: "The beginning-of-sequence token changes",
};

function callout(behavior: RevisionPageData["behavior"]): SafeHtml {
  const order = Object.keys(CALLOUT_KINDS);
  const loud = behavior
    .filter((b) => CALLOUT_KINDS[b.kind])
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  if (loud.length === 0) return html``;
  return html`<aside class="callout" aria-label="Behaviour change"><strong>Behaviour change.</strong> Prompts or stop tokens differ from the previous revision: check generations before upgrading.
<ul>${loud.map((b) => html`<li><strong>${CALLOUT_KINDS[b.kind]}:</strong> ${b.summary}</li>`)}</ul></aside>`;
}

/** One revision in full: what changed first (callout, behaviour, diffs), then the estimate delta. */
export function renderRevisionPage(d: RevisionPageData): string {
  const base = repoPath(d.repoName);
  const r = d.revision;
  const body = html`<p><a href="/">All repos</a> / <a href="${base}">${d.repoName}</a></p>
<h1><code>${r.sha.slice(0, 12)}</code> ${r.title ?? ""}</h1>
<p class="muted">${fmtDate(r.committedAt)} · ${r.author ?? "unknown author"} · ${r.status} · full sha <code>${r.sha}</code>
${d.previous ? html` · previous <a href="${base}/revisions/${d.previous.sha}"><code>${d.previous.sha.slice(0, 12)}</code></a>` : " · first recorded revision"}</p>
${r.error ? html`<p class="bad">${withoutUrls(r.error)}</p>` : ""}
${r.forcePushedAway ? html`<p class="state warn" role="status"><strong>Force-pushed away:</strong> this commit is no longer in the repo's history; what was recorded for it stays here.</p>` : ""}
${callout(d.behavior)}
${d.behavior.length > 0 ? html`<h2>Behaviour</h2><ul class="behavior">${d.behavior.map((b) => html`<li><span class="chip">${b.kind.replaceAll("_", " ")}</span> ${b.summary}</li>`)}</ul>` : ""}
<h2>Changes</h2>
${d.changes.length === 0 ? html`<p>${noChangesText(r, d.repoStatus ?? "ok")}</p>` : ""}
${d.changes.map(
  (
    c,
  ) => html`<section class="change"><h3><span class="chip ${c.category}">${c.category.replace("_", " ")}</span> <code>${c.path}</code> ${c.kind}</h3>
<p>${c.summary}${c.promptChanged ? html` <span class="bad">(rendered prompt changed)</span>` : ""}</p>${renderDetail(c.detail)}${c.category === "weights" ? renderWeightMetadata(d.weightMetadata) : ""}</section>`,
)}
<h2>Estimate${d.comparedWith ? html` vs <a href="${base}/revisions/${d.comparedWith.sha}"><code>${d.comparedWith.sha.slice(0, 12)}</code></a>` : ""}</h2>
${renderEstimateComparison(d.estimate, d.previousEstimate, r)}`;
  return layout(`${d.repoName} @ ${r.sha.slice(0, 12)}`, body);
}
