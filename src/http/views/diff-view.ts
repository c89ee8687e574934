import { type ChangeDetail, readChangeDetail } from "../../core/diff/change-detail.ts";
import { describePromptVerdict } from "../../core/diff/chat-diff.ts";
import type { FlatChange } from "../../core/diff/json.ts";
import type { TensorInfo, WeightsSummary } from "../../core/diff/weights.ts";
import { fold, html, type SafeHtml } from "./html.ts";
import { renderPromptDiff } from "./prompt-diff.ts";
import { renderTokenizerDiff } from "./tokenizer-view.ts";

// Renders a change's `detail` by its `type` tag (core/diff/change-detail.ts); an untagged detail (a row
// from before details were tagged) as pretty JSON. All of it is repo content, so it is only ever interpolated.

type Detail<T extends ChangeDetail["type"]> = Extract<ChangeDetail, { type: T }>;

const show = (v: unknown) =>
  v === undefined ? "" : typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v, null, 1);

export function renderDetail(stored: unknown): SafeHtml {
  if (stored === null || stored === undefined) return html``;
  const d = readChangeDetail(stored);
  if (!d) return html`<pre>${show(stored)}</pre>`;
  switch (d.type) {
    case "json":
      return jsonChanges(d.changes);
    case "invalid_json":
      return html`<p class="bad">Not valid JSON ${d.side === "after" ? "in this revision" : "before"}.</p>`;
    case "tokenizer":
      return renderTokenizerDiff(d);
    case "chat_template":
      return templateDiff(d);
    case "weights":
      return html`${tensors(d)}${weightSummary(d.before, d.after)}`;
    case "weights_added":
      return weightSummary(null, d.after);
    case "weights_removed":
      return html`<p class="muted">Weights removed (${d.before.tensor_count} tensors).</p>`;
    case "gguf_file":
      return ggufFile(d);
    case "gguf_remade":
      return ggufRemade(d);
    case "component_swap":
      return componentSwap(d);
  }
}

function componentSwap(d: Detail<"component_swap">): SafeHtml {
  const ref = (c: Detail<"component_swap">["before"]) => (c ? `${c.library}.${c.class}` : "none");
  return html`<p>Pipeline component <code>${d.component}</code>: <span class="del">${ref(d.before)}</span> -> <span class="add">${ref(d.after)}</span>.</p>`;
}

function ggufFile(d: Detail<"gguf_file">): SafeHtml {
  const types = Object.entries(d.tensor_types)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
  return html`<p>GGUF ${d.quant}: ${d.params.toLocaleString("en-US")} parameters, ${d.weight_bytes.toLocaleString("en-US")} weight bytes; tensors by type: ${types}.</p>`;
}

function ggufRemade(d: Detail<"gguf_remade">): SafeHtml {
  const rows = [
    ...d.retyped.map(
      (t) =>
        html`<tr><td><code>${t.name}</code></td><td>retyped</td><td class="del">${t.before}</td><td class="add">${t.after}</td></tr>`,
    ),
    ...d.reshaped.map(
      (t) =>
        html`<tr><td><code>${t.name}</code></td><td>reshaped</td><td class="del">${t.before.join(" x ")}</td><td class="add">${t.after.join(" x ")}</td></tr>`,
    ),
    ...d.added.map((n) => html`<tr><td><code>${n}</code></td><td>added</td><td></td><td></td></tr>`),
    ...d.removed.map((n) => html`<tr><td><code>${n}</code></td><td>removed</td><td></td><td></td></tr>`),
  ];
  const params = html`<p>Parameters ${d.params.before.toLocaleString("en-US")} -> ${d.params.after.toLocaleString("en-US")}.</p>`;
  const table = fold(
    rows.length,
    html`<table class="changeset"><thead><tr><th>Tensor</th><th>Change</th><th>Before</th><th>After</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
  return html`${params}${rows.length > 0 ? table : ""}${d.metadata.length > 0 ? jsonChanges(d.metadata) : ""}`;
}

type Summary = WeightsSummary;

function weightSummary(before: Summary | null, after: Summary): SafeHtml {
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

function jsonChanges(changes: FlatChange[]): SafeHtml {
  if (changes.length === 0) return html`<p class="muted">No value changed.</p>`;
  return fold(
    changes.length,
    html`<table class="changeset"><thead><tr><th>Path</th><th>Change</th><th>Before</th><th>After</th></tr></thead><tbody>
${changes.map((c) => html`<tr><td><code>${c.path}</code></td><td>${c.op}</td><td class="del"><code>${show(c.before)}</code></td><td class="add"><code>${show(c.after)}</code></td></tr>`)}
</tbody></table>`,
  );
}

function diffLines(text: string): SafeHtml {
  // The patch's "Index:" and "=====" header lines say nothing a reader needs.
  const lines = text.split("\n").filter((l) => !/^(={5,}|Index: )/.test(l));
  return html`<pre class="diff">${lines.map((l) => {
    const cls =
      l.startsWith("+") && !l.startsWith("+++")
        ? "add"
        : l.startsWith("-") && !l.startsWith("---")
          ? "del"
          : "";
    return html`<span class="${cls}">${l}</span>\n`;
  })}</pre>`;
}

function templateDiff(d: Detail<"chat_template">): SafeHtml {
  const scenarios = d.scenarios;
  const changed = scenarios.filter((s) => s.changed);
  const verdict = describePromptVerdict(d);
  const same = scenarios.filter((s) => !s.changed && !s.beforeError).length;
  return html`<h4>Template source${d.whitespaceOnly ? " (whitespace only)" : ""}</h4>
${d.lineDiff ? diffLines(d.lineDiff) : html`<p class="muted">Source unchanged.</p>`}
<h4>Rendered prompts: ${d.prompt.verdict === "changed" ? html`<span class="bad">${verdict}</span>` : verdict}</h4>
${changed.map((s) => html`<h5>${s.name}</h5>${renderPromptDiff(s.before, s.after)}`)}
${same > 0 ? html`<p class="muted">${same} scenario(s) render the same.</p>` : ""}`;
}

function tensors(d: Detail<"weights">): SafeHtml {
  const row = (kind: string, name: string, before: string, after: string) =>
    html`<tr><td>${kind}</td><td><code>${name}</code></td><td>${before}</td><td>${after}</td></tr>`;
  const fmt = (t: TensorInfo) => `${t.dtype} [${t.shape.join(", ")}]`;
  const rows = [
    ...d.added.map((t) => row("added", t.name, "", fmt(t))),
    ...d.removed.map((t) => row("removed", t.name, fmt(t), "")),
    ...d.reshaped.map((t) => row("reshaped", t.name, `[${t.before.join(", ")}]`, `[${t.after.join(", ")}]`)),
    ...d.retyped.map((t) => row("retyped", t.name, t.before, t.after)),
  ];
  return rows.length
    ? fold(
        rows.length,
        html`<table class="tensors"><thead><tr><th>Change</th><th>Tensor</th><th>Before</th><th>After</th></tr></thead><tbody>${rows}</tbody></table>`,
      )
    : html`<p class="muted">No tensor changed.</p>`;
}
