import type { Estimate } from "../../core/estimator/estimate.ts";
import { html, type SafeHtml } from "./html.ts";
import { fmtBytes, fmtCount } from "./layout.ts";
import { estimateState } from "./states.ts";

type Est = { result: unknown; error: string | null; estimatorVersion: string } | undefined;

function asEstimate(e: Est): Estimate | null {
  const r = e?.result as Partial<Estimate> | null | undefined;
  return r && typeof r === "object" && r.params && r.memory && Array.isArray(r.fit) ? (r as Estimate) : null;
}

function cell(before: string, after: string, showBefore: boolean): SafeHtml {
  const changed = showBefore && before !== after;
  return html`<td class="num${changed ? " changed" : ""}">${after}${changed ? html`<br><span class="muted">was ${before}</span>` : ""}</td>`;
}

/** Served weight bytes, with the quantization when there is one (estimates before 1.2.0 have neither). */
function weightsText(e: Estimate): string {
  if (!e.weights) return fmtBytes(e.memory.serve.bytes);
  const q = e.quantization;
  return `${fmtBytes(e.weights.bytes)}${q ? ` (${q.method}, ${q.bits}-bit)` : ""}`;
}

/** Estimates of a revision beside its predecessor's: parameters, memory, and the card table with changed cells marked. */
export function renderEstimateComparison(
  cur: Est,
  prev: Est,
  revision: { status: string } = { status: "done" },
): SafeHtml {
  const a = asEstimate(cur);
  if (!a) return estimateState(cur, revision) ?? html`<p class="muted">No estimate.</p>`;
  const b = asEstimate(prev);
  const hasPrev = b !== null;
  const p = (e: Estimate | null, f: (e: Estimate) => string) => (e ? f(e) : "–");
  const rows: [string, (e: Estimate) => string][] = [
    ["Read as", (e) => (e.reader ? `${e.reader.family} (${e.reader.confidence})` : e.family)],
    ["Parameters", (e) => fmtCount(e.params.total)],
    ["Active parameters", (e) => fmtCount(e.params.active ?? e.params.total)],
    ["Weights", weightsText],
    ["Tied embedding", (e) => (e.params.tied_embedding ? "yes" : "no")],
    ["Serve memory", (e) => fmtBytes(e.memory.serve.bytes)],
    ["LoRA memory", (e) => fmtBytes(e.memory.lora.bytes)],
    ["Full fine-tune memory", (e) => fmtBytes(e.memory.full_finetune.bytes)],
    ["KV cache", (e) => fmtBytes(e.memory.kv_cache.bytes)],
  ];
  const summary = html`<table class="estimate"><thead><tr><th></th>${hasPrev ? html`<th>Previous</th>` : ""}<th>This revision</th></tr></thead><tbody>
${rows.map(([label, f]) => {
  const before = p(b, f);
  const after = p(a, f);
  return html`<tr><th>${label}</th>${hasPrev ? html`<td class="num">${before}</td>` : ""}${cell(before, after, hasPrev)}</tr>`;
})}</tbody></table>`;
  return html`${summary}${ggufFiles(a)}${diffusersComponents(a)}${fitTable(a, b)}<p class="muted">estimator ${cur?.estimatorVersion ?? ""}</p>`;
}

type GgufFileRow = {
  path: string;
  quant: string;
  params: number;
  weight_bytes: number;
  bits_per_weight: number;
  kv_bytes_per_token: number;
  serve_bytes: number;
};

/** Per-token figures are kilobytes (a Llama-3.1-8B token's KV cache is 131 KB), not fractions of a GB. */
const kilobytes = (bytes: number) => `${fmtCount(Math.round(bytes / 1e3))} KB`;

/** A GGUF repo's estimate: one row per quant file (exact parameters and weight bytes from its header). */
function ggufFiles(e: Estimate): SafeHtml {
  const files = (e as { gguf?: { files?: GgufFileRow[] } }).gguf?.files;
  if (!Array.isArray(files) || files.length === 0) return html``;
  return html`<table class="estimate gguf"><thead><tr><th>GGUF file</th><th>Quant</th><th>Parameters</th><th>Weights</th><th>Bits/weight</th><th>KV per token</th><th>Serve</th></tr></thead><tbody>
${files.map((f) => html`<tr><td><code>${f.path}</code></td><td>${f.quant}</td><td class="num">${fmtCount(f.params)}</td><td class="num">${fmtBytes(f.weight_bytes)}</td><td class="num">${String(f.bits_per_weight)}</td><td class="num">${kilobytes(f.kv_bytes_per_token)}</td><td class="num">${fmtBytes(f.serve_bytes)}</td></tr>`)}
</tbody></table>`;
}

type ComponentRow = {
  name: string;
  library: string;
  class: string;
  params: number | null;
  source: string;
  serve_bytes: number | null;
};

/** A diffusers pipeline's estimate: one row per component (parameters from its header, its config, or unknown). */
function diffusersComponents(e: Estimate): SafeHtml {
  const d = (e as { diffusers?: { components?: ComponentRow[]; variant?: string | null } }).diffusers;
  if (!Array.isArray(d?.components) || d.components.length === 0) return html``;
  const n = (v: number | null, f: (x: number) => string) => (v === null ? "unknown" : f(v));
  return html`<table class="estimate diffusers"><thead><tr><th>Component</th><th>Class</th><th>Parameters</th><th>Counted from</th><th>Serve (${d.variant ?? "default files"})</th></tr></thead><tbody>
${d.components.map((c) => html`<tr><td><code>${c.name}</code></td><td>${c.library}.${c.class}</td><td class="num">${n(c.params, fmtCount)}</td><td>${c.source}</td><td class="num">${n(c.serve_bytes, fmtBytes)}</td></tr>`)}
</tbody></table>`;
}

function fitTable(a: Estimate, b: Estimate | null): SafeHtml {
  const modes = [...new Set(a.fit.map((f) => f.mode))];
  const cards = [...new Set(a.fit.map((f) => f.card))];
  const text = (e: Estimate | null, card: string, mode: string) =>
    e?.fit.find((f) => f.card === card && f.mode === mode)?.text ?? "–";
  return html`<table class="fit"><thead><tr><th>Card</th>${modes.map((m) => html`<th>${m}</th>`)}</tr></thead><tbody>
${cards.map(
  (c) => html`<tr><th>${c}</th>${modes.map((m) => cell(text(b, c, m), text(a, c, m), b !== null))}</tr>`,
)}</tbody></table>`;
}
