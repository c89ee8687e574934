import { formatParams } from "../../core/badge/format.ts";
import {
  type ChartAdvisory,
  type ChartEstimate,
  type ChartRevision,
  cellKey,
  fitMap,
  historyMarkers,
  type LineLayout,
  layoutLineChart,
  markedPoints,
  memorySeries,
  revisionTimes,
  type Series,
  sizeSeries,
} from "../../core/chart/index.ts";
import { html, type SafeHtml } from "./html.ts";

// The repo page's history charts as inline SVG (no script, no font, no inline style: colours come
// from the stylesheet, so dark mode applies): parameters, weight bytes, memory per mode, and the fit
// map of the head revision. Each point links to its revision and names it in a <title>.

type Rev = { id: number; sha: string; committedAt: Date | null; forcePushedAway: boolean };
type Est = { result: unknown } | undefined;

type ChartInput = {
  repoPath: string;
  /** Newest first, as the page lists them. */
  revisions: Rev[];
  estimates: Map<number, Est>;
  advisories: ChartAdvisory[];
};

function chartEstimate(e: Est): ChartEstimate | null {
  const r = e?.result as Partial<ChartEstimate> | null | undefined;
  return r?.params && r.memory && Array.isArray(r.fit) ? (r as ChartEstimate) : null;
}

