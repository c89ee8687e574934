import type { RenderTokens } from "../core/diff/chat-render.ts";
import { extractChatTemplates } from "../core/diff/chat-template.ts";
import { isPipelinePaths } from "../core/diff/diffusers.ts";
import { diffJson } from "../core/diff/json.ts";
import { classifyPath } from "../core/diff/paths.ts";
import { diffTokenizerSummary, type TokenizerSummary } from "../core/diff/tokenizer.ts";
import { selectWeightFiles, WEIGHT_INDEX_PATH } from "../core/diff/weight-files.ts";
import { diffWeights, summarizeWeights, type TensorInfo } from "../core/diff/weights.ts";
import type { NewChange } from "../repositories/changes.repository.ts";
import { componentChanges, pipelineShards, pipelineTensors } from "./diffusers-files.ts";
import { ggufChanges, isGgufPath } from "./gguf-changes.ts";
import { parseJson } from "./json-text.ts";
import { templateChange } from "./template-change.ts";

/** A tracked file of one revision as the differ sees it: its oid and stored content (null: not fetched). */
export type FileState = { oid: string; content: string | null };
export type RevisionFiles = Map<string, FileState>;

/** The aggregate row for all safetensors files (tensors move between shards, so shards are not diffed alone). */
const WEIGHTS_PATH = "*.safetensors";
const TEMPLATE_FILE = /^(chat_template\.jinja|chat_template\.json|additional_chat_templates\/[^/]+\.jinja)$/;

/** Every change between two revisions' tracked files: per JSON file, per chat template, weights as one. */
export function buildChanges(before: RevisionFiles, after: RevisionFiles): NewChange[] {
  const out: NewChange[] = [];
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const pipeline = isPipelinePaths(paths);
  for (const path of paths) {
    const category = classifyPath(path, pipeline);
    if (category === "other" || TEMPLATE_FILE.test(path) || path.endsWith(".safetensors") || isGgufPath(path))
      continue;
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.oid === b.oid) continue;
    out.push(fileChange(path, category, a, b));
  }
  out.push(...templateChanges(before, after));
  out.push(...ggufChanges(before, after));
  out.push(...componentChanges(before, after));
  const weights = weightsChange(before, after);
  if (weights) out.push(weights);
  return out;
}

function fileChange(path: string, category: NewChange["category"], a?: FileState, b?: FileState): NewChange {
  if (!a) return { path, category, kind: "added", summary: "added", detail: null };
  if (!b) return { path, category, kind: "removed", summary: "removed", detail: null };
  if (path === "tokenizer.json") return tokenizerChange(path, a, b);
  const before = parseJson(a.content);
  const after = parseJson(b.content);
  if (before === undefined || after === undefined) {
    const side = after === undefined ? "after" : "before";
    const bad = side === "after" ? "is not valid JSON" : "was not valid JSON before";
    return {
      path,
      category,
      kind: "modified",
      summary: `${path} ${bad}`,
      detail: { type: "invalid_json", side },
    };
  }
  const { changes } = diffJson(before, after);
  const shown = changes.slice(0, 3).map((c) => `${c.path} ${show(c.before)} -> ${show(c.after)}`);
  const more = changes.length > 3 ? ` (+${changes.length - 3} more)` : "";
  const summary = changes.length === 0 ? "reformatted, same content" : `${shown.join("; ")}${more}`;
  return { path, category, kind: "modified", summary, detail: { type: "json", changes } };
}

function tokenizerChange(path: string, a: FileState, b: FileState): NewChange {
  const before = parseJson(a.content) as TokenizerSummary | undefined;
  const after = parseJson(b.content) as TokenizerSummary | undefined;
  if (!before || !after)
    return { path, category: "tokenizer", kind: "modified", summary: "changed", detail: null };
  const d = diffTokenizerSummary(before, after);
  const parts = d.fields.map((f) => `${f.field} ${f.before} -> ${f.after}`);
  const added = d.added_tokens.added.length;
  if (added > 0) parts.push(`${added} added token(s)`);
  if (d.added_tokens.removed.length > 0) parts.push(`${d.added_tokens.removed.length} removed token(s)`);
  return {
    path,
    category: "tokenizer",
    kind: "modified",
    summary: parts.join("; ") || "same summary",
    detail: { type: "tokenizer", ...d },
  };
}

