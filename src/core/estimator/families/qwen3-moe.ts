/**
 * Readers for GQA decoders with routed-MoE feed-forwards: qwen3_moe, mixtral, minimax_m2.
 * Shapes follow transformers' modeling_qwen3_moe.py, modeling_mixtral.py and MiniMax-M2's remote
 * modeling_minimax_m2.py (per-layer q/k norms over the full q and kv widths, e_score_correction_bias).
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { fullKv, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, type Piece } from "./moe-parts.ts";

export type TextDims = {
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  layers: number;
  vocab: number;
  context: number | null;
};

/** The usual text keys (head_dim defaults to hidden / heads). */
export function textDims(cfg: ConfigView): TextDims {
  const hidden = cfg.int("hidden_size");
  const heads = cfg.int("num_attention_heads");
  return {
    hidden,
    heads,
    kvHeads: cfg.optInt("num_key_value_heads", heads),
    headDim: cfg.has("head_dim")
      ? cfg.int("head_dim")
      : divisible(cfg, "hidden_size", hidden, heads, "num_attention_heads"),
    layers: cfg.int("num_hidden_layers"),
    vocab: cfg.int("vocab_size"),
    context: cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null,
  };
}

/**
 * Routed experts of a Qwen3-MoE config: `num_experts`, or `num_local_experts` as transformers 5 writes
 * Qwen3MoeConfig (both set must agree); 0 when neither is.
 */
export function qwen3MoeExperts(cfg: ConfigView): number {
  const keys = ["num_experts", "num_local_experts"];
  return keys.some((k) => cfg.has(k)) ? cfg.intOf(keys, { min: 0 }) : 0;
}

/**
 * Per Qwen3-MoE layer (0-based): sparse unless listed in mlp_only_layers or off the sparse step. The keys are
 * read once, the experts only when some layer is not listed.
 */
export function qwen3MoeSparseLayers(cfg: ConfigView, layers: number): boolean[] {
  const out: boolean[] = [];
  if (layers === 0) return out;
  const only = (cfg.optArray("mlp_only_layers") ?? []) as number[];
  const step = cfg.optInt("decoder_sparse_step", 1);
  let experts: number | undefined;
  for (let i = 0; i < layers; i++) {
    if (only.includes(i)) {
      out.push(false);
      continue;
    }
    experts ??= qwen3MoeExperts(cfg);
    out.push(experts > 0 && (i + 1) % step === 0);
  }
  return out;
}

/** Layer specs of a qwen3_moe-style text config (also the text half of qwen3_vl_moe). */
export function qwen3MoeLayers(cfg: ConfigView, d: TextDims): LayerSpec[] {
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias: cfg.bool("attention_bias", false),
    qkNorm: [d.headDim, d.headDim],
  });
  // Dense layers (mlp_only_layers, off the sparse step) need intermediate_size, sparse ones the MoE keys.
  const sparse = qwen3MoeSparseLayers(cfg, d.layers);
  const moe = sparse.some(Boolean)
    ? moeBlock({
        hidden: d.hidden,
        experts: qwen3MoeExperts(cfg),
        topK: cfg.int("num_experts_per_tok"),
        expertInter: cfg.int("moe_intermediate_size"),
      })
    : null;
  const dense = sparse.every(Boolean) ? null : gatedMlp(d.hidden, cfg.int("intermediate_size"));
  return sparse.map((isSparse) => ({
    mixer: attn,
    ffn: (isSparse ? moe : dense)!,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
}

function assemble(
  cfg: ConfigView,
  family: string,
  d: TextDims,
  layers: LayerSpec[],
  warnings: string[] = [],
) {
  const tied = cfg.bool("tie_word_embeddings", false);
  const window = cfg.bool("use_sliding_window", false) ? cfg.optInt("sliding_window", 0, { min: 0 }) : 0;
  return textReading({
    cfg,
    family,
    ...d,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers: layers.map(() => fullKv(d.kvHeads, d.headDim, window || undefined)),
    quantization: readQuantization(cfg),
    warnings,
  });
}

/** qwen3_moe: GQA with per-head q/k RMSNorm, routed experts without a shared expert. */
export function readQwen3Moe(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  return assemble(cfg, "qwen3_moe", d, qwen3MoeLayers(cfg, d));
}

/** mixtral: GQA, every layer a routed MoE of SwiGLU experts (w1, w3, w2). */
export function readMixtral(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const attn = gqaAttention({ hidden: d.hidden, heads: d.heads, kvHeads: d.kvHeads, headDim: d.headDim });
  const moe = moeBlock({
    hidden: d.hidden,
    experts: cfg.int("num_local_experts"),
    topK: cfg.int("num_experts_per_tok"),
    expertInter: cfg.int("intermediate_size"),
  });
  const layers = Array.from({ length: d.layers }, () => ({
    mixer: attn,
    ffn: moe,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const r = assemble(cfg, "mixtral", d, layers);
  const window = cfg.optInt("sliding_window", 0, { min: 0 });
  if (window > 0) r.kvLayers = layers.map(() => fullKv(d.kvHeads, d.headDim, window));
  return r;
}

/**
 * minimax_m2: GQA with q/k RMSNorm over the whole q (heads x head_dim) and kv widths
 * (qk_norm_type "per_layer"), sigmoid router with e_score_correction_bias, no shared expert.
 * The MTP modules (use_mtp) are not in the published checkpoint: MiniMax-M2.7's stored total
 * equals the count without them, so they are not counted.
 */
export function readMinimaxM2(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const perLayer = cfg.optStr("qk_norm_type") === "per_layer";
  const qkNorm: [number, number] | undefined = !cfg.bool("use_qk_norm", false)
    ? undefined
    : perLayer
      ? [d.heads * d.headDim, d.kvHeads * d.headDim]
      : [d.headDim, d.headDim];
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    qkNorm,
  });
  const shared = cfg.optInt("shared_intermediate_size", 0, { min: 0 });
  const moe: Piece = moeBlock({
    hidden: d.hidden,
    experts: cfg.int("num_local_experts"),
    topK: cfg.int("num_experts_per_tok"),
    expertInter: cfg.int("intermediate_size"),
    correctionBias: cfg.bool("use_routing_bias", false),
    sharedInter: shared,
  });
  const layers = Array.from({ length: d.layers }, () => ({
    mixer: attn,
    ffn: moe,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const warnings = cfg.bool("use_mtp", false)
    ? ["minimax_m2: MTP modules (use_mtp) are not counted: the published checkpoints do not store them"]
    : [];
  return assemble(cfg, "minimax_m2", d, layers, warnings);
}
