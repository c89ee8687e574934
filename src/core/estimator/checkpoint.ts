/**
 * The derived count against the published weights. From safetensors headers: every tensor sorted into
 * buffers (set aside by name: attention masks, position ids, rotary caches, what the reader declares),
 * quantization scales / zero points / indices, and weights (packed ones unpacked to their logical count);
 * a tied embedding stored twice; scalars and bytes per dtype. From the index alone: total_size in bytes.
 */
import { EstimatorInputError } from "./config-view.ts";
import { DTYPE_SIZE, type QuantSpec } from "./quantization.ts";
import type { CheckpointInput, ModelReading, StoredBuffer, TensorHeader } from "./types.ts";

export type CheckpointReport = {
  /** Every scalar in the files (the Hub's safetensors.total counts them so, less scales); packed elements as stored. */
  stored_total: number;
  /** Logical parameters: buffers and quantization scales left out, packed weights unpacked. */
  compared_total: number;
  /** The derived count plus the computed extras the files hold (a tied embedding's second copy). */
  expected_total: number;
  /** (expected_total - compared_total) / compared_total; on "bytes" basis, over stored bytes. */
  delta: number;
  delta_basis: "scalars" | "bytes";
  source: "headers" | "index_total_size";
  tied_embedding_stored_twice: boolean;
  /** Scalars the second copy of a tied embedding adds (0 when not stored twice). */
  extra_scalars: number;
  tied_tensors?: string[];
  /** Shape of the second copy (e.g. [151936, 2048]). */
  tied_shape?: number[];
  dtypes: Record<string, number>;
  buffers: { name: string; scalars: number }[];
  /** Bytes of every tensor in the files (headers), or the index's total_size. */
  stored_bytes: number;
  /** Index only: the bytes the structure and quantization_config predict for the files. */
  expected_bytes?: number;
  quantization?: { method: string; logical_params: number; bytes_per_weight: number; scale_scalars: number };
};

/** @deprecated name kept for importers: bytes per safetensors dtype. */
export const DTYPE_BYTES = DTYPE_SIZE;

/** Buffers under every family's names. Mask-like `.bias` buffers are 2-D or more (real biases are 1-D). */
const BUFFER_PATTERNS = [
  /(^|\.)(position_ids|token_type_ids)$/,
  /inv_freq$/,
  /(^|\.)(cos|sin)_cached$/,
  /(^|\.)final_logits_bias$/,
  /(^|\.)causal_mask$/,
  /(^|\.)(running_mean|running_var|num_batches_tracked)$/,
  /(^|\.)_float_tensor$/,
];
const MASK_PATTERNS = [/(^|\.)(attn|attention)\.(bias|masked_bias)$/];
const AUX_PATTERNS = [
  /_scale_inv$/,
  /\.weight_scale$/,
  /\.input_scale$/,
  /_scales$/,
  /\.scales$/,
  /\.qzeros$/,
  /\.g_idx$/,
  /\.weight_zero_point$/,
  /\.weight_shape$/,
  /\.weight_global_scale$/,
  /\.(k|v)_scale$/,
  /\.(absmax|quant_map|nested_absmax|nested_quant_map|SCB|weight_format)$/,
  /\.quant_state\./,
];
const EMBED_SUFFIXES = [
  "embed_tokens.weight",
  "wte.weight",
  "word_embeddings.weight",
  "shared.weight",
  "tok_embeddings.weight",
];
const HEAD_NAMES = ["lm_head.weight", "proj_out.weight"];

export function scalarsOf(t: TensorHeader): number {
  let n = 1;
  for (const d of t.shape) {
    if (!Number.isInteger(d) || d < 0)
      throw new EstimatorInputError(`checkpoint.${t.name}.shape`, `bad dimension ${d}`);
    n *= d;
  }
  return n;
}

function isBuffer(t: TensorHeader, declared: StoredBuffer[]): boolean {
  if (BUFFER_PATTERNS.some((p) => p.test(t.name))) return true;
  if (t.shape.length >= 2 && MASK_PATTERNS.some((p) => p.test(t.name))) return true;
  return declared.some((b) => t.name === b.suffix || t.name.endsWith(`.${b.suffix}`));
}

export function isAux(name: string): boolean {
  return AUX_PATTERNS.some((p) => p.test(name));
}

/** Logical weights one stored element holds. */
function packFactor(t: TensorHeader, bits: number, bnb: boolean): number {
  if (t.name.endsWith("_blocks") && t.dtype === "U8") return 2; // mxfp4: two 4-bit values per byte
  if (t.dtype === "I32" && /\.(weight_packed|qweight)$/.test(t.name)) return 32 / bits;
  if (bnb && t.dtype === "U8" && t.name.endsWith(".weight")) return 2; // bitsandbytes 4-bit
  return 1;
}

function quantMethod(ts: TensorHeader[], q: QuantSpec | null): string | undefined {
  if (q) return q.method;
  if (ts.some((t) => t.name.endsWith("_blocks") && t.dtype === "U8")) return "mxfp4";
  if (ts.some((t) => t.name.endsWith(".weight_packed"))) return "int4_pack_quantized";
  if (ts.some((t) => t.name.endsWith(".qweight"))) return "int_qweight";
  if (ts.some((t) => t.dtype.startsWith("F8_"))) return "fp8";
  return undefined;
}

export type TiedCopy = { extra: number; names: string[]; shape: number[]; head: TensorHeader };

