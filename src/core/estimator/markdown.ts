/**
 * The estimate as a Markdown page shaped like the seed pages: summary, our count against the checkpoint,
 * memory, the card table, structure.
 */
import type { Estimate, FitJson } from "./estimate.ts";
import type { FitMode } from "./types.ts";

/** GB with the seeds' precision: one decimal from 10 GB, two below. */
export function formatGb(bytes: number): string {
  const gb = bytes / 1e9;
  return `${gb >= 10 ? gb.toFixed(1) : gb.toFixed(2)} GB`;
}

/** Parameter counts as 4.02B / 152M / 22.7M / 4.39K. */
export function formatParams(n: number): string {
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (n >= size) return `${Number((n / size).toPrecision(3))}${suffix}`;
  }
  return String(n);
}

/** Signed percentage: two decimals below 10%, one above (seed style). */
export function formatDelta(delta: number): string {
  const pct = delta * 100;
  const s = Math.abs(pct) < 10 ? pct.toFixed(2) : pct.toFixed(1);
  return `${pct >= 0 && !s.startsWith("-") ? "+" : ""}${s}%`;
}

const int = (n: number) => n.toLocaleString("en-US");

function firstCard(fit: FitJson[], mode: FitMode): string {
  const rows = fit.filter((r) => r.mode === mode);
  const one = rows.find((r) => r.verdict === "fits" || r.verdict === "borderline");
  if (one) return one.verdict === "borderline" ? `borderline on one ${one.card}` : `fits one ${one.card}`;
  const split = rows.find((r) => r.verdict === "cards");
  if (split) return `${split.text} of ${split.card}`;
  return `does not fit at batch 1 on two ${rows.at(-1)?.card ?? "cards"}`;
}

function checkpointSection(e: Estimate): string[] {
  const c = e.checkpoint;
  const lines = [
    "## Our count against the checkpoint",
    "",
    `Derived from structure: **${formatParams(e.params.total)}** (${int(e.params.total)} parameters)`,
  ];
  if (!c) return [...lines, "", "No checkpoint header was given."];
  lines.push(
    `In the published checkpoint: **${formatParams(c.compared_total)}** (${int(c.stored_total)} scalars, ${c.source === "headers" ? "safetensors headers" : "index total_size"})`,
  );
  lines.push(`Delta: **${formatDelta(c.delta)}**`);
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
      `Quantization: ${c.quantization.method}, ${c.quantization.bytes_per_weight.toFixed(3)} bytes per quantized weight.`,
    );
  return lines;
}

/** " (X GB with the LM-head logits)" when the model has logits to count. */
function withLogits(bytes: number, without: number): string {
  return bytes > without ? ` (${formatGb(bytes)} with the LM-head logits)` : "";
}

function towersNote(e: Estimate): string[] {
  const towers = Object.entries(e.params.towers);
  if (towers.length < 2) return [];
  const list = towers.map(([name, n]) => `${name} ${formatParams(n)}`).join(", ");
  return [
    "",
    `multi-tower: the graph carries ${towers.length} towers (${list}), each at its own sequence length.`,
  ];
}

function cardTable(e: Estimate): string[] {
  const serve = e.memory.kv_cache.tokens;
  const lines = [`| Card | Full fine-tune | LoRA r=16 | Serve bf16, ${serve} tokens |`, "|---|---|---|---|"];
  const cards = [...new Set(e.fit.map((r) => r.card))];
  for (const card of cards) {
    const cell = (m: FitMode) => e.fit.find((r) => r.card === card && r.mode === m)?.text ?? "";
    lines.push(`| ${card} | ${cell("full_finetune")} | ${cell("lora")} | ${cell("serve")} |`);
  }
  return lines;
}

function memorySection(e: Estimate, full: number, lora: number): string[] {
  const m = e.memory;
  const train = m.full_finetune.tokens;
  return [
    "## Memory: what fits on which card",
    "",
    `Training is sized at ${train} tokens per sample, serving at ${m.kv_cache.tokens} tokens per sequence.`,
    "",
    `- Full fine-tune, batch 1 at ${train} tokens: ${formatGb(full)}${withLogits(m.full_finetune.bytes, full)}`,
    `- LoRA r=16, batch 1 at ${train} tokens: ${formatGb(lora)}${withLogits(m.lora.bytes, lora)}; ${int(m.lora_params)} adapter parameters`,
    `- Serve: bf16 weights: ${formatGb(m.serve.bytes)}`,
    `- Serve: KV cache, ${m.kv_cache.tokens} tokens: ${formatGb(m.kv_cache.bytes)}`,
    "",
    ...cardTable(e),
    "",
    "Usable memory is the card's capacity / 1.15. Borderline: holds batch 1 on the estimate but not the estimate x 1.43. A two-card split is a contiguous layer cut, computed for full fine-tunes that one card cannot hold. Verdicts use the seed rules (logits not counted).",
  ];
}

function structureSection(e: Estimate): string[] {
  const out = ["## Structure", "", `${e.structure.length} nodes, batch dimension excluded.`, ""];
  out.push("| # | Layer | Type | Output shape | Params |", "|---:|---|---|---|---:|");
  e.structure.forEach((n, i) => {
    const params = n.tied_to ? `tied to ${n.tied_to}` : int(n.params);
    out.push(`| ${i + 1} | ${n.name} | ${n.type} | ${n.shape.join(" × ")} | ${params} |`);
  });
  return out;
}

/** Render the page; `name` is the model's display name (e.g. "Qwen/Qwen3-4B"). */
export function renderMarkdown(e: Estimate, name: string): string {
  const m = e.memory;
  const full = m.full_finetune.bytes_without_logits ?? m.full_finetune.bytes;
  const lora = m.lora.bytes_without_logits ?? m.lora.bytes;
  const summary = `Fine-tuning ${name} at batch 1 and ${m.full_finetune.tokens} tokens takes about ${formatGb(full)} of GPU memory for a full fine-tune (${firstCard(e.fit, "full_finetune")}), and ${formatGb(lora)} with LoRA r=16 on a bf16 base (${firstCard(e.fit, "lora")}). Estimated from the model's structure, not measured.`;
  const out = [
    `# ${name}: GPU memory to fine-tune`,
    "",
    `Models / ${e.model_type || e.family} (read as ${e.family}; estimator ${e.estimator_version})`,
    "",
    summary,
    "",
    ...checkpointSection(e),
    ...towersNote(e),
    "",
    ...memorySection(e, full, lora),
  ];
  if (e.warnings.length > 0) out.push("", "## Warnings", "", ...e.warnings.map((w) => `- ${w}`));
  out.push("", ...structureSection(e));
  return `${out.join("\n")}\n`;
}
