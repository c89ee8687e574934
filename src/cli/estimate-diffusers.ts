/**
 * `hubwatch estimate` on a diffusers pipeline: a Hub repo or a local folder with a model_index.json. Reads
 * model_index.json, each component's config.json and, by header only, one weight file set per component (the
 * fp16 / bf16 variant where shipped, see src/core/diff/diffusers.ts); prints the per-component table.
 */
import { join } from "node:path";
import { MODEL_INDEX_PATH, parseModelIndex, selectPipelineWeights } from "../core/diff/diffusers.ts";
import { type DiffusersEstimate, estimateDiffusers } from "../core/estimator/diffusers.ts";
import { ESTIMATOR_VERSION } from "../core/estimator/estimate.ts";
import { formatGb, formatParams } from "../core/estimator/markdown.ts";
import type { TensorHeader } from "../core/estimator/types.ts";
import { downloadText, type HubOptions, listTree, readSafetensorsHeader } from "../hub/index.ts";
import type { RepoRef } from "./estimate-hub.ts";

type Source = {
  text(path: string): Promise<string | null>;
  header(path: string): Promise<TensorHeader[]>;
};

function parse(text: string | null, what: string): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${what}: malformed JSON (${(err as Error).message})`);
  }
}

/** The pipeline's estimate from its paths and a way to read texts and headers. */
async function estimateFrom(paths: string[], src: Source): Promise<DiffusersEstimate> {
  const index = parseModelIndex(parse(await src.text(MODEL_INDEX_PATH), MODEL_INDEX_PATH));
  if (!index) throw new Error(`${MODEL_INDEX_PATH}: not a diffusers model index (no _class_name)`);
  const weights = selectPipelineWeights(paths);
  const has = new Set(paths);
  const files = new Map<string, { config: Record<string, unknown> | null; tensors: TensorHeader[] | null }>();
  for (const name of Object.keys(index.components)) {
    const configPath = `${name}/config.json`;
    const config = has.has(configPath) ? parse(await src.text(configPath), configPath) : null;
    const tensors: TensorHeader[] = [];
    for (const p of weights.components[name] ?? []) tensors.push(...(await src.header(p)));
    files.set(name, {
      config: config && typeof config === "object" ? (config as Record<string, unknown>) : null,
      tensors: tensors.length > 0 ? tensors : null,
    });
  }
  return estimateDiffusers(index, files, weights.variant, ESTIMATOR_VERSION);
}

/** A Hub repo's pipeline estimate, or null when the revision has no model_index.json. */
export async function readHubDiffusers(ref: RepoRef, hub: HubOptions): Promise<DiffusersEstimate | null> {
  const args = { ...hub, repo: ref.repo, sha: ref.revision };
  const tree = await listTree(args);
  if (!tree.some((f) => f.path === MODEL_INDEX_PATH)) return null;
  const size = new Map(tree.map((f) => [f.path, f.size]));
  return estimateFrom(
    tree.map((f) => f.path),
    {
      text: (path) => downloadText({ ...args, path, size: size.get(path) ?? 0, maxBytes: 5_000_000 }),
      header: async (path) => (await readSafetensorsHeader({ ...args, path })).tensors,
    },
  );
}

/** A local pipeline folder (model_index.json at its root), or null when `names` has no model_index.json. */
export async function readLocalDiffusers(
  dir: string,
  names: string[],
  io: {
    readFile(p: string): Promise<string>;
    readDir(p: string): Promise<string[]>;
    isDirectory(p: string): Promise<boolean>;
  },
  header: (path: string) => Promise<TensorHeader[]>,
): Promise<DiffusersEstimate | null> {
  if (!names.includes(MODEL_INDEX_PATH)) return null;
  const paths: string[] = [...names];
  for (const n of names)
    if (await io.isDirectory(join(dir, n)).catch(() => false))
      for (const f of await io.readDir(join(dir, n))) paths.push(`${n}/${f}`);
  return estimateFrom(paths, {
    text: (p) => io.readFile(join(dir, p)),
    header: (p) => header(join(dir, p)),
  });
}

const count = (n: number | null) => (n === null ? "unknown" : `${formatParams(n)} (${n})`);

/** One line per component, the total, the card lines and the warnings. */
export function diffusersSummary(e: DiffusersEstimate, name: string): string {
  const d = e.diffusers;
  const lines = [
    `${name}: diffusers ${d.pipeline}, ${formatParams(e.params.total)} parameters (${e.params.total}), weights ${formatGb(e.weights.bytes)} to serve at ${d.dtype} (${d.variant ?? "default"} files)`,
    ...d.components.map(
      (c) =>
        `  ${c.name.padEnd(18)} ${`${c.library}.${c.class}`.padEnd(44)} ${count(c.params).padEnd(26)} ${c.source}`,
    ),
    ...e.fit.map((r) => `  ${r.card.padEnd(18)} ${r.mode.padEnd(14)} ${r.text}`),
    ...e.warnings.map((w) => `warning: ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** The Markdown page: the component table, then the card table. */
export function diffusersMarkdown(e: DiffusersEstimate, name: string): string {
  const d = e.diffusers;
  const lines = [
    `# ${name}: diffusers ${d.pipeline}, ${formatParams(e.params.total)} parameters`,
    "",
    `Read from model_index.json, each component's config.json and safetensors headers (${d.variant ?? "default"} files), estimator ${e.estimator_version}. Serve memory is the weights at the pipeline's dtype (${d.dtype}); activations at an image size are not counted.`,
    "",
    "| Component | Class | Parameters | Counted from | Serve |",
    "|---|---|---|---|---|",
    ...d.components.map(
      (c) =>
        `| ${c.name} | ${c.library}.${c.class} | ${c.params ?? "unknown"} | ${c.source} | ${c.serve_bytes === null ? "unknown" : formatGb(c.serve_bytes)} |`,
    ),
    `| **total** | | **${e.params.total}** | | **${formatGb(e.weights.bytes)}** |`,
    "",
    "| Card | Serve |",
    "|---|---|",
    ...e.fit.map((r) => `| ${r.card} | ${r.text} |`),
    "",
    ...e.warnings.map((w) => `- ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}
