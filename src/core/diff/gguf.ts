/**
 * What changed between two versions of one GGUF file, from their stored headers: tensors added, removed,
 * reshaped or retyped (a re-made quant), the parameter count, tensor counts per type, and the metadata
 * (the embedded chat template left out: it goes through the chat-template verdict instead). Pure.
 */
import type { GgufHeader } from "../estimator/gguf/types.ts";
import { diffJson, type FlatChange } from "./json.ts";

export const GGUF_TEMPLATE_KEY = "tokenizer.chat_template";

export type GgufFileDiff = {
  params: { before: number; after: number };
  tensor_types: { before: Record<string, number>; after: Record<string, number> };
  added: string[];
  removed: string[];
  reshaped: { name: string; before: number[]; after: number[] }[];
  retyped: { name: string; before: string; after: string }[];
  metadata: FlatChange[];
};

export function ggufParams(h: GgufHeader): number {
  let total = 0;
  for (const t of h.tensors) total += t.shape.reduce((a, b) => a * b, 1);
  return total;
}

export function ggufTypeCounts(h: GgufHeader): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of h.tensors) out[t.type] = (out[t.type] ?? 0) + 1;
  return out;
}

/** The metadata compared: everything but the chat template (long arrays already reduced to length + hash). */
function ggufComparedMetadata(h: GgufHeader): Record<string, unknown> {
  const { [GGUF_TEMPLATE_KEY]: _template, ...rest } = h.metadata;
  return rest;
}

export function diffGgufFile(a: GgufHeader, b: GgufHeader): GgufFileDiff {
  const before = new Map(a.tensors.map((t) => [t.name, t]));
  const after = new Map(b.tensors.map((t) => [t.name, t]));
  const out: GgufFileDiff = {
    params: { before: ggufParams(a), after: ggufParams(b) },
    tensor_types: { before: ggufTypeCounts(a), after: ggufTypeCounts(b) },
    added: b.tensors.filter((t) => !before.has(t.name)).map((t) => t.name),
    removed: a.tensors.filter((t) => !after.has(t.name)).map((t) => t.name),
    reshaped: [],
    retyped: [],
    metadata: diffJson(ggufComparedMetadata(a), ggufComparedMetadata(b)).changes,
  };
  for (const t of b.tensors) {
    const old = before.get(t.name);
    if (!old) continue;
    if (old.shape.join(",") !== t.shape.join(","))
      out.reshaped.push({ name: t.name, before: old.shape, after: t.shape });
    if (old.type !== t.type) out.retyped.push({ name: t.name, before: old.type, after: t.type });
  }
  return out;
}

/** True when the tensors themselves differ (a re-made or re-converted file), not only the metadata. */
export function tensorsChanged(d: GgufFileDiff): boolean {
  return d.added.length + d.removed.length + d.reshaped.length + d.retyped.length > 0;
}

/** "Q4_K 193 -> 191, Q8_0 0 -> 2": the tensor counts per type that changed. */
export function describeTypeCounts(d: GgufFileDiff): string {
  const types = [
    ...new Set([...Object.keys(d.tensor_types.before), ...Object.keys(d.tensor_types.after)]),
  ].sort();
  return types
    .filter((t) => d.tensor_types.before[t] !== d.tensor_types.after[t])
    .map((t) => `${t} ${d.tensor_types.before[t] ?? 0} -> ${d.tensor_types.after[t] ?? 0}`)
    .join(", ");
}
