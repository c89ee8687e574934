import { fold, html, type SafeHtml } from "./html.ts";
import { repoPath } from "./layout.ts";

// Every badge of a repo, ready to paste: the shields endpoint URL and Markdown and HTML snippets.
// No JavaScript: each snippet is one block that a single click selects whole (user-select: all).

type BadgeLinks = {
  json: string;
  svg: string;
  /** The SVG's path on this server, for the page's own <img>. */
  localSvg: string;
  shields: string;
  markdown: string;
  html: string;
};

/** The addresses and snippets of one badge, with `origin` the server's public URL (no trailing slash). */
function badgeLinks(origin: string, repoName: string, metric: string): BadgeLinks {
  const path = `/badges/${repoName.split("/").map(encodeURIComponent).join("/")}/${encodeURIComponent(metric)}`;
  const json = `${origin}${path}.json`;
  const shields = `https://img.shields.io/endpoint?url=${encodeURIComponent(json)}`;
  const page = `${origin}${repoPath(repoName)}`;
  return {
    json,
    svg: `${origin}${path}.svg`,
    localSvg: `${path}.svg`,
    shields,
    markdown: `[![${metric}](${shields})](${page})`,
    html: `<a href="${page}"><img alt="${metric}" src="${shields}"></a>`,
  };
}

const copy = (label: string, text: string) =>
  html`<div class="snippet"><span class="muted">${label}</span><pre class="copy">${text}</pre></div>`;

/** The badges section: each badge shown (linked to its JSON), then a table of snippets per badge. */
export function renderBadgeShare(origin: string, repoName: string, metrics: string[]): SafeHtml {
  if (metrics.length === 0)
    return html`<p class="muted">No badge yet: badges appear once a revision has been estimated.</p>`;
  const links = metrics.map((m) => ({ metric: m, ...badgeLinks(origin, repoName, m) }));
  const shown = links.map(
    (l) => html`<a href="${l.json}"><img alt="${l.metric} badge" src="${l.localSvg}"></a> `,
  );
  const rows = links.map(
    (
      l,
    ) => html`<tr><th scope="row"><code>${l.metric}</code></th><td>${copy("shields endpoint", l.shields)}${copy("Markdown", l.markdown)}${copy("HTML", l.html)}
<span class="muted">SVG here: <a href="${l.svg}">${l.metric}.svg</a> (shields' <code>style</code>, <code>label</code>, <code>color</code> work, e.g. <code>?style=flat-square</code>)</span></td></tr>`,
  );
  return html`<p class="badges">${shown}</p>
<details class="badge-snippets"><summary>Badge snippets for a README (${links.length} badges)</summary>
${fold(rows.length, html`<table class="snippets"><thead><tr><th scope="col">Metric</th><th scope="col">Copy</th></tr></thead><tbody>${rows}</tbody></table>`)}
</details>`;
}
