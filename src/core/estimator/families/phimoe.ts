/**
 * phimoe (transformers modeling_phimoe.py / configuration_phimoe.py; Phi-3.5-MoE): Mixtral-shaped
 * decoder with PhimoeAttention (q/k/v/o, all with bias when `attention_bias`), nn.LayerNorm (weight and
 * bias) for both pre-norms and the final norm, PhimoeSparseMoeBlock (router h -> E without bias,
 * `num_local_experts` SwiGLU experts w1/w3/w2 of `intermediate_size`, top-`num_experts_per_tok` by
 * sparsemixer) on every layer, and an LM head with bias when `lm_head_bias`. A `sliding_window` in the
 * config caps every layer's cache (Mixtral's mask).
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { decoderTower, fullKv, readQuantization, textReading, textSeq } from "./moe-frame.ts";
import { gqaAttention, type LayerSpec, moeBlock } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";

/** phimoe: LayerNorm + biased GQA + routed SwiGLU experts, LM head with bias. */
export function readPhimoe(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const bias = cfg.bool("attention_bias", false);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias,
    oBias: bias,
  });
  const moe = moeBlock({
    hidden: d.hidden,
    experts: cfg.int("num_local_experts"),
    topK: cfg.int("num_experts_per_tok"),
    expertInter: cfg.int("intermediate_size"),
  });
  const ln = 2 * d.hidden;
  const layer: LayerSpec = { mixer: attn, ffn: moe, norm1: ln, norm2: ln, normType: "LayerNorm" };
  const tied = cfg.bool("tie_word_embeddings", false);
  const tower = decoderTower({
    seq: textSeq(d.context),
    hidden: d.hidden,
    vocab: d.vocab,
    layers: Array.from({ length: d.layers }, () => layer),
    tied,
    finalNorm: ln,
    normType: "LayerNorm",
  });
  if (cfg.bool("lm_head_bias", false)) {
    const head = tower.nodes[tower.nodes.length - 1]!;
    head.params += d.vocab;
  }
  const window = cfg.optInt("sliding_window", 0, { min: 0 });
  return textReading({
    cfg,
    family: "phimoe",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [tower],
    kvLayers: Array.from({ length: d.layers }, () => fullKv(d.kvHeads, d.headDim, window || undefined)),
    quantization: readQuantization(cfg),
  });
}
