import { RECENT_KINDS, type RecentData, type RecentKind } from "../../services/http/recent.ts";
import { html, type SafeHtml } from "./html.ts";
import { fmtDate, repoPath } from "./layout.ts";

// "What changed recently across everything I watch": file changes grouped per revision, behaviour
// changes and advisories opened or closed, newest first, with links to filter by kind (no script).

type Event = { at: number; kind: string; body: SafeHtml };

const KIND_LABEL: Record<RecentKind, string> = {
  all: "everything",
  config: "config",
  generation_config: "generation config",
  tokenizer: "tokenizer",
  chat_template: "chat template",
  weights: "weights",
  behavior: "behaviour",
  advisory: "advisories",
};

const time = (d: Date | null) => d?.getTime() ?? 0;
const revLink = (repo: string, sha: string) =>
  html`<a href="${repoPath(repo)}">${repo}</a> <a href="${repoPath(repo)}/revisions/${sha}"><code>${sha.slice(0, 7)}</code></a>`;

function changeEvents(rows: RecentData["changes"]): Event[] {
  const byRev = new Map<string, RecentData["changes"]>();
  for (const r of rows) byRev.set(`${r.repo} ${r.sha}`, [...(byRev.get(`${r.repo} ${r.sha}`) ?? []), r]);
  return [...byRev.values()].map((group) => {
    const first = group[0] as RecentData["changes"][number];
    const cats = [...new Set(group.map((c) => c.category))];
    return {
      at: time(first.at),
      kind: "change",
      body: html`${cats.map((c) => html`<span class="chip ${c}">${c.replace("_", " ")}</span>`)}${revLink(first.repo, first.sha)} ${first.title ?? ""}
<ul class="changes">${group.map((c) => html`<li><code>${c.path}</code>: ${c.summary}${c.promptChanged ? html` <span class="bad">(rendered prompt changed)</span>` : ""}</li>`)}</ul>`,
    };
  });
}

function behaviorEvents(rows: RecentData["behavior"]): Event[] {
  return rows.map((b) => ({
    at: time(b.at),
    kind: "behavior",
    body: html`<span class="chip behavior">${b.kind.replaceAll("_", " ")}</span>${revLink(b.repo, b.sha)} ${b.summary}`,
  }));
}

function advisoryEvents(rows: RecentData["advisories"]): Event[] {
  return rows.flatMap((a) => {
    const link = html`<a href="/osv/${a.id}.json"><code>${a.id}</code></a>`;
    const opened: Event = {
      at: a.published.getTime(),
      kind: "advisory",
      body: html`<span class="chip advisory-open">advisory opened</span>${link} ${revLink(a.repo, a.introducedSha)} ${a.summary ?? ""}`,
    };
    if (a.status !== "closed") return [opened];
    const closed: Event = {
      at: a.modified.getTime(),
      kind: "advisory",
      body: html`<span class="chip advisory-closed">advisory closed</span>${link} ${a.fixedSha ? revLink(a.repo, a.fixedSha) : html`<a href="${repoPath(a.repo)}">${a.repo}</a>`}`,
    };
    return [closed, opened];
  });
}

/** The recent list, newest first, at most `limit` entries, with the kind filter above it. */
export function renderRecent(d: RecentData, limit = 50): SafeHtml {
  const events = [...changeEvents(d.changes), ...behaviorEvents(d.behavior), ...advisoryEvents(d.advisories)]
    .sort((a, b) => b.at - a.at)
    .slice(0, limit);
  const filter = RECENT_KINDS.map((k) =>
    k === d.kind
      ? html`<li><a href="${k === "all" ? "/" : `/?kind=${k}`}" aria-current="page"><strong>${KIND_LABEL[k]}</strong></a></li>`
      : html`<li><a href="${k === "all" ? "/" : `/?kind=${k}`}">${KIND_LABEL[k]}</a></li>`,
  );
  return html`<nav aria-label="Filter recent changes by kind"><ul class="filter">${filter}</ul></nav>
${events.length === 0 ? html`<p class="muted">Nothing of this kind yet.</p>` : html`<ol class="recent">${events.map((e) => html`<li class="event ${e.kind}"><time class="muted">${fmtDate(new Date(e.at))}</time> ${e.body}</li>`)}</ol>`}`;
}
