/**
 * jamba (transformers modeling_jamba.py / configuration_jamba.py; Jamba-v0.1, AI21-Jamba-1.5/1.6/1.7):
 * layer i is attention when i % `attn_layer_period` == `attn_layer_offset`, else a JambaMambaMixer
 * (Mamba v1 with RMSNorms on dt, B and C: in_proj h -> 2I, conv1d, x_proj, dt_proj, A_log, D, out_proj,
 * I = `mamba_expand` x hidden, dt_rank `mamba_dt_rank`, "auto" = ceil(hidden / 16)); its feed-forward is a
 * JambaSparseMoeBlock (router h -> E without bias, E SwiGLU experts of `intermediate_size`, top
 * `num_experts_per_tok`) when i % `expert_layer_period` == `expert_layer_offset` and `num_experts` > 1,
 * else a dense SwiGLU JambaMLP. Attention: q/k/v/o without bias, head_dim = hidden / heads, no RoPE.
 * RMSNorm before mixer and feed-forward, final RMSNorm, untied LM head by default.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { type Mamba1Spec, mamba1, mamba1State } from "./hybrid-parts.ts";
import { fullKv, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";

function mambaSpec(cfg: ConfigView, hidden: number): Mamba1Spec {
  const rank = cfg.raw.mamba_dt_rank;
  return {
    hidden,
    inner: cfg.optInt("mamba_expand", 2) * hidden,
    state: cfg.optInt("mamba_d_state", 16),
    kernel: cfg.optInt("mamba_d_conv", 4),
    dtRank: typeof rank === "number" ? cfg.int("mamba_dt_rank") : Math.ceil(hidden / 16),
    convBias: cfg.bool("mamba_conv_bias", true),
    projBias: cfg.bool("mamba_proj_bias", false),
    // transformers always builds dt/B/C RMSNorms; the original remote code made them optional.
    innerNorms: cfg.bool("mamba_inner_layernorms", true),
    stateBytes: 2,
  };
}

/** Which layers (0-based) are attention and which are MoE, per the config's periods and offsets. */
function jambaLayout(cfg: ConfigView, layers: number): { attention: boolean[]; moe: boolean[] } {
  const ap = cfg.optInt("attn_layer_period", 8);
  const ao = cfg.optInt("attn_layer_offset", 4, { min: 0 });
  const ep = cfg.optInt("expert_layer_period", 2);
  const eo = cfg.optInt("expert_layer_offset", 1, { min: 0 });
  if (ao >= ap) cfg.fail("attn_layer_offset", `${ao} must be below attn_layer_period ${ap}`);
  if (eo >= ep) cfg.fail("expert_layer_offset", `${eo} must be below expert_layer_period ${ep}`);
  const experts = cfg.optInt("num_experts", 16);
  const idx = Array.from({ length: layers }, (_, i) => i);
  return { attention: idx.map((i) => i % ap === ao), moe: idx.map((i) => experts > 1 && i % ep === eo) };
}

/** jamba: interleaved attention / Mamba layers with MoE on every other layer. */
export function readJamba(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const headDim = d.hidden / d.heads;
  const attn = gqaAttention({ hidden: d.hidden, heads: d.heads, kvHeads: d.kvHeads, headDim });
  const spec = mambaSpec(cfg, d.hidden);
  const mamba = mamba1(spec);
  const { attention, moe } = jambaLayout(cfg, d.layers);
  const sparse = moe.some(Boolean)
    ? moeBlock({
        hidden: d.hidden,
        experts: cfg.int("num_experts"),
        topK: cfg.int("num_experts_per_tok"),
        expertInter: cfg.int("intermediate_size"),
      })
    : null;
  const dense = gatedMlp(d.hidden, cfg.int("intermediate_size"));
  const layers: LayerSpec[] = attention.map((isAttn, i) => ({
    mixer: isAttn ? attn : mamba,
    mixerName: isAttn ? "Attention" : "Mamba",
    ffn: moe[i] ? sparse! : dense,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const kv = fullKv(d.kvHeads, headDim);
  const state = mamba1State(spec);
  const kvLayers: KvLayer[] = attention.map((a) => (a ? kv : state));
  const tied = cfg.bool("tie_word_embeddings", false);
  return textReading({
    cfg,
    family: "jamba",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers,
    quantization: readQuantization(cfg),
  });
}
