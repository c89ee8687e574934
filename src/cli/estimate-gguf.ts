/**
 * `hubwatch estimate` on GGUF: a local FILE.gguf, a folder of .gguf files, or a Hub repo whose weights are
 * .gguf files. Only headers are read (@huggingface/gguf: the local file by chunks, the Hub by Range
 * requests); the estimate is one per quant file (estimator/gguf), printed as a per-file table.
 */
import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { gguf } from "@huggingface/gguf";
import type { GgufEstimate } from "../core/estimator/gguf/repo-estimate.ts";
import type { GgufHeader } from "../core/estimator/gguf/types.ts";
import { formatGb, formatParams } from "../core/estimator/markdown.ts";
import { type HubOptions, listTree, readGgufHeader, summarizeGguf } from "../hub/index.ts";
import type { RepoRef } from "./estimate-hub.ts";

export const isGgufFile = (path: string) => path.endsWith(".gguf");

/** A local GGUF file's header; a file that is not GGUF throws with the parser's reason. */
export async function readLocalGguf(path: string): Promise<GgufHeader> {
  const size = (await stat(path)).size;
  try {
    return summarizeGguf(await gguf(path, { allowLocalFile: true }), size);
  } catch (err) {
    throw new Error(
      `${path}: not a readable GGUF file (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

/** Every .gguf file of a local folder, by name. */
export async function readLocalGgufFolder(dir: string, names: string[]): Promise<[string, GgufHeader][]> {
  const out: [string, GgufHeader][] = [];
  for (const n of names.filter(isGgufFile).sort()) out.push([n, await readLocalGguf(join(dir, n))]);
  return out;
}

/** The headers of a Hub repo's .gguf files, or null when it is not a GGUF repo (no .gguf, or safetensors). */
export async function readHubGguf(ref: RepoRef, hub: HubOptions): Promise<[string, GgufHeader][] | null> {
  const args = { ...hub, repo: ref.repo, sha: ref.revision };
  const tree = await listTree(args);
  const files = tree.filter((f) => isGgufFile(f.path)).map((f) => f.path);
  if (files.length === 0 || tree.some((f) => f.path.endsWith(".safetensors"))) return null;
  const out: [string, GgufHeader][] = [];
  for (const path of files.sort()) out.push([path, await readGgufHeader({ ...args, path })]);
  return out;
}

/** The display name of a local GGUF path. */
export function ggufName(path: string): string {
  return basename(path);
}

/** Per-file lines: quant, exact parameters and weight bytes, KV per token, and the first card each fits. */
export function ggufSummary(e: GgufEstimate, name: string): string {
  const lines = [`${name}: GGUF, ${e.model_type}, ${e.gguf.files.length} file(s)`];
  for (const f of e.gguf.files) {
    const fits = f.fit.find((r) => r.verdict === "fits" || r.verdict === "borderline");
    lines.push(
      `  ${f.path}: ${f.quant}, ${formatParams(f.params)} parameters (${f.params}), weights ${f.weight_bytes} bytes (${formatGb(f.weight_bytes)}, ${f.bits_per_weight} bits/weight), KV ${f.kv_bytes_per_token} bytes/token, serve ${formatGb(f.serve_bytes)} at ${f.kv_cache.tokens} tokens: ${fits ? `fits ${fits.card}` : "no listed card"}`,
    );
  }
  const cards = [...new Set(e.fit.map((r) => r.card))];
  lines.push(`  ${"card".padEnd(18)} ${e.gguf.files.map((f) => f.quant.padEnd(22)).join(" ")}`);
  for (const card of cards) {
    const cells = e.gguf.files.map((f) => (f.fit.find((r) => r.card === card)?.text ?? "-").padEnd(22));
    lines.push(`  ${card.padEnd(18)} ${cells.join(" ")}`);
  }
  for (const w of e.warnings) lines.push(`warning: ${w}`);
  return `${lines.join("\n")}\n`;
}

/** The Markdown page of a GGUF estimate: one row per quant file, then the card table. */
export function ggufMarkdown(e: GgufEstimate, name: string): string {
  const files = e.gguf.files;
  const lines = [
    `# ${name}: GGUF ${e.model_type}, ${formatParams(e.params.total)} parameters`,
    "",
    `Read from the GGUF headers (tensor infos and metadata), estimator ${e.estimator_version}. Serving at ${files[0]?.kv_cache.tokens ?? 0} tokens per sequence, f16 KV cache.`,
    "",
    "| File | Quant | Parameters | Weight bytes | Bits/weight | KV bytes/token | Serve |",
    "|---|---|---|---|---|---|---|",
    ...files.map(
      (f) =>
        `| ${f.path} | ${f.quant} | ${f.params} | ${f.weight_bytes} | ${f.bits_per_weight} | ${f.kv_bytes_per_token} | ${formatGb(f.serve_bytes)} |`,
    ),
    "",
    `| Card | ${files.map((f) => f.quant).join(" | ")} |`,
    `|---|${files.map(() => "---").join("|")}|`,
    ...[...new Set(e.fit.map((r) => r.card))].map(
      (card) =>
        `| ${card} | ${files.map((f) => f.fit.find((r) => r.card === card)?.text ?? "-").join(" | ")} |`,
    ),
    "",
    ...e.warnings.map((w) => `- ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}
