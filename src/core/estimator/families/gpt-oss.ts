/**
 * gpt_oss (modeling_gpt_oss.py): GQA with q/k/v/o biases and one learned attention sink per head,
 * sliding/full alternation from layer_types, and a routed MoE whose experts hold fused gate_up
 * (h -> 2I, bias) and down (I -> h, bias) weights, router with bias. Experts ship in MXFP4.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { fullKv, layerTypesOf, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gqaAttention, type LayerSpec, moeBlock } from "./moe-parts.ts";
import { type TextDims, textDims } from "./qwen3-moe.ts";

function gptOssLayers(cfg: ConfigView, d: TextDims): LayerSpec[] {
  const bias = cfg.bool("attention_bias", true);
  const { hidden, heads, kvHeads, headDim } = d;
  const attn = gqaAttention({ hidden, heads, kvHeads, headDim, bias, oBias: bias, sinks: true });
  const inter = cfg.int("intermediate_size");
  const moe = moeBlock({
    hidden,
    experts: cfg.int("num_local_experts"),
    topK: cfg.intOf(["num_experts_per_tok", "experts_per_token"]),
    expertInter: inter,
    // gate_up_proj_bias (2I) + down_proj_bias (h) per expert.
    expertExtra: 2 * inter + hidden,
    routerBias: true,
    fusedGateUp: true,
  });
  return Array.from({ length: d.layers }, () => ({ mixer: attn, ffn: moe, norm1: hidden, norm2: hidden }));
}

/** gpt_oss: attention sinks, alternating sliding (window) / full layers, biased MoE experts. */
export function readGptOss(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const layers = gptOssLayers(cfg, d);
  // Upstream alternates sliding (even) and full (odd) layers when layer_types is absent.
  const types = layerTypesOf(cfg, d.layers, (i) => (i % 2 === 0 ? "sliding_attention" : "full_attention"));
  const window = cfg.optInt("sliding_window", 0, { min: 0 });
  const tied = cfg.bool("tie_word_embeddings", false);
  return textReading({
    cfg,
    family: "gpt_oss",
    ...d,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers: types.map((t) =>
      fullKv(d.kvHeads, d.headDim, t === "sliding_attention" && window > 0 ? window : undefined),
    ),
    quantization: readQuantization(cfg),
  });
}
