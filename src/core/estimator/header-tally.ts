/**
 * Sorting a checkpoint's tensors by their safetensors headers: buffers (set aside by name), quantization aux
 * tensors (scales, zero points, indices), and weights, packed ones unpacked to their logical count; a tied
 * embedding's second copy; scalars and bytes per dtype.
 */
import { EstimatorInputError } from "./config-view.ts";
import { DTYPE_SIZE } from "./dtypes.ts";
import type { QuantSpec } from "./quantization.ts";
import type { StoredBuffer, TensorHeader } from "./types.ts";

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

function scalarsOf(t: TensorHeader): number {
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

function isAux(name: string): boolean {
  return AUX_PATTERNS.some((p) => p.test(name));
}

/** Logical weights one stored element holds. */
function packFactor(t: TensorHeader, bits: number, bnb: boolean): number {
  if (t.name.endsWith("_blocks") && t.dtype === "U8") return 2; // mxfp4: two 4-bit values per byte
  if (t.dtype === "I32" && /\.(weight_packed|qweight)$/.test(t.name)) return 32 / bits;
  if (bnb && t.dtype === "U8" && t.name.endsWith(".weight")) return 2; // bitsandbytes 4-bit
  return 1;
}

export function quantMethod(ts: TensorHeader[], q: QuantSpec | null): string | undefined {
  if (q) return q.method;
  if (ts.some((t) => t.name.endsWith("_blocks") && t.dtype === "U8")) return "mxfp4";
  if (ts.some((t) => t.name.endsWith(".weight_packed"))) return "int4_pack_quantized";
  if (ts.some((t) => t.name.endsWith(".qweight"))) return "int_qweight";
  if (ts.some((t) => t.dtype.startsWith("F8_"))) return "fp8";
  return undefined;
}

type TiedCopy = { extra: number; names: string[]; shape: number[]; head: TensorHeader };

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
