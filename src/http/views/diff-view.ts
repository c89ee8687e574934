import { html, type SafeHtml } from "./html.ts";
import { renderTokenizerDiff, type TokenizerDiff } from "./tokenizer-view.ts";

// Renders a change's `detail` by its shape: JSON changeset, chat template diff, tensor diff, tokenizer
// summary diff; anything else as pretty JSON. All of it is repo content, so it is only ever interpolated.

type Flat = { path: string; op: string; before?: unknown; after?: unknown };
type Scenario = { name: string; before: string; after: string; changed: boolean };
type Tensor = { name: string; dtype: string; shape: number[] };

const show = (v: unknown) =>
  v === undefined ? "" : typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v, null, 1);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export function renderDetail(detail: unknown): SafeHtml {
  const d = obj(detail);
  if (!d) return detail === null || detail === undefined ? html`` : html`<pre>${show(detail)}</pre>`;
  const parts: SafeHtml[] = [];
  if (Array.isArray(d.changes)) parts.push(jsonChanges(d.changes as Flat[]));
  if (typeof d.lineDiff === "string") parts.push(templateDiff(d));
  if (Array.isArray(d.added) && Array.isArray(d.removed) && Array.isArray(d.reshaped)) parts.push(tensors(d));
  if (Array.isArray(d.fields) && obj(d.added_tokens)) parts.push(renderTokenizerDiff(d as TokenizerDiff));
  if (obj(d.after) && typeof obj(d.after)?.tensor_count === "number") parts.push(weightSummary(d));
  return parts.length ? html`${parts}` : html`<pre>${show(detail)}</pre>`;
}

/** Long tables (a re-sharded weight_map, hundreds of new tensors) fold away; still plain HTML. */
export function fold(rows: number, table: SafeHtml): SafeHtml {
  return rows > 40 ? html`<details><summary>${rows} rows</summary>${table}</details>` : table;
}

type Summary = { tensor_count: number; total_scalars: number; dtypes: Record<string, number> };

function weightSummary(d: Record<string, unknown>): SafeHtml {
  const before = obj(d.before) as Summary | null;
  const after = obj(d.after) as Summary;
  const dtypes = (s: Summary | null) =>
    s
      ? Object.entries(s.dtypes ?? {})
          .map(([k, v]) => `${k} ${v.toLocaleString("en-US")}`)
          .join(", ")
      : "";
  const row = (label: string, f: (s: Summary) => string) =>
    html`<tr><th>${label}</th><td>${before ? f(before) : "–"}</td><td>${f(after)}</td></tr>`;
  return html`<table class="weights"><thead><tr><th></th><th>Before</th><th>After</th></tr></thead><tbody>
${row("Tensors", (s) => String(s.tensor_count))}${row("Scalars", (s) => s.total_scalars.toLocaleString("en-US"))}${row("By dtype", dtypes)}</tbody></table>`;
}

function jsonChanges(changes: Flat[]): SafeHtml {
  if (changes.length === 0) return html`<p class="muted">No value changed.</p>`;
  return fold(
    changes.length,
    html`<table class="changeset"><thead><tr><th>Path</th><th>Change</th><th>Before</th><th>After</th></tr></thead><tbody>
${changes.map((c) => html`<tr><td><code>${c.path}</code></td><td>${c.op}</td><td class="del"><code>${show(c.before)}</code></td><td class="add"><code>${show(c.after)}</code></td></tr>`)}
</tbody></table>`,
  );
}

function diffLines(text: string): SafeHtml {
  return html`<pre class="diff">${text.split("\n").map((l) => {
    const cls =
      l.startsWith("+") && !l.startsWith("+++")
        ? "add"
        : l.startsWith("-") && !l.startsWith("---")
          ? "del"
          : "";
    return html`<span class="${cls}">${l}</span>\n`;
  })}</pre>`;
}

function templateDiff(d: Record<string, unknown>): SafeHtml {
  const scenarios = (Array.isArray(d.scenarios) ? d.scenarios : []) as Scenario[];
  const changed = scenarios.filter((s) => s.changed);
  return html`<h4>Template source${d.whitespaceOnly ? " (whitespace only)" : ""}</h4>
${d.lineDiff ? diffLines(String(d.lineDiff)) : html`<p class="muted">Source unchanged.</p>`}
<h4>Rendered prompts: ${d.promptChanged ? html`<span class="bad">changed</span>` : "unchanged"}</h4>
${changed.map(
  (s) => html`<h5>${s.name}</h5><table class="prompt"><tr><th>Before</th><th>After</th></tr>
<tr><td class="del"><pre>${s.before}</pre></td><td class="add"><pre>${s.after}</pre></td></tr></table>`,
)}
${scenarios.length > changed.length ? html`<p class="muted">${scenarios.length - changed.length} scenario(s) render the same.</p>` : ""}`;
}

function tensors(d: Record<string, unknown>): SafeHtml {
  const row = (kind: string, name: string, before: string, after: string) =>
    html`<tr><td>${kind}</td><td><code>${name}</code></td><td>${before}</td><td>${after}</td></tr>`;
  const fmt = (t: Tensor) => `${t.dtype} [${t.shape.join(", ")}]`;
  const rows = [
    ...(d.added as Tensor[]).map((t) => row("added", t.name, "", fmt(t))),
    ...(d.removed as Tensor[]).map((t) => row("removed", t.name, fmt(t), "")),
    ...(d.reshaped as { name: string; before: number[]; after: number[] }[]).map((t) =>
      row("reshaped", t.name, `[${t.before.join(", ")}]`, `[${t.after.join(", ")}]`),
    ),
    ...((d.retyped ?? []) as { name: string; before: string; after: string }[]).map((t) =>
      row("retyped", t.name, t.before, t.after),
    ),
  ];
  return rows.length
    ? fold(
        rows.length,
        html`<table class="tensors"><thead><tr><th>Change</th><th>Tensor</th><th>Before</th><th>After</th></tr></thead><tbody>${rows}</tbody></table>`,
      )
    : html`<p class="muted">No tensor changed.</p>`;
}
