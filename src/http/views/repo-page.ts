import { renderBadgeShare } from "./badge-share.ts";
import { renderHistoryCharts } from "./charts.ts";
import { renderEstimateComparison } from "./estimate-view.ts";
import { html } from "./html.ts";
import { fmtDate, layout, repoPath } from "./layout.ts";
import { noChangesText, repoStatusNote, repoStatusWords, withoutUrls } from "./states.ts";

type Revision = {
  id: number;
  sha: string;
  seq: number;
  committedAt: Date | null;
  title: string | null;
  author: string | null;
  status: string;
  error: string | null;
  forcePushedAway: boolean;
};
type ChangeSummary = {
  revisionId: number;
  path: string;
  kind: string;
  category: string;
  summary: string;
  promptChanged: boolean | null;
};
type Est = { result: unknown; error: string | null; estimatorVersion: string };
type Advisory = {
  id: string;
  status: string;
  record: Record<string, unknown>;
  introducedSha: string | null;
  fixedSha: string | null;
};

type RepoPageData = {
  repo: { name: string; status: string; statusDetail: string | null; lastPolledAt: Date | null };
  /** This page's revisions, newest first. */
  revisions: Revision[];
  /** The nearest estimated revision below the page, which its oldest revision is compared with. */
  tail: { id: number; sha: string } | null;
  /** The sha the next (older) page starts below; null on the last page. */
  next: string | null;
  changes: ChangeSummary[];
  estimates: Map<number, Est>;
  /** The charts' revisions and estimates: on the first page only. */
  charted: { revisions: Revision[]; estimates: Map<number, Est> } | null;
  advisories: Advisory[];
  badgeMetrics: string[];
  /** The server's public URL (no trailing slash), for badge snippets pasted elsewhere. */
  origin?: string;
};

/**
 * A repo's history page: on the first page charts, advisories and badges, then one page of revisions
 * newest first with their changes and estimate comparison, and a link to the older ones.
 */
export function renderRepoPage(d: RepoPageData): string {
  const base = repoPath(d.repo.name);
  const byRev = new Map<number, ChangeSummary[]>();
  for (const c of d.changes) byRev.set(c.revisionId, [...(byRev.get(c.revisionId) ?? []), c]);
  const timeline = d.revisions.map((r, i) => {
    // Compare with the nearest earlier revision that has an estimate (failed ones have none).
    const prev = d.revisions.slice(i + 1).find((p) => d.estimates.get(p.id)?.result) ?? d.tail ?? undefined;
    const changes = byRev.get(r.id) ?? [];
    const cats = [...new Set(changes.map((c) => c.category))];
    return html`<section class="rev" id="r-${r.sha}">
<h3><a href="${base}/revisions/${r.sha}"><code>${r.sha.slice(0, 12)}</code></a> ${r.title ?? ""}</h3>
<p class="muted">${fmtDate(r.committedAt)} · ${r.author ?? "unknown author"} · ${r.status}${r.forcePushedAway ? " · force-pushed away" : ""}</p>
${r.error ? html`<p class="bad">${withoutUrls(r.error)}</p>` : ""}
<p>${cats.map((c) => html`<span class="chip ${c}">${c.replace("_", " ")}</span>`)}${cats.length === 0 ? noChangesText(r, d.repo.status) : ""}</p>
${changes.length ? html`<ul class="changes">${changes.map((c) => html`<li><code>${c.path}</code> ${c.kind}: ${c.summary}${c.promptChanged ? html` <span class="bad">(rendered prompt changed)</span>` : ""}</li>`)}</ul>` : ""}
<details${i === 0 ? " open" : ""}><summary>Estimate${prev ? html` vs <code>${prev.sha.slice(0, 12)}</code>` : ""}</summary>
${renderEstimateComparison(d.estimates.get(r.id), prev ? d.estimates.get(prev.id) : undefined, r)}</details>
</section>`;
  });
  const advisories = d.advisories.map((a) => {
    const summary = typeof a.record.summary === "string" ? a.record.summary : "";
    return html`<li><a href="/osv/${a.id}.json"><code>${a.id}</code></a> <span class="${a.status === "open" ? "bad" : "muted"}">${a.status}</span> ${summary}</li>`;
  });
  const older = d.next
    ? html`<nav class="pager"><a rel="next" href="${base}?before=${d.next}">Older revisions</a></nav>`
    : "";
  const head = html`<p><a href="/">All repos</a></p><h1>${d.repo.name}</h1>
${repoStatusNote(d.repo.status, d.repo.statusDetail)}
<p class="muted">status ${repoStatusWords(d.repo.status)} · last polled ${fmtDate(d.repo.lastPolledAt) || "never"} · <a href="https://huggingface.co/${d.repo.name}">on the Hub</a></p>`;
  const overview = d.charted
    ? html`<h2 id="history">History</h2>${renderHistoryCharts({ repoPath: base, revisions: d.charted.revisions, estimates: d.charted.estimates, advisories: d.advisories })}
<h2>Advisories</h2>${advisories.length ? html`<ul>${advisories}</ul>` : html`<p class="muted">None.</p>`}
<h2 id="badges">Badges</h2>${renderBadgeShare(d.origin ?? "", d.repo.name, d.badgeMetrics)}`
    : html`<p><a href="${base}">Newest revisions, charts and advisories</a></p>`;
  const body = html`${head}
${overview}
<h2>Revisions</h2>${timeline.length ? timeline : html`<p class="muted">No revision recorded yet.</p>`}
${older}`;
  return layout(d.repo.name, body);
}