function templateChanges(before: RevisionFiles, after: RevisionFiles): NewChange[] {
  const a = extractChatTemplates(textFiles(before));
  const b = extractChatTemplates(textFiles(after));
  const tokens = { before: renderTokens(before), after: renderTokens(after) };
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .flatMap((name) => templateChange(name, a[name], b[name], tokens) ?? []);
}

function weightsChange(before: RevisionFiles, after: RevisionFiles): NewChange | null {
  const a = modelShards(before);
  const b = modelShards(after);
  const oids = (list: [string, FileState][]) => list.map(([p, f]) => `${p}@${f.oid}`).join(",");
  if (oids(a) === oids(b)) return null;
  // A pipeline's components may share tensor names (two text encoders): each is named under its folder.
  const read = isPipelinePaths([...before.keys(), ...after.keys()]) ? pipelineTensors : tensors;
  const ta = read(a);
  const tb = read(b);
  const sa = summarizeWeights(ta);
  const sb = summarizeWeights(tb);
  const path = WEIGHTS_PATH;
  if (a.length === 0)
    return {
      path,
      category: "weights",
      kind: "added",
      summary: `${sb.tensor_count} tensors`,
      detail: { type: "weights_added", after: sb },
    };
  if (b.length === 0)
    return {
      path,
      category: "weights",
      kind: "removed",
      summary: "weights removed",
      detail: { type: "weights_removed", before: sa },
    };
  const d = diffWeights(ta, tb);
  const summary = `tensors: +${d.added.length} -${d.removed.length}, ${d.reshaped.length} reshaped, ${d.retyped.length} retyped; scalars ${sa.total_scalars} -> ${sb.total_scalars}`;
  return {
    path,
    category: "weights",
    kind: "modified",
    summary,
    detail: { type: "weights", ...d, before: sa, after: sb },
  };
}

/** Tensors of every shard, from the stored headers ({tensors} JSON). */
/**
 * The model's weight files among a revision's files (sorted by path): the shards the stored
 * model.safetensors.index.json names, else every *.safetensors but alternate sets (src/core/diff/weight-files.ts);
 * a diffusers pipeline's, one file set per component folder.
 */
export function modelShards(files: RevisionFiles): [string, FileState][] {
  if (isPipelinePaths(files.keys())) return pipelineShards(files);
  const index = files.get(WEIGHT_INDEX_PATH)?.content ?? null;
  const { model } = selectWeightFiles([...files.keys()], index);
  return model.sort().map((p): [string, FileState] => [p, files.get(p)!]);
}

export function tensors(list: [string, FileState][]): TensorInfo[] {
  const out: TensorInfo[] = [];
  for (const [, f] of list) {
    const parsed = parseJson(f.content) as { tensors?: TensorInfo[] } | undefined;
    if (parsed?.tensors) out.push(...parsed.tensors);
  }
  return out;
}

function textFiles(files: RevisionFiles): { path: string; text: string }[] {
  return [...files.entries()]
    .filter(([, f]) => f.content !== null)
    .map(([path, f]) => ({ path, text: f.content ?? "" }));
}

function renderTokens(files: RevisionFiles): RenderTokens {
  const config = parseJson(files.get("tokenizer_config.json")?.content ?? null) as
    | Record<string, unknown>
    | undefined;
  const tokens: RenderTokens = {};
  for (const key of ["bos_token", "eos_token", "pad_token", "unk_token"] as const) {
    const text = tokenText(config?.[key]);
    if (text !== undefined) tokens[key] = text;
  }
  return tokens;
}

/** A special token as tokenizer_config.json writes it: a string or an AddedToken dict; undefined if unset. */
function tokenText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && typeof (v as { content?: unknown }).content === "string")
    return (v as { content: string }).content;
  return undefined;
}

function show(v: unknown): string {
  const s = v === undefined ? "(none)" : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