/** The revisions oldest first with their stored estimates, as the chart geometry reads them. */
function chartRevisions(revisions: Rev[], estimates: Map<number, Est>): ChartRevision[] {
  return [...revisions].reverse().map((r) => ({
    sha: r.sha,
    at: r.committedAt ? r.committedAt.getTime() : null,
    forcePushedAway: r.forcePushedAway,
    estimate: chartEstimate(estimates.get(r.id)),
  }));
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Bytes as GB with three significant digits ("19.7 GB", "0 GB"): short enough for an axis. */
const gb = (n: number) => `${Number((n / 1e9).toPrecision(3))} GB`;

function lineChart(
  id: string,
  title: string,
  l: LineLayout,
  fmt: (v: number) => string,
  base: string,
  isTime: boolean,
): SafeHtml {
  const { width: w, height: h, left, right, top, bottom } = l.box;
  const yAxis = l.yTicks.map(
    (t) =>
      html`<line class="grid" x1="${left}" x2="${w - right}" y1="${t.y}" y2="${t.y}"/><text class="tick" x="${left - 5}" y="${t.y + 4}" text-anchor="end">${fmt(t.value)}</text>`,
  );
  const xAxis = l.xTicks.map(
    (t, i) =>
      html`<text class="tick" x="${t.x}" y="${h - bottom + 16}" text-anchor="${i === 0 ? "start" : i === l.xTicks.length - 1 ? "end" : "middle"}">${isTime ? day(t.at) : `#${Math.round(t.at) + 1}`}</text>`,
  );
  const markers = l.markers.map(
    (m) =>
      html`<g class="marker ${m.kind}"><line x1="${m.x}" x2="${m.x}" y1="${top}" y2="${h - bottom}"/><path d="M${m.x - 5} ${h - bottom}h10l-5 -8z"><title>${m.label}</title></path></g>`,
  );
  const series = l.series.map(
    (s, i) =>
      html`<g class="series c${i}"><path class="line" d="${s.path}"/>${markedPoints(s.points).map(
        (p) =>
          html`<a href="${base}/revisions/${p.sha}" aria-label="${s.label} ${fmt(p.value)} at ${p.sha.slice(0, 12)}"><circle class="pt" cx="${p.x}" cy="${p.y}" r="4" data-series="${s.key}" data-sha="${p.sha}" data-value="${p.value}"><title>${p.sha.slice(0, 12)}: ${s.label} ${fmt(p.value)}</title></circle></a>`,
      )}</g>`,
  );
  const legend = l.series.map((s, i) => html`<li><span class="swatch c${i}"></span>${s.label}</li>`);
  return html`<figure class="chart" id="${id}"><figcaption>${title}</figcaption>
<svg viewBox="0 0 ${w} ${h}" role="group" aria-label="${title}, one point per revision" preserveAspectRatio="xMidYMid meet">
${yAxis}<line class="axis" x1="${left}" x2="${w - right}" y1="${h - bottom}" y2="${h - bottom}"/>${xAxis}${markers}${series}</svg>
${l.series.length > 1 ? html`<ul class="legend">${legend}</ul>` : ""}</figure>`;
}

function fitMapTable(revs: ChartRevision[], base: string): SafeHtml {
  const map = fitMap(revs);
  if (!map) return html``;
  const modeName = (m: string) => m.replace("full_finetune", "full fine-tune").replace("lora", "LoRA");
  const rows = map.cards.map(
    (card) =>
      html`<tr><th scope="row">${card}</th>${map.modes.map((mode) => {
        const c = map.cells.get(cellKey(card, mode));
        if (!c) return html`<td>–</td>`;
        return html`<td class="fit-${c.verdict}">${c.text || c.verdict.replaceAll("_", " ")}<br><span class="since">since <a href="${base}/revisions/${c.since}"><code>${c.since.slice(0, 7)}</code></a></span></td>`;
      })}</tr>`,
  );
  return html`<figure class="chart fit-map" id="fit-map"><figcaption>Fit map at <a href="${base}/revisions/${map.head}"><code>${map.head.slice(0, 12)}</code></a>: each card and mode, and the revision since which it reads so</figcaption>
<div class="scroll"><table class="fit-map"><thead><tr><th scope="col">Card</th>${map.modes.map((m) => html`<th scope="col">${modeName(m)}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>
<ul class="legend"><li><span class="swatch fit-fits"></span>fits</li><li><span class="swatch fit-borderline"></span>borderline</li><li><span class="swatch fit-cards"></span>needs several cards</li><li><span class="swatch fit-does_not_fit"></span>does not fit</li></ul></figure>`;
}

/** The charted values as a table (folded): for screen readers, and to copy numbers from. */
function valuesTable(size: Series[], memory: Series[], base: string): SafeHtml {
  const all = [...size, ...memory];
  const shas = [...new Set(all.flatMap((s) => s.points.map((p) => p.sha)))].reverse();
  const value = (s: Series, sha: string) => s.points.find((p) => p.sha === sha)?.value;
  const fmt = (s: Series, v: number | undefined) =>
    v === undefined ? "–" : s.key === "params" ? formatParams(v) : gb(v);
  return html`<details class="chart-values"><summary>Charted values (${shas.length} revisions)</summary><div class="scroll"><table>
<thead><tr><th scope="col">Revision</th>${all.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead><tbody>
${shas.map((sha) => html`<tr><th scope="row"><a href="${base}/revisions/${sha}"><code>${sha.slice(0, 12)}</code></a></th>${all.map((s) => html`<td class="num">${fmt(s, value(s, sha))}</td>`)}</tr>`)}
</tbody></table></div></details>`;
}

const hasPoints = (series: Series[]) => series.some((s) => s.points.length > 0);

/** The history section: size and memory charts over revisions, markers, and the fit map. */
export function renderHistoryCharts(d: ChartInput): SafeHtml {
  const revs = chartRevisions(d.revisions, d.estimates);
  const size = sizeSeries(revs);
  if (!hasPoints(size)) return html`<p class="muted">No estimate yet, so nothing to chart.</p>`;
  const { isTime } = revisionTimes(revs);
  const markers = historyMarkers(revs, d.advisories);
  const chart = (id: string, title: string, series: Series[], fmt: (v: number) => string) =>
    hasPoints(series) ? lineChart(id, title, layoutLineChart(series, markers), fmt, d.repoPath, isTime) : "";
  const [params, weights] = size as [Series, Series];
  const memory = memorySeries(revs);
  return html`<div class="charts">
${chart("chart-params", "Parameters", [params], formatParams)}
${chart("chart-weights", "Weight bytes", [weights], gb)}
${chart("chart-memory", "Memory per mode", memory, gb)}
${fitMapTable(revs, d.repoPath)}</div>
${valuesTable(size, memory, d.repoPath)}
${markers.length ? html`<p class="legend-markers muted"><span class="mk advisory_opened">▲</span> advisory opened <span class="mk advisory_closed">▲</span> advisory closed <span class="mk force_push">▲</span> force-pushed away</p>` : ""}`;
}
