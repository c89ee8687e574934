/** The estimate's JSON shape and the conversions into it (whole bytes, structure rows, finiteness check). */
import type { CheckpointReport } from "./checkpoint.ts";
import { EstimatorInputError } from "./config-view.ts";
import type { ReaderConfidence } from "./resolve.ts";
import type { FitMode, FitRow, FitVerdict, MemoryFigure } from "./types.ts";

export type MemoryJson = {
  bytes: number;
  tokens: number;
  batch: number;
  breakdown: Record<string, number>;
  bytes_without_logits?: number;
};

export type FitJson = {
  card: string;
  capacity_gb: number;
  /** `serve <quant>`: one GGUF file's serving row (a GGUF repo has one per quant file). */
  mode: FitMode | `serve ${string}`;
  verdict: FitVerdict;
  batch: number;
  split: number[] | null;
  text: string;
};

export type StructureJson = {
  name: string;
  type: string;
  shape: number[];
  params: number;
  tower: string;
  tied_to?: string | undefined;
  /** Layer index within its tower, for repeated blocks. */
  layer?: number | undefined;
};

export type WeightsJson = {
  /** Bytes the weights take when loaded to serve (quantized as stored; float32 served at 2 bytes). */
  bytes: number;
  /** Bytes in the checkpoint's files (buffers and a tied embedding's second copy left out). */
  stored_bytes: number;
  /** Stored bytes per safetensors dtype. */
  by_dtype: Record<string, number>;
  /** "headers": read from the safetensors headers; "config": from the structure and quantization_config. */
  source: "headers" | "config";
};

export type QuantizationJson = { method: string; bits: number; group_size: number | null };

/** A figure the estimate could not compute, and why. */
export type MissingJson = { figure: string; why: string };

export type Estimate = {
  estimator_version: string;
  model_type: string;
  family: string;
  reader: { family: string; confidence: ReaderConfidence };
  params: {
    total: number;
    /** Parameters one token runs through: the total for dense models; routed top-k + shared parts for MoE. */
    active: number;
    towers: Record<string, number>;
    tied_embedding: boolean;
    /** The structure's count (null when no structure was read). */
    derived: number | null;
    /** "headers" when the total is the checkpoint's (no structure, or a reader_mismatch). */
    source: "structure" | "headers";
  };
  weights: WeightsJson;
  quantization: QuantizationJson | null;
  checkpoint?: CheckpointReport;
  memory: {
    full_finetune: MemoryJson;
    lora: MemoryJson;
    serve: MemoryJson;
    kv_cache: MemoryJson;
    lora_params: number;
  };
  fit: FitJson[];
  structure: StructureJson[];
  missing?: MissingJson[];
  warnings: string[];
};

/** The weights part: served bytes and stored bytes per dtype. */
export function weightsJson(
  served: number,
  byDtype: Record<string, number>,
  source: WeightsJson["source"],
): WeightsJson {
  let stored = 0;
  for (const v of Object.values(byDtype)) stored += v;
  return { bytes: served, stored_bytes: stored, by_dtype: byDtype, source };
}

/** Whole bytes in the JSON (the 1.2 overhead makes fractions); the total stays the sum of its parts. */
export function memoryJson(m: MemoryFigure): MemoryJson {
  const breakdown: Record<string, number> = {};
  let bytes = 0;
  for (const part in m.breakdown) {
    const v = Math.round(m.breakdown[part]!);
    breakdown[part] = v;
    bytes += v;
  }
  const out: MemoryJson = { bytes, tokens: m.tokens, batch: m.batch, breakdown };
  if (m.bytesWithoutLogits !== undefined) out.bytes_without_logits = Math.round(m.bytesWithoutLogits);
  return out;
}

export function fitJson(rows: FitRow[]): FitJson[] {
  return rows.map((r) => ({
    card: r.card,
    capacity_gb: r.capacityGb,
    mode: r.mode,
    verdict: r.verdict,
    batch: r.batch,
    split: r.split,
    text: r.text,
  }));
}

/** Path of the first NaN or infinite number in `v` ("" for v itself), or null; paths are built only on a hit. */
function nonFinitePath(v: unknown): string | null {
  if (typeof v === "number") return Number.isFinite(v) ? null : "";
  if (v === null || typeof v !== "object") return null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = nonFinitePath(v[i]);
      if (p !== null) return `[${i}]${p}`;
    }
    return null;
  }
  for (const k in v) {
    const p = nonFinitePath((v as Record<string, unknown>)[k]);
    if (p !== null) return `.${k}${p}`;
  }
  return null;
}

/** nonFinitePath over an object's top-level keys but `skip`. */
function nonFinitePathExcept(v: object, skip: string): string | null {
  for (const k in v) {
    if (k === skip) continue;
    const p = nonFinitePath((v as Record<string, unknown>)[k]);
    if (p !== null) return `.${k}${p}`;
  }
  return null;
}

/**
 * Throws when any number in the output is NaN or infinite (a reader bug or an input beyond doubles). `skip`: a
 * top-level key of an object left out of the walk (checked elsewhere), as if it held nothing.
 */
export function assertFinite(value: unknown, path: string, skip?: string): void {
  const walkAll = skip === undefined || value === null || typeof value !== "object" || Array.isArray(value);
  const hit = walkAll ? nonFinitePath(value) : nonFinitePathExcept(value, skip);
  if (hit !== null) throw new EstimatorInputError(`${path}${hit}`, "derived a non-finite number");
}
