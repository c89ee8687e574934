/**
 * What a published checkpoint's scalar total should be, computed from the structure by rules (no per-model
 * numbers): the derived parameters, plus the buffers the family's modeling code saves (presence from the
 * headers when known), plus a tied embedding's second copy when the files are known to hold it, plus, for a
 * total that counts every stored element (older Hub scrapes such as llmfit's) rather than parameters (the
 * Hub's safetensors.total), the quantization scales, zero points and indices, packed integers at their
 * unpacked width. Optional extras (a pooler only some checkpoints carry) are listed apart.
 */

import { DTYPE_SIZE } from "./dtypes.ts";
import type { ModelReading } from "./types.ts";
import type { WeightBytes } from "./weights.ts";

/**
 * "parameters": the stored tensors, scales left out, packed weights unpacked (the Hub's safetensors.total);
 * "elements": every stored element counted too; "module": the model's own parameters as built
 * (model.parameters(), a count from the modeling file): no buffers, no second tied copy, nothing undeclared.
 */
export type Counting = "parameters" | "elements" | "module";

export type StoredPart = {
  kind: "buffers" | "tied_copy" | "quantization" | "undeclared";
  scalars: number;
  note: string;
};

type ExpectedStored = {
  total: number;
  parts: StoredPart[];
  /** Extras some checkpoints of the family hold and some do not: a total may include them or not. */
  optional: StoredPart[];
};

/** Bytes of the buffers a reading declares as always saved (for an index total_size comparison). */
export function declaredBufferBytes(r: ModelReading): number {
  let sum = 0;
  for (const b of r.storedBuffers ?? [])
    if (b.presence !== "maybe") sum += b.count * b.scalarsEach * (DTYPE_SIZE[b.dtype] ?? 4);
  return sum;
}

/** Declared buffers as parts, one per module (a pooler's weight and bias together). */
function bufferParts(r: ModelReading): { always: StoredPart[]; maybe: StoredPart[] } {
  const groups = new Map<string, { part: StoredPart; maybe: boolean }>();
  for (const b of r.storedBuffers ?? []) {
    const key = b.suffix.replace(/\.(weight|bias)$/, "");
    const g = groups.get(key) ?? {
      part: { kind: "buffers" as const, scalars: 0, note: `${b.count} x ${key} (${b.dtype})` },
      maybe: b.presence === "maybe",
    };
    g.part.scalars += b.count * b.scalarsEach;
    groups.set(key, g);
  }
  const always: StoredPart[] = [];
  const maybe: StoredPart[] = [];
  for (const g of groups.values()) (g.maybe ? maybe : always).push(g.part);
  return { always, maybe };
}

/**
 * The expected total of a checkpoint of `r` whose derived count is `derived`. `tiedStoredTwice`: whether the
 * files hold the tied embedding twice (true/false when known, null when not: then no copy is expected).
 */
export function expectedStoredTotal(
  r: ModelReading,
  derived: number,
  weights: WeightBytes | null,
  o: { counting: Counting; tiedStoredTwice: boolean | null },
): ExpectedStored {
  if (o.counting === "module") return { total: derived, parts: [], optional: [] };
  const { always, maybe } = bufferParts(r);
  const parts = [...always];
  for (const w of r.undeclaredWeights ?? [])
    maybe.push({ kind: "undeclared", scalars: w.scalars, note: `${w.name}, stored but not declared` });
  if (o.tiedStoredTwice === true && r.tiedEmbedding)
    parts.push({
      kind: "tied_copy",
      scalars: r.embeddingParams,
      note: "tied embedding stored twice (lm_head.weight)",
    });
  if (o.counting === "elements" && weights && weights.auxElementsUnpacked > 0)
    parts.push({
      kind: "quantization",
      scalars: weights.auxElementsUnpacked,
      note: "quantization scales / zero points / shapes counted as elements (packed integers unpacked)",
    });
  let total = derived;
  for (const p of parts) total += p.scalars;
  return { total, parts, optional: maybe };
}
