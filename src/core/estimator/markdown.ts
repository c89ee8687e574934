/**
 * The estimate as a Markdown page shaped like the seed pages: how the model was read, the summary, parameters
 * (active ones for MoE) and weights, our count against the checkpoint, memory and the card table, the
 * assumptions, warnings, and the structure (folded unless `full`).
 */
import type { Estimate, FitJson } from "./estimate-json.ts";
import { formatDelta, formatGb, formatParams, int } from "./markdown-format.ts";
import { structureSection } from "./markdown-structure.ts";
import type { FitMode } from "./types.ts";

export { formatDelta, formatGb, formatParams } from "./markdown-format.ts";

function firstCard(fit: FitJson[], mode: FitMode): string {
  const rows = fit.filter((r) => r.mode === mode);
  const one = rows.find((r) => r.verdict === "fits" || r.verdict === "borderline");
  if (one) return one.verdict === "borderline" ? `borderline on one ${one.card}` : `fits one ${one.card}`;
  const split = rows.find((r) => r.verdict === "cards");
  if (split) return `${split.text} of ${split.card}`;
  return `does not fit at batch 1 on two ${rows.at(-1)?.card ?? "cards"}`;
}

function readingLine(e: Estimate): string {
  const version = `estimator ${e.estimator_version}`;
  if (e.reader.confidence === "known")
    return `Read by the **${e.reader.family}** reader (known family; model_type ${e.model_type || "none"}), ${version}.`;
  if (e.structure.length === 0)
    return `**No reader could read this config** (model_type ${e.model_type || "none"}): parameters and weights come from the safetensors headers, and what needs the structure is missing. ${version}.`;
  return `**Generic reading**: model_type ${e.model_type || "none"} has no reader, so the structure is guessed from the usual keys (see the warnings). Treat KV cache, activations and splits as rough. ${version}.`;
}

function paramsLines(e: Estimate): string[] {
  const p = e.params;
  const active =
    p.active < p.total
      ? `; **${formatParams(p.active)}** active per token (${int(p.active)}: routed top-k experts and the shared parts)`
      : "";
  const lines = [`Parameters: **${formatParams(p.total)}** (${int(p.total)})${active}.`];
  const w = e.weights;
  const dtypes = Object.entries(w.by_dtype)
    .map(([d, b]) => `${d} ${formatGb(b)}`)
    .join(", ");
  const q = e.quantization;
  const quant = q
    ? `; quantized: ${q.method}, ${q.bits}-bit${q.group_size ? `, group ${q.group_size}` : ""}`
    : "";
  lines.push(
    `Weights: **${formatGb(w.bytes)}** to serve (${w.source === "headers" ? "safetensors headers" : "from the config"}: ${dtypes}${quant}).`,
  );
  return lines;
}

function checkpointSection(e: Estimate): string[] {
  const c = e.checkpoint;
  const lines = ["## Our count against the checkpoint", ""];
  lines.push(
    e.params.derived === null
      ? "Derived from structure: not read."
      : `Derived from structure: **${formatParams(e.params.derived)}** (${int(e.params.derived)} parameters)`,
  );
  if (!c) return [...lines, "", "No checkpoint header was given."];
  if (c.delta_basis === "bytes") {
    lines.push(
      `In the published checkpoint: **${formatGb(c.stored_bytes)}** (index total_size; a quantized checkpoint's parameter count is not in the index)`,
      `Expected from the structure and quantization_config: ${formatGb(c.expected_bytes ?? 0)}; delta **${formatDelta(c.delta)}**`,
    );
    return lines;
  }
  lines.push(
    `In the published checkpoint: **${formatParams(c.compared_total)}** (${int(c.stored_total)} scalars, ${c.source === "headers" ? "safetensors headers" : "index total_size"})`,
    `Delta: **${formatDelta(c.delta)}**`,
  );
  if (c.tied_embedding_stored_twice) {
    const names = (c.tied_tensors ?? []).map((n) => `\`${n}\``).join(" and ");
    lines.push(
      "",
      `stored twice: the checkpoint stores the tied embedding twice: +${formatParams(c.extra_scalars)} (${names}, ${(c.tied_shape ?? []).join(" x ")}). The model has one such matrix and the count above has it once; the delta compares that count plus the second copy against the file.`,
    );
  }
  if (c.buffers.length > 0) {
    const sum = c.buffers.reduce((a, b) => a + b.scalars, 0);
    lines.push(
      "",
      `Buffers set aside (not parameters): ${c.buffers.length} tensors, ${int(sum)} scalars (e.g. \`${c.buffers[0]!.name}\`).`,
    );
  }
  const dtypes = Object.entries(c.dtypes)
    .map(([d, n]) => `${d} ${formatParams(n)}`)
    .join(", ");
  lines.push("", `Stored dtypes: ${dtypes}.`);
  if (c.quantization)
    lines.push(
      `Quantization: ${c.quantization.method}, ${c.quantization.bytes_per_weight.toFixed(3)} bytes per quantized weight (scales included).`,
    );
  return lines;
}