/** The LM head stored beside the input embedding of a model whose head is tied. */
export function tiedCopy(tied: boolean, ts: TensorHeader[]): TiedCopy | null {
  if (!tied) return null;
  const head = ts.find((t) => HEAD_NAMES.some((h) => t.name === h || t.name.endsWith(`.${h}`)));
  const emb = ts.find((t) => EMBED_SUFFIXES.some((s) => t.name.endsWith(s)));
  if (!head || !emb) return null;
  return { extra: scalarsOf(head), names: [head.name, emb.name], shape: head.shape, head };
}

export type HeaderTally = {
  stored: number;
  logical: number;
  quantLogical: number;
  quantBytes: number;
  auxScalars: number;
  storedBytes: number;
  /** Bytes as served: buffers and a tied copy out, floats wider than 16 bits at 2 bytes. */
  servedBytes: number;
  /** Stored bytes per dtype of what is served (buffers and a tied copy out). */
  weightBytesByDtype: Record<string, number>;
  dtypes: Record<string, number>;
  buffers: { name: string; scalars: number }[];
};

/** Sorts every stored tensor into buffers, quantization scales and (possibly packed) weights. */
export function tallyHeaders(
  ts: TensorHeader[],
  declared: StoredBuffer[],
  q: QuantSpec | null,
  skip: TensorHeader | null,
): HeaderTally {
  const bits = q && q.bits < 8 ? q.bits : 4;
  const bnb = ts.some((t) => /\.(absmax|quant_state\.)/.test(t.name));
  const s: HeaderTally = {
    stored: 0,
    logical: 0,
    quantLogical: 0,
    quantBytes: 0,
    auxScalars: 0,
    storedBytes: 0,
    servedBytes: 0,
    weightBytesByDtype: {},
    dtypes: {},
    buffers: [],
  };
  for (const t of ts) {
    const n = scalarsOf(t);
    const size = DTYPE_SIZE[t.dtype] ?? 1;
    const bytes = n * size;
    s.stored += n;
    s.storedBytes += bytes;
    s.dtypes[t.dtype] = (s.dtypes[t.dtype] ?? 0) + n;
    if (isBuffer(t, declared)) {
      s.buffers.push({ name: t.name, scalars: n });
      continue;
    }
    const auxT = isAux(t.name);
    if (t !== skip) {
      s.weightBytesByDtype[t.dtype] = (s.weightBytesByDtype[t.dtype] ?? 0) + bytes;
      const float = t.dtype === "F32" || t.dtype === "F64";
      s.servedBytes += float && !auxT ? n * 2 : bytes;
    }
    if (auxT) {
      s.auxScalars += n;
      s.quantBytes += bytes;
      continue;
    }
    const f = packFactor(t, bits, bnb);
    s.logical += n * f;
    if (f > 1 || t.dtype.startsWith("F8_") || (q !== null && (t.dtype === "I8" || t.dtype === "I32"))) {
      s.quantLogical += n * f;
      s.quantBytes += bytes;
    }
  }
  return s;
}

/** Compares a derived count (null when no structure was read) with the tensors' logical total. */
export function fromHeaders(
  r: ModelReading | null,
  tied: boolean,
  derived: number | null,
  ts: TensorHeader[],
  q: QuantSpec | null,
): { report: CheckpointReport; tally: HeaderTally } {
  const tie = tiedCopy(tied, ts);
  const t = tallyHeaders(ts, r?.storedBuffers ?? [], q, tie?.head ?? null);
  const extra = tie?.extra ?? 0;
  const expected = (derived ?? t.logical - extra) + extra;
  const report: CheckpointReport = {
    stored_total: t.stored,
    compared_total: t.logical,
    expected_total: expected,
    delta: t.logical > 0 ? (expected - t.logical) / t.logical : 0,
    delta_basis: "scalars",
    source: "headers",
    tied_embedding_stored_twice: tie !== null,
    extra_scalars: extra,
    dtypes: t.dtypes,
    buffers: t.buffers,
    stored_bytes: t.storedBytes,
  };
  if (tie) {
    report.tied_tensors = tie.names;
    report.tied_shape = tie.shape;
  }
  const method = quantMethod(ts, q);
  if (method && t.quantLogical > 0) {
    report.quantization = {
      method,
      logical_params: t.logical,
      bytes_per_weight: t.quantBytes / t.quantLogical,
      scale_scalars: t.auxScalars,
    };
  }
  return { report, tally: t };
}

/**
 * The index's total_size against the derived count. Unquantized: scalars = bytes / the dtype's size.
 * Quantized: the files mix dtypes, so bytes are compared with the bytes the structure predicts.
 */
export function fromIndex(
  derived: number,
  input: CheckpointInput,
  dtypeBytes: number,
  expectedBytes: number | null,
): CheckpointReport {
  const size = input.indexTotalSizeBytes;
  if (size === undefined || !Number.isFinite(size) || size <= 0) {
    throw new EstimatorInputError("checkpoint", "neither tensor headers nor a positive index total_size");
  }
  const base = {
    source: "index_total_size" as const,
    tied_embedding_stored_twice: false,
    extra_scalars: 0,
    buffers: [],
    stored_bytes: size,
  };
  if (expectedBytes !== null) {
    return {
      ...base,
      stored_total: derived,
      compared_total: derived,
      expected_total: derived,
      delta: (expectedBytes - size) / size,
      delta_basis: "bytes",
      dtypes: {},
      expected_bytes: expectedBytes,
    };
  }
  const stored = Math.round(size / dtypeBytes);
  return {
    ...base,
    stored_total: stored,
    compared_total: stored,
    expected_total: derived,
    delta: (derived - stored) / stored,
    delta_basis: "scalars",
    dtypes: { [dtypeBytes === 4 ? "F32" : "BF16/F16"]: stored },
  };
}
