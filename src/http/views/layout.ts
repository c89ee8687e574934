import { html, type SafeHtml } from "./html.ts";

export const STYLE = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--add:#e6ffec;--del:#ffebe9;--chg:#fff8c5;--acc:#0969da;--bad:#cf222e;--warn:#9a6700;--ok:#1a7f37;--c0:#0969da;--c1:#bf3989;--c2:#1a7f37;--fit-ok:#dafbe1;--fit-mid:#fff8c5;--fit-cards:#ffe2cc;--fit-no:#ffd7d5}
*{box-sizing:border-box}body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0}
header{border-bottom:1px solid var(--line);padding:.6rem 1.5rem;display:flex;gap:1rem;align-items:baseline;background:var(--soft)}
header a.brand{font-weight:700;color:var(--fg);text-decoration:none}
main{max-width:72rem;margin:0 auto;padding:1rem 1.5rem 3rem}a{color:var(--acc)}
h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem;border-bottom:1px solid var(--line)}h3{font-size:1rem;margin:1rem 0 .3rem}
table{border-collapse:collapse;width:100%;margin:.4rem 0}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:var(--soft)}td.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}pre{background:var(--soft);padding:.6rem;overflow:auto;white-space:pre-wrap;word-break:break-word;border:1px solid var(--line)}
.muted{color:var(--muted)}.pager{margin:1.5rem 0;font-size:15px}.chip{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;margin:0 .25rem .2rem 0;font-size:12px;background:var(--soft)}
.chip.config{background:#ddf4ff}.chip.tokenizer{background:#fbefff}.chip.chat_template{background:#fff1e5}.chip.weights{background:#ffebe9}
.changed{background:var(--chg);font-weight:600}.add{background:var(--add)}.del{background:var(--del)}.bad{color:var(--bad);font-weight:600}
.rev{border:1px solid var(--line);border-radius:6px;padding:.5rem .8rem;margin:.6rem 0}.rev h3{margin:.1rem 0}
ul.changes{margin:.3rem 0;padding-left:1.2rem}del{background:var(--del)}ins{background:var(--add);text-decoration:none}
.callout{border:2px solid var(--bad);border-radius:6px;padding:.5rem .8rem;margin:.8rem 0;background:var(--del)}.callout ul{margin:.3rem 0}
.state.warn{border-left:4px solid var(--warn);padding:.3rem .7rem;background:var(--soft)}
table.prompt{table-layout:fixed}table.prompt td{padding:0 .3rem}table.prompt pre{margin:0;border:0;padding:.05rem .2rem;background:transparent}
table.prompt td.gap{background:var(--soft)}.ws{color:var(--muted);opacity:.8}
.snippet{margin:.2rem 0}.snippet pre.copy{margin:.1rem 0;user-select:all;-webkit-user-select:all}.badges a{text-decoration:none}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,26rem),1fr));gap:1rem;margin:.5rem 0}
figure.chart{margin:0;border:1px solid var(--line);border-radius:6px;padding:.4rem .5rem;min-width:0}figure.chart figcaption{font-weight:600;font-size:14px}figure.fit-map{grid-column:1/-1}
figure.chart svg{width:100%;height:auto;display:block;font:11px system-ui,sans-serif}
svg .tick{fill:var(--muted)}svg .grid{stroke:var(--line);stroke-width:.6}svg .axis{stroke:var(--muted)}
svg .line{fill:none;stroke-width:2}svg .pt{stroke:var(--bg);stroke-width:1.5}svg a:focus .pt,svg a:hover .pt{stroke:var(--fg);stroke-width:3}
.c0{--c:var(--c0)}.c1{--c:var(--c1)}.c2{--c:var(--c2)}svg .series .line{stroke:var(--c)}svg .series .pt{fill:var(--c)}
svg .marker line{stroke-width:1.2;stroke-dasharray:3 3}svg .marker.advisory_opened line,svg .marker.advisory_opened path{stroke:var(--bad);fill:var(--bad)}
svg .marker.advisory_closed line,svg .marker.advisory_closed path{stroke:var(--ok);fill:var(--ok)}svg .marker.force_push line,svg .marker.force_push path{stroke:var(--muted);fill:var(--muted)}
.mk.advisory_opened{color:var(--bad)}.mk.advisory_closed{color:var(--ok)}.mk.force_push{color:var(--muted)}
ul.legend{list-style:none;padding:0;margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.3rem .9rem;font-size:13px}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px;background:var(--c,var(--line))}
.fit-fits{background:var(--fit-ok)}.fit-borderline{background:var(--fit-mid)}.fit-cards{background:var(--fit-cards)}.fit-does_not_fit{background:var(--fit-no)}
table.fit-map td{font-size:13px}.since{font-size:12px;color:var(--fg)}table.fit-map td a{color:var(--fg)}.scroll{overflow-x:auto}
ul.filter{list-style:none;padding:0;margin:.3rem 0;display:flex;flex-wrap:wrap;gap:.2rem .8rem}
ol.recent{list-style:none;padding:0;margin:.4rem 0}ol.recent>li{border-bottom:1px solid var(--line);padding:.35rem 0}ol.recent time{font-size:13px;margin-right:.3rem}
.chip.behavior{background:var(--chg)}.chip.advisory-open{background:var(--del)}.chip.advisory-closed{background:var(--add)}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--line:#3d444d;--bg:#0d1117;--soft:#161b22;--add:#12351f;--del:#3c1618;--chg:#3b2e05;--acc:#58a6ff;--bad:#ff7b72;--warn:#d29922;--ok:#3fb950;--c0:#58a6ff;--c1:#f778ba;--c2:#3fb950;--fit-ok:#12351f;--fit-mid:#3b2e05;--fit-cards:#4a2508;--fit-no:#4c1619}
.chip.config{background:#0c2d4a}.chip.tokenizer{background:#2e1746}.chip.chat_template{background:#3d2210}.chip.weights{background:#3c1618}}
@media (max-width:640px){main{padding:.6rem .7rem 2rem}header{padding:.5rem .7rem;flex-wrap:wrap}table{display:block;overflow-x:auto}}
`;

/** The page frame: every page links one small stylesheet and works without JavaScript. */
export function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · hubwatch</title><link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="alternate" type="application/atom+xml" title="hubwatch advisories" href="/osv/feed.atom"></head>
<body><header><a class="brand" href="/">hubwatch</a><span class="muted">Hub model repos, revision by revision</span>
<a href="/osv/feed.atom">Atom</a><a href="/osv/modified_id.csv">OSV feed</a></header>
<main>${body}</main></body></html>`.__html;
}

export function fmtDate(d: Date | string | null | undefined): string {
  if (!d) return "";
  const date = typeof d === "string" ? new Date(d) : d;
  return Number.isNaN(date.getTime())
    ? String(d)
    : date
        .toISOString()
        .replace("T", " ")
        .replace(/:\d\d\.\d+Z$/, " UTC");
}

export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "–";
  return `${(n / 1e9).toFixed(n >= 1e11 ? 0 : 2)} GB`;
}

export function fmtCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "–";
  return n.toLocaleString("en-US");
}

export function repoPath(name: string): string {
  return `/repos/${name.split("/").map(encodeURIComponent).join("/")}`;
}