/** " (X GB with the LM-head logits)" when the model has logits to count. */
function withLogits(bytes: number, without: number): string {
  return bytes > without ? ` (${formatGb(bytes)} with the LM-head logits)` : "";
}

function cardTable(e: Estimate): string[] {
  const serve = e.memory.kv_cache.tokens;
  const lines = [`| Card | Full fine-tune | LoRA r=16 | Serve, ${serve} tokens |`, "|---|---|---|---|"];
  const cards = [...new Set(e.fit.map((r) => r.card))];
  for (const card of cards) {
    const cell = (m: FitMode) => e.fit.find((r) => r.card === card && r.mode === m)?.text ?? "-";
    lines.push(`| ${card} | ${cell("full_finetune")} | ${cell("lora")} | ${cell("serve")} |`);
  }
  return lines;
}

function memorySection(e: Estimate, full: number, lora: number): string[] {
  const m = e.memory;
  const train = m.full_finetune.tokens;
  const base = e.quantization ? "quantized base (QLoRA)" : "bf16 base";
  return [
    "## Memory: what fits on which card",
    "",
    `Training is sized at ${train} tokens per sample, serving at ${m.kv_cache.tokens} tokens per sequence.`,
    "",
    `- Full fine-tune, batch 1 at ${train} tokens: ${formatGb(full)}${withLogits(m.full_finetune.bytes, full)}`,
    `- LoRA r=16 on a ${base}, batch 1 at ${train} tokens: ${formatGb(lora)}${withLogits(m.lora.bytes, lora)}; ${int(m.lora_params)} adapter parameters`,
    `- Serve: weights: ${formatGb(m.serve.bytes)}`,
    `- Serve: KV cache, ${m.kv_cache.tokens} tokens: ${formatGb(m.kv_cache.bytes)}`,
    "",
    ...cardTable(e),
  ];
}

function assumptions(e: Estimate): string[] {
  const train = e.memory.full_finetune.tokens;
  const q = e.quantization;
  return [
    "## Assumptions",
    "",
    `Training: ${train} tokens per sample (2048, or the model's context when shorter), AdamW with bf16 autocast, SDPA attention (no score matrix stored), 1.15x headroom on every card. A full fine-tune holds weights, gradients and AdamW state in fp32 (1.2 x 16 bytes per parameter) plus bf16 activations${q ? "; this quantized checkpoint is costed dequantized" : ""}. LoRA is r=16 on every linear layer but the heads (attention, MLP and expert projections), the base frozen ${q ? "as stored (QLoRA)" : "in bf16 (2 bytes per parameter)"}, adapters with full AdamW state, same activations. The LM-head logits (fp32, and their gradient) are in the training totals but not in the verdicts (the seed rules). Serving: the weights as stored (float32 served at 2 bytes) plus the KV cache of ${e.memory.kv_cache.tokens} tokens per sequence. Borderline: the card holds batch 1 on the estimate but not on the estimate x 1.43. A two-card split is a contiguous cut between layers (pipeline parallel), computed only for full fine-tunes one card cannot hold. Not counted: the CUDA context, the allocator's reserve, the prefill working set, framework buffers.`,
  ];
}

function missingSection(e: Estimate): string[] {
  if (!e.missing || e.missing.length === 0) return [];
  return ["", "## Missing", "", ...e.missing.map((m) => `- ${m.figure}: ${m.why}`)];
}

/** Render the page; `name` is the model's display name (e.g. "Qwen/Qwen3-4B"). `full`: every structure node. */
export function renderMarkdown(e: Estimate, name: string, opts: { full?: boolean } = {}): string {
  const m = e.memory;
  const full = m.full_finetune.bytes_without_logits ?? m.full_finetune.bytes;
  const lora = m.lora.bytes_without_logits ?? m.lora.bytes;
  const summary = `Fine-tuning ${name} at batch 1 and ${m.full_finetune.tokens} tokens takes about ${formatGb(full)} of GPU memory for a full fine-tune (${firstCard(e.fit, "full_finetune")}), and ${formatGb(lora)} with LoRA r=16 on a ${e.quantization ? "quantized" : "bf16"} base (${firstCard(e.fit, "lora")}). Serving takes ${formatGb(m.serve.bytes)} of weights (${firstCard(e.fit, "serve")}). Estimated from the model's structure, not measured.`;
  const out = [
    `# ${name}: GPU memory to fine-tune and serve`,
    "",
    readingLine(e),
    "",
    summary,
    "",
    ...paramsLines(e),
    "",
    ...checkpointSection(e),
    ...missingSection(e),
    "",
    ...memorySection(e, full, lora),
    "",
    ...assumptions(e),
  ];
  if (e.warnings.length > 0) out.push("", "## Warnings", "", ...e.warnings.map((w) => `- ${w}`));
  out.push("", ...structureSection(e, opts.full === true));
  return `${out.join("\n")}\n`;
}
