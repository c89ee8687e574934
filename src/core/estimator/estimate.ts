/**
 * The estimator's entry point: config (parsed JSON) and optional checkpoint headers in, a plan out.
 * Pure: no I/O. Bad input throws EstimatorInputError naming the key.
 */
import { analyseCheckpoint, type CheckpointReport } from "./checkpoint.ts";
import { type ConfigView, configView, EstimatorInputError } from "./config-view.ts";
import { fitTable } from "./fit.ts";
import { planMemory, trainTokensOf } from "./memory.ts";
import { ownParams } from "./params.ts";
import { readModel } from "./resolve.ts";
import { scanNodes } from "./scan.ts";
import type { CheckpointInput, FitMode, FitVerdict, MemoryFigure, ModelReading } from "./types.ts";

/**
 * Version of the numbers. Bump rules: any change in a derived number (params, memory, batch, verdict, delta)
 * bumps the minor version at least; a new family or a fix that changes an existing family's count bumps minor;
 * output shape changes that remove or rename keys bump major; wording-only changes bump patch.
 */
export const ESTIMATOR_VERSION = "1.1.0";

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
  mode: FitMode;
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
  tied_to?: string;
};

export type Estimate = {
  estimator_version: string;
  model_type: string;
  family: string;
  params: { total: number; towers: Record<string, number>; tied_embedding: boolean };
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
  warnings: string[];
};

/** Whole bytes in the JSON (the 1.2 overhead makes fractions); the total stays the sum of its parts. */
function memoryJson(m: MemoryFigure): MemoryJson {
  const breakdown: Record<string, number> = {};
  let bytes = 0;
  for (const [part, v] of Object.entries(m.breakdown)) {
    breakdown[part] = Math.round(v);
    bytes += breakdown[part];
  }
  const out: MemoryJson = { bytes, tokens: m.tokens, batch: m.batch, breakdown };
  if (m.bytesWithoutLogits !== undefined) out.bytes_without_logits = Math.round(m.bytesWithoutLogits);
  return out;
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

/** Throws when any number in the output is NaN or infinite (a reader bug or an input beyond doubles). */
function assertFinite(value: unknown, path: string): void {
  const hit = nonFinitePath(value);
  if (hit !== null) throw new EstimatorInputError(`${path}${hit}`, "derived a non-finite number");
}

function structureJson(r: ModelReading): StructureJson[] {
  const out: StructureJson[] = [];
  for (const t of r.towers) {
    for (const n of t.nodes) {
      const s: StructureJson = {
        name: n.name,
        type: n.type,
        shape: n.shape,
        params: ownParams(n),
        tower: t.name,
      };
      if (n.tiedTo) s.tied_to = n.tiedTo;
      out.push(s);
    }
  }
  return out;
}

/** Bytes per scalar of the checkpoint per the config's torch_dtype (for index-only totals). */
function dtypeBytes(cfg: ConfigView): number {
  const raw = cfg.raw.torch_dtype ?? cfg.raw.dtype;
  return raw === "float32" ? 4 : 2;
}

/** Estimate parameters, checkpoint agreement, memory and card fit for one config. */
export function estimate(config: unknown, opts: { checkpoint?: CheckpointInput } = {}): Estimate {
  const cfg = configView(config);
  const reading = readModel(cfg);
  const params = scanNodes(reading, trainTokensOf(reading));
  const mem = planMemory(reading, params.total, params);
  const out: Estimate = {
    estimator_version: ESTIMATOR_VERSION,
    model_type: reading.modelType,
    family: reading.family,
    params: { total: params.total, towers: params.towers, tied_embedding: reading.tiedEmbedding },
    memory: {
      full_finetune: memoryJson(mem.full),
      lora: memoryJson(mem.lora),
      serve: memoryJson(mem.serve),
      kv_cache: memoryJson(mem.kvCache),
      lora_params: mem.loraParams,
    },
    fit: fitTable(reading, mem, false, params.costs).map((r) => ({
      card: r.card,
      capacity_gb: r.capacityGb,
      mode: r.mode,
      verdict: r.verdict,
      batch: r.batch,
      split: r.split,
      text: r.text,
    })),
    structure: structureJson(reading),
    warnings: [...reading.warnings],
  };
  if (opts.checkpoint)
    out.checkpoint = analyseCheckpoint(reading, params.total, opts.checkpoint, dtypeBytes(cfg));
  // The structure was checked node by node in scanNodes; walk the rest.
  assertFinite({ ...out, structure: [] }, "(estimate)");
  return out;
}
