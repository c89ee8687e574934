import { formatParams } from "../badge/format.ts";
import type { EstimateChange, StateValue } from "./types.ts";

const KIND_TITLES: Record<EstimateChange["kind"], string> = {
  params_total: "Parameter count",
  tied_embedding_storage: "Tied embedding stored twice",
  fit_verdict: "Fit verdict",
  fit_batch: "Largest batch",
  prompt: "Rendered prompt",
  eos_token: "EOS token",
  bos_token: "BOS token",
  pad_token: "PAD token",
  added_special_tokens: "Added special tokens",
  context_length: "Context length / RoPE",
  generation_defaults: "Generation defaults",
  torch_dtype: "torch_dtype",
  embedding: "Embedding output (pooling, normalisation, dimension, max length)",
};

/**
 * One-line summary and Markdown details for an advisory (or a change report): every change
 * with its before/after value, shas as given (full length).
 */
export function describeChanges(input: {
  repo: string;
  introduced: string;
  parent: string | null;
  changes: EstimateChange[];
}): { summary: string; details: string } {
  const { repo, introduced, parent, changes } = input;
  const rows = changes.map((c) =>
    c.summary === undefined
      ? `| ${KIND_TITLES[c.kind]} | ${cell(keyLabel(c.key))} | ${cell(show(c, c.before))} | ${cell(show(c, c.after))} |`
      : `| ${KIND_TITLES[c.kind]} | ${cell(c.summary)} | | |`,
  );
  const from = parent ? `from \`${parent}\` ` : "";
  const behaves = changes.some((c) => c.summary !== undefined);
  const what = behaves
    ? "how the model behaves or what it needs"
    : "what the model needs or how it is stored";
  const details = [
    `Revision \`${introduced}\` of ${repo} changed ${from}${what}:`,
    "",
    "| change | what | before | after |",
    "| --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
  return { summary: summarize(repo, changes), details };
}

function summarize(repo: string, changes: EstimateChange[]): string {
  const parts: string[] = [];
  const params = changes.find((c) => c.kind === "params_total");
  if (params) parts.push(`parameters ${show(params, params.before)} -> ${show(params, params.after)}`);
  const tied = changes.find((c) => c.kind === "tied_embedding_storage");
  if (tied) parts.push(tied.after ? "tied embedding now stored twice" : "tied embedding now stored once");
  const verdicts = changes.filter((c) => c.kind === "fit_verdict").length;
  if (verdicts > 0) parts.push(`${verdicts} fit verdict${verdicts === 1 ? "" : "s"} changed`);
  const batches = changes.filter((c) => c.kind === "fit_batch").length;
  if (batches > 0) parts.push(`${batches} batch size${batches === 1 ? "" : "s"} changed`);
  for (const c of changes) if (c.summary !== undefined) parts.push(c.summary);
  return `${repo}: ${parts.join("; ") || "estimate changed"}`;
}

/** "fit:A100 80 GB:lora" -> "A100 80 GB, lora". */
function keyLabel(key: string): string {
  const parts = key.split(":");
  if (parts[0] === "fit") return parts.slice(1).join(", ");
  return key;
}

function show(c: EstimateChange, v: StateValue): string {
  if (v === null) return "(none)";
  if (c.kind === "params_total" && typeof v === "number") return `${formatParams(v)} (${v})`;
  return String(v);
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
