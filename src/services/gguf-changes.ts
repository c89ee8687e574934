/**
 * Change rows for a revision's GGUF files, one file at a time: a quant file added or removed; re-made
 * (its tensors retyped, reshaped, added or removed: category weights); its metadata changed (category
 * config); its embedded tokenizer.chat_template changed (category chat_template, through the same verdict
 * as a tokenizer_config.json template, rendered with the file's own BOS and EOS tokens) while the file stays.
 */
import type { RenderTokens } from "../core/diff/chat-render.ts";
import {
  describeTypeCounts,
  diffGgufFile,
  GGUF_TEMPLATE_KEY,
  ggufParams,
  ggufTypeCounts,
  tensorsChanged,
} from "../core/diff/gguf.ts";
import { estimateGgufFile } from "../core/estimator/gguf/file-estimate.ts";
import { type GgufHeader, isGgufHeader } from "../core/estimator/gguf/types.ts";
import type { NewChange } from "../repositories/changes.repository.ts";
import { parseJson } from "./json-text.ts";
import { templateChange } from "./template-change.ts";

type FileState = { oid: string; content: string | null };
type Files = Map<string, FileState>;

export function isGgufPath(path: string): boolean {
  return path.endsWith(".gguf");
}

/** The stored GGUF headers of a revision, by path (files not read or not GGUF are left out). */
export function ggufHeaders(files: Files): [string, GgufHeader][] {
  const out: [string, GgufHeader][] = [];
  for (const [path, f] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!isGgufPath(path)) continue;
    const parsed = parseJson(f.content);
    if (isGgufHeader(parsed)) out.push([path, parsed]);
  }
  return out;
}

/** The chat template embedded in each GGUF file, named `gguf:<path>`. */
function ggufTemplates(files: Files): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, h] of ggufHeaders(files)) {
    const t = h.metadata[GGUF_TEMPLATE_KEY];
    if (typeof t === "string") out[`gguf:${path}`] = t;
  }
  return out;
}

function tokensOf(h: GgufHeader): RenderTokens {
  const out: RenderTokens = {};
  if (h.tokens.bos !== undefined) out.bos_token = h.tokens.bos;
  if (h.tokens.eos !== undefined) out.eos_token = h.tokens.eos;
  return out;
}

function fileRow(path: string, h: GgufHeader, kind: "added" | "removed"): NewChange {
  const e = estimateGgufFile(path, [h]);
  const gb = (e.weight_bytes / 1e9).toFixed(2);
  return {
    path,
    category: "weights",
    kind,
    summary: `${kind === "added" ? "quant file added" : "quant file removed"}: ${e.quant}, ${e.params.toLocaleString("en-US")} parameters, ${gb} GB`,
    detail: {
      type: "gguf_file",
      quant: e.quant,
      params: e.params,
      weight_bytes: e.weight_bytes,
      tensor_types: ggufTypeCounts(h),
    },
  };
}

function modifiedRows(path: string, a: GgufHeader, b: GgufHeader): NewChange[] {
  const d = diffGgufFile(a, b);
  const out: NewChange[] = [];
  if (tensorsChanged(d)) {
    const parts = [`re-made: ${d.retyped.length} tensor(s) retyped`];
    if (d.reshaped.length + d.added.length + d.removed.length > 0)
      parts.push(`${d.reshaped.length} reshaped, +${d.added.length} -${d.removed.length}`);
    const counts = describeTypeCounts(d);
    if (counts) parts.push(`types ${counts}`);
    if (d.params.before !== d.params.after) parts.push(`parameters ${d.params.before} -> ${d.params.after}`);
    out.push({
      path,
      category: "weights",
      kind: "modified",
      summary: parts.join("; "),
      detail: { type: "gguf_remade", ...d },
    });
  }
  if (d.metadata.length > 0) {
    const shown = d.metadata.slice(0, 3).map((c) => `${c.path} ${show(c.before)} -> ${show(c.after)}`);
    const more = d.metadata.length > 3 ? ` (+${d.metadata.length - 3} more)` : "";
    out.push({
      path,
      category: "config",
      kind: "modified",
      summary: `metadata: ${shown.join("; ")}${more}`,
      detail: { type: "json", changes: d.metadata },
    });
  }
  return out;
}

function templateRows(before: Files, after: Files): NewChange[] {
  const ha = new Map(ggufHeaders(before));
  const hb = new Map(ggufHeaders(after));
  const ta = ggufTemplates(before);
  const tb = ggufTemplates(after);
  const out: NewChange[] = [];
  for (const name of [...new Set([...Object.keys(ta), ...Object.keys(tb)])].sort()) {
    const file = name.slice("gguf:".length);
    const [a, b] = [ha.get(file), hb.get(file)];
    // A template arriving or leaving with its file is that file's row (quant file added or removed).
    if (!a || !b || ta[name] === tb[name]) continue;
    const row = templateChange(name, ta[name], tb[name], { before: tokensOf(a), after: tokensOf(b) });
    if (row) out.push(row);
  }
  return out;
}

/** Every GGUF change between two revisions' files. */
export function ggufChanges(before: Files, after: Files): NewChange[] {
  const ha = new Map(ggufHeaders(before));
  const hb = new Map(ggufHeaders(after));
  const out: NewChange[] = [];
  for (const path of [...new Set([...ha.keys(), ...hb.keys()])].sort()) {
    const a = ha.get(path);
    const b = hb.get(path);
    if (a && b && before.get(path)?.oid === after.get(path)?.oid) continue;
    if (!a && b) out.push(fileRow(path, b, "added"));
    else if (a && !b) out.push(fileRow(path, a, "removed"));
    else if (a && b) out.push(...modifiedRows(path, a, b));
  }
  return [...out, ...templateRows(before, after)];
}

/**
 * The chat template a GGUF repo serves, for behaviour states: the first GGUF file's (sorted by path), under
 * one name, so that adding or removing a quant file does not read as a template added or removed.
 */
export function ggufServedTemplate(files: Files): Record<string, string> {
  const first = Object.entries(ggufTemplates(files))[0];
  return first ? { gguf: first[1] } : {};
}

/** The behaviour-relevant facts of a revision's GGUF files (the first file's, sorted by path): null when none. */
export function ggufBehaviorFacts(files: Files): Record<string, unknown> | null {
  const first = ggufHeaders(files)[0];
  if (!first) return null;
  const [, h] = first;
  const arch = h.metadata["general.architecture"];
  return {
    eos_token: h.tokens.eos ?? null,
    bos_token: h.tokens.bos ?? null,
    context_length: typeof arch === "string" ? (h.metadata[`${arch}.context_length`] ?? null) : null,
    params: ggufParams(h),
  };
}

function show(v: unknown): string {
  const s = v === undefined ? "(none)" : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
