import type { RecentData } from "../../services/http/recent.ts";
import { html } from "./html.ts";
import { fmtDate, layout, repoPath } from "./layout.ts";
import { renderRecent } from "./recent-view.ts";
import { repoStatusWords } from "./states.ts";

type RepoOverview = {
  name: string;
  status: string;
  revisions: number;
  latest: Date | null;
  lastPolledAt: Date | null;
  openAdvisories: number;
};

/** The index: what changed recently across every watched repo (filterable), then the repos themselves. */
export function renderIndexPage(repos: RepoOverview[], recent?: RecentData): string {
  const rows = repos.map(
    (r) => html`<tr>
<td><a href="${repoPath(r.name)}">${r.name}</a></td>
<td>${repoStatusWords(r.status)}</td><td class="num">${r.revisions}</td>
<td class="num ${r.openAdvisories ? "bad" : ""}">${r.openAdvisories}</td>
<td>${fmtDate(r.latest)}</td><td>${fmtDate(r.lastPolledAt)}</td></tr>`,
  );
  const body = html`<h1>Watched repos</h1>
${recent && repos.length > 0 ? html`<h2 id="recent">Recent changes</h2>${renderRecent(recent)}<h2 id="repos">Repos</h2>` : ""}
${
  repos.length === 0
    ? html`<p class="muted">No repo is watched yet. <code>hubwatch watch add OWNER/NAME</code></p>`
    : html`<table><thead><tr><th>Repo</th><th>Status</th><th>Revisions</th><th>Open advisories</th>
<th>Newest revision</th><th>Last polled</th></tr></thead><tbody>${rows}</tbody></table>`
}`;
  return layout("Watched repos", body);
}
