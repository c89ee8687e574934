/**
 * The derived count against the published weights: stored scalars from safetensors headers (or the index's
 * total_size), non-parameter buffers named and set aside, a tied embedding stored twice, dtypes, and the
 * logical parameter count of quantized checkpoints (fp8 block scales, mxfp4 blocks, int4 packed).
 */
import { EstimatorInputError } from "./config-view.ts";
import type { CheckpointInput, ModelReading, TensorHeader } from "./types.ts";

export type CheckpointReport = {
  /** Every scalar in the files (what the Hub calls safetensors.total); packed quantized elements as stored. */
  stored_total: number;
  /** Logical parameters compared against the derived count: buffers and quantization scales left out, packed weights unpacked. */
  compared_total: number;
  /** (derived + extra_scalars - compared_total) / compared_total. */
  delta: number;
  source: "headers" | "index_total_size";
  tied_embedding_stored_twice: boolean;
  /** Scalars the second copy of a tied embedding adds (0 when not stored twice). */
  extra_scalars: number;
  tied_tensors?: string[];
  /** Shape of the second copy (e.g. [151936, 2048]). */
  tied_shape?: number[];
  dtypes: Record<string, number>;
  buffers: { name: string; scalars: number }[];
  quantization?: { method: string; logical_params: number; bytes_per_weight: number; scale_scalars: number };
};

export const DTYPE_BYTES: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  F8_E4M3: 1,
  F8_E5M2: 1,
  F8_E8M0: 1,
  F4: 0.5,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U64: 8,
  U32: 4,
  U16: 2,
  U8: 1,
  BOOL: 1,
};

/** Non-parameter buffers some checkpoints store (GPT-2 causal masks, BERT position ids, rotary caches, BART's final_logits_bias). */
const BUFFER_PATTERNS = [
  /(^|\.)attn\.bias$/,
  /(^|\.)attn\.masked_bias$/,
  /(^|\.)position_ids$/,
  /rotary_emb\.inv_freq$/,
  /(^|\.)final_logits_bias$/,
];
const SCALE_PATTERNS = [
  /_scale_inv$/,
  /\.weight_scale$/,
  /\.input_scale$/,
  /_scales$/,
  /\.weight_zero_point$/,
  /\.weight_shape$/,
  /\.weight_global_scale$/,
];
const EMBED_SUFFIXES = [
  "embed_tokens.weight",
  "wte.weight",
  "word_embeddings.weight",
  "shared.weight",
  "tok_embeddings.weight",
];

function scalars(t: TensorHeader): number {
  let n = 1;
  for (const d of t.shape) {
    if (!Number.isInteger(d) || d < 0)
      throw new EstimatorInputError(`checkpoint.${t.name}.shape`, `bad dimension ${d}`);
    n *= d;
  }
  return n;
}

/** Logical weights one stored element holds (packed formats), 1 otherwise. */
function packFactor(t: TensorHeader): number {
  if (t.name.endsWith("_blocks") && t.dtype === "U8") return 2; // mxfp4: two 4-bit values per byte
  if (t.name.endsWith(".weight_packed") && t.dtype === "I32") return 8; // int4 pack-quantized
  return 1;
}

function quantMethod(ts: TensorHeader[]): string | undefined {
  if (ts.some((t) => t.name.endsWith("_blocks") && t.dtype === "U8")) return "mxfp4";
  if (ts.some((t) => t.name.endsWith(".weight_packed"))) return "int4_pack_quantized";
  if (ts.some((t) => t.dtype.startsWith("F8_"))) return "fp8";
  return undefined;
}

const HEAD_NAMES = ["lm_head.weight", "proj_out.weight"];

function tiedCopy(
  r: ModelReading,
  ts: TensorHeader[],
): { extra: number; names: string[]; shape: number[] } | null {
  if (!r.tiedEmbedding) return null;
  const head = ts.find((t) => HEAD_NAMES.some((h) => t.name === h || t.name.endsWith(`.${h}`)));
  const emb = ts.find((t) => EMBED_SUFFIXES.some((s) => t.name.endsWith(s)));
  if (!head || !emb) return null;
  return { extra: scalars(head), names: [head.name, emb.name], shape: head.shape };
}

type Tally = {
  stored: number;
  logical: number;
  quantLogical: number;
  quantBytes: number;
  scaleScalars: number;
  dtypes: Record<string, number>;
  buffers: { name: string; scalars: number }[];
};

/** Sorts every stored tensor into buffers, quantization scales and (possibly packed) weights. */
function tally(ts: TensorHeader[]): Tally {
  const t0: Tally = {
    stored: 0,
    logical: 0,
    quantLogical: 0,
    quantBytes: 0,
    scaleScalars: 0,
    dtypes: {},
    buffers: [],
  };
  for (const t of ts) {
    const n = scalars(t);
    const bytes = n * (DTYPE_BYTES[t.dtype] ?? 1);
    t0.stored += n;
    t0.dtypes[t.dtype] = (t0.dtypes[t.dtype] ?? 0) + n;
    if (BUFFER_PATTERNS.some((p) => p.test(t.name))) {
      t0.buffers.push({ name: t.name, scalars: n });
    } else if (SCALE_PATTERNS.some((p) => p.test(t.name))) {
      t0.scaleScalars += n;
      t0.quantBytes += bytes;
    } else {
      const f = packFactor(t);
      t0.logical += n * f;
      if (f > 1 || t.dtype.startsWith("F8_")) {
        t0.quantLogical += n * f;
        t0.quantBytes += bytes;
      }
    }
  }
  return t0;
}

function fromHeaders(r: ModelReading, derived: number, ts: TensorHeader[]): CheckpointReport {
  const t = tally(ts);
  const tie = tiedCopy(r, ts);
  const extra = tie?.extra ?? 0;
  const report: CheckpointReport = {
    stored_total: t.stored,
    compared_total: t.logical,
    delta: t.logical > 0 ? (derived + extra - t.logical) / t.logical : 0,
    source: "headers",
    tied_embedding_stored_twice: tie !== null,
    extra_scalars: extra,
    dtypes: t.dtypes,
    buffers: t.buffers,
  };
  if (tie) {
    report.tied_tensors = tie.names;
    report.tied_shape = tie.shape;
  }
  const method = quantMethod(ts);
  if (method && t.quantLogical > 0) {
    const bytesPerWeight = t.quantBytes / t.quantLogical;
    report.quantization = {
      method,
      logical_params: t.logical,
      bytes_per_weight: bytesPerWeight,
      scale_scalars: t.scaleScalars,
    };
  }
  return report;
}

/** Compare a derived count with the checkpoint. `dtypeBytes`: bytes per scalar when only the index total is known. */
export function analyseCheckpoint(
  r: ModelReading,
  derived: number,
  input: CheckpointInput,
  dtypeBytes = 2,
): CheckpointReport {
  if (input.tensors && input.tensors.length > 0) return fromHeaders(r, derived, input.tensors);
  const size = input.indexTotalSizeBytes;
  if (size === undefined || !Number.isFinite(size) || size <= 0) {
    throw new EstimatorInputError("checkpoint", "neither tensor headers nor a positive index total_size");
  }
  const stored = Math.round(size / dtypeBytes);
  return {
    stored_total: stored,
    compared_total: stored,
    delta: (derived - stored) / stored,
    source: "index_total_size",
    tied_embedding_stored_twice: false,
    extra_scalars: 0,
    dtypes: { [dtypeBytes === 4 ? "F32" : "BF16/F16"]: stored },
    buffers: [],
  };
}
