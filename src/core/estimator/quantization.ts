/**
 * The quantization a checkpoint's config declares (`quantization_config`, at the root or under
 * `text_config` / `thinker_config`), read once into the facts weight bytes need: which linears are
 * quantized, how their weights are packed, and what scales, zero points and indices are stored beside
 * them. Formats, as their transformers quantizers and kernels store them:
 *   fp8 (`weight_block_size` [bo, bi]): F8 weight + one F32 `weight_scale_inv` per bo x bi block
 *   mxfp4: U8 `_blocks` (two weights a byte) + one U8 `_scales` exponent per 32, routed experts only
 *   awq / gptq: I32 `qweight` (32/bits weights a word), I32 `qzeros` and F16 `scales` per group and
 *     output column; gptq adds an I32 `g_idx` per input row
 *   compressed-tensors pack-quantized: I32 `weight_packed` + `weight_scale` per group (model dtype),
 *     `weight_zero_point` when asymmetric, I32 `weight_shape` [2]; float-quantized: F8 + scales
 *   bitsandbytes nf4/fp4: U8 (two a byte) + absmax per 64 (double quant: U8 absmax + F32 per 256
 *     blocks); int8: I8 weight + F32 `SCB` per output row
 */
import type { ConfigView } from "./config-view.ts";
import { modelDtype } from "./dtypes.ts";

/** Parts of a model a format's ignore list (modules_to_not_convert, ignore, skip modules) keeps unquantized. */
export type QuantExclusion = "attention" | "mlp" | "shared" | "towers";

export type QuantSpec = {
  method: string;
  bits: number;
  /** Weights per scale along a row (the input dim); null for per-tensor or per-channel scales. */
  groupSize: number | null;
  /** fp8 block [out, in] of one scale. */
  block: [number, number] | null;
  /** Routed experts only (mxfp4; int4 checkpoints whose ignore list keeps attention and MLPs). */
  expertsOnly: boolean;
  exclude: Set<QuantExclusion>;
  /** Stored dtype of the packed or narrow weights, of the scales, and bytes per scale. */
  weightDtype: string;
  scaleDtype: string;
  zeros: boolean;
  gIdx: boolean;
  /** Scale granularity for formats without groups: one per tensor or one per output channel. */
  scalePer: "group" | "block" | "channel" | "tensor";
  doubleQuant: boolean;
  /** Per quantized matrix: extra fixed tensors (compressed-tensors weight_shape: 2 x I32). */
  perMatrixBytes: number;
};

/** Where a config declares its quantization: the root, else the text or thinker sub-config. */
function quantView(cfg: ConfigView): ConfigView | undefined {
  for (const at of [cfg, cfg.optSub("text_config"), cfg.optSub("thinker_config")]) {
    const q = at?.optSub("quantization_config");
    if (q) return q;
  }
  return undefined;
}

function strings(q: ConfigView, key: string): string[] {
  const v = q.raw[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Maps an ignore list's module names and `re:` patterns to the parts of a model they keep unquantized. */
function exclusionsOf(names: string[]): Set<QuantExclusion> {
  const out = new Set<QuantExclusion>();
  for (const n of names) {
    // Norms, routers (`mlp.gate`), embeddings and heads are never quantized linears anyway.
    if (/norm$|\.gate$|router|embed|lm_head/.test(n)) continue;
    if (/self_attn|attention|\.attn\b/.test(n)) out.add("attention");
    if (/shared_expert/.test(n)) out.add("shared");
    if (/mlp\\?\.\(?(gate|up|gate_up|down)(\||_proj)/.test(n) || /\.mlp$/.test(n)) out.add("mlp");
    if (/vision|visual|mm_projector|multi_modal|audio/.test(n)) out.add("towers");
  }
  return out;
}

function base(method: string, bits: number, weightDtype: string): QuantSpec {
  return {
    method,
    bits,
    groupSize: null,
    block: null,
    expertsOnly: false,
    exclude: new Set(),
    weightDtype,
    scaleDtype: "F32",
    zeros: false,
    gIdx: false,
    scalePer: "tensor",
    doubleQuant: false,
    perMatrixBytes: 0,
  };
}

function fp8(q: ConfigView): QuantSpec {
  const s = base("fp8", 8, "F8_E4M3");
  const b = q.raw.weight_block_size;
  if (Array.isArray(b) && b.length === 2 && b.every((x) => Number.isInteger(x) && x > 0)) {
    s.block = [b[0] as number, b[1] as number];
    s.scalePer = "block";
  }
  s.exclude = exclusionsOf(strings(q, "modules_to_not_convert"));
  return s;
}

function mxfp4(q: ConfigView): QuantSpec {
  const s = base("mxfp4", 4, "U8");
  s.groupSize = 32;
  s.scalePer = "group";
  s.scaleDtype = "U8";
  s.expertsOnly = true;
  s.exclude = exclusionsOf(strings(q, "modules_to_not_convert"));
  return s;
}

function gptqLike(q: ConfigView, method: string): QuantSpec {
  const bits = q.optInt("bits", 4, { max: 16 });
  const s = base(method, bits, "I32");
  const g = q.optInt("group_size", 128, { min: -1 });
  s.groupSize = g > 0 ? g : null;
  s.scalePer = g > 0 ? "group" : "channel";
  s.scaleDtype = "F16";
  s.zeros = true;
  s.gIdx = method === "gptq";
  s.exclude = exclusionsOf(strings(q, "modules_to_not_convert"));
  return s;
}

function compressedTensors(q: ConfigView, dtype: string): QuantSpec | undefined {
  const groups = q.optSub("config_groups");
  const first = groups ? Object.keys(groups.raw)[0] : undefined;
  const w = first ? groups?.optSub(first)?.optSub("weights") : undefined;
  if (!w) return undefined;
  const bits = w.optInt("num_bits", 4, { max: 16 });
  const isFloat = w.optStr("type") === "float";
  const s = base("compressed-tensors", bits, isFloat ? "F8_E4M3" : bits === 8 ? "I8" : "I32");
  const strategy = w.optStr("strategy") ?? "tensor";
  s.scaleDtype = isFloat ? "F32" : dtype;
  if (strategy === "group") {
    s.groupSize = w.optInt("group_size", 128);
    s.scalePer = "group";
  } else if (strategy === "block") {
    const b = w.raw.block_structure;
    s.block = Array.isArray(b) && b.length === 2 ? [b[0] as number, b[1] as number] : [128, 128];
    s.scalePer = "block";
  } else {
    s.scalePer = strategy === "channel" ? "channel" : "tensor";
  }
  s.zeros = w.bool("symmetric", true) === false;
  s.perMatrixBytes = bits < 8 ? 2 * 4 : 0;
  const ignore = strings(q, "ignore");
  s.exclude = exclusionsOf(ignore);
  // An ignore list that keeps attention and the dense MLPs leaves only the routed experts quantized.
  s.expertsOnly = s.exclude.has("attention") && s.exclude.has("mlp");
  return s;
}

function bitsandbytes(q: ConfigView): QuantSpec | undefined {
  const skip = exclusionsOf(strings(q, "llm_int8_skip_modules"));
  if (q.bool("load_in_4bit", false)) {
    const s = base(`bitsandbytes-${q.optStr("bnb_4bit_quant_type") ?? "fp4"}`, 4, "U8");
    s.groupSize = 64;
    s.scalePer = "group";
    s.doubleQuant = q.bool("bnb_4bit_use_double_quant", false);
    s.scaleDtype = s.doubleQuant ? "U8" : "F32";
    s.exclude = skip;
    return s;
  }
  if (q.bool("load_in_8bit", false)) {
    const s = base("bitsandbytes-int8", 8, "I8");
    s.scalePer = "channel";
    s.exclude = skip;
    return s;
  }
  return undefined;
}

/** The quantization a config declares, or null (also for formats whose storage is not modelled). */
export function quantSpecOf(cfg: ConfigView): QuantSpec | null {
  const q = quantView(cfg);
  if (!q) return null;
  const method = q.optStr("quant_method") ?? "";
  if (method === "fp8") return fp8(q);
  if (method === "mxfp4") return mxfp4(q);
  if (method === "awq" || method === "gptq") return gptqLike(q, method);
  if (method === "compressed-tensors") return compressedTensors(q, modelDtype(cfg)) ?? null;
  if (method === "bitsandbytes" || q.has("load_in_4bit") || q.has("load_in_8bit"))
    return bitsandbytes(q) ?? null;
  return null;
}

/** The JSON `quantization` object: method, bits, group size (null when scales are per block, channel or tensor). */
export function quantJson(q: QuantSpec): { method: string; bits: number; group_size: number | null } {
  return { method: q.method, bits: q.bits, group_size: q.groupSize };
}
