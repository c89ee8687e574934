/**
 * cohere (modeling_cohere.py: Command-R, Command-R+, Aya-23) and cohere2 (modeling_cohere2.py:
 * Command-R7B, Command-A).
 * One input_layernorm per layer (CohereLayerNorm: weight only, no bias) feeds attention and the MLP in
 * parallel; their outputs are added to the residual. Attention q/k/v/o with attention_bias (default
 * off); cohere with use_qk_norm (Command-R+) adds q_norm / k_norm CohereLayerNorms of heads x head_dim
 * and kv x head_dim weights; cohere2 has none. SwiGLU MLP without bias; final CohereLayerNorm; LM head
 * tied by default; logit_scale is a plain float. cohere2 layers follow layer_types, else
 * sliding_window_pattern (default 4: every fourth layer full, the others windowed at sliding_window).
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { kvByKind, repeatLayer, textFrameTower, textModel } from "./decoder-kit.ts";
import { decoderDims } from "./dense-decoder.ts";
import { fullKv, layerTypesOf, textSeq } from "./moe-frame.ts";
import { gatedMlp, gqaAttention } from "./moe-parts.ts";

function readCohereFamily(cfg: ConfigView, family: "cohere" | "cohere2"): ModelReading {
  const d = decoderDims(cfg);
  const bias = cfg.bool("attention_bias", false);
  const qkNorm = family === "cohere" && cfg.bool("use_qk_norm", false);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias,
    oBias: bias,
    qkNorm: qkNorm ? [d.heads * d.headDim, d.kvHeads * d.headDim] : undefined,
  });
  const mlp = gatedMlp(d.hidden, d.inter);
  mlp.type = "SwiGLU (parallel)";
  const tied = cfg.bool("tie_word_embeddings", true);
  const tower = textFrameTower({
    seq: textSeq(d.context),
    hidden: d.hidden,
    vocab: d.vocab,
    layers: repeatLayer(d.layers, { mixer: attn, ffn: mlp, norm1: d.hidden, norm2: 0 }),
    shape: "parallel",
    tied,
    finalNorm: d.hidden,
    normType: "LayerNorm (no bias)",
    rope: true,
  });
  return textModel({
    cfg,
    family,
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [tower],
    kvLayers:
      family === "cohere2"
        ? cohere2Kv(cfg, d.layers, d.kvHeads, d.headDim)
        : allFull(d.layers, d.kvHeads, d.headDim),
    warnings: [],
  });
}

function allFull(layers: number, kvHeads: number, headDim: number): KvLayer[] {
  const kv = fullKv(kvHeads, headDim);
  return Array.from({ length: layers }, () => kv);
}

function cohere2Kv(cfg: ConfigView, layers: number, kvHeads: number, headDim: number): KvLayer[] {
  const every = cfg.optInt("sliding_window_pattern", 4);
  const kinds = layerTypesOf(cfg, layers, (i) =>
    (i + 1) % every === 0 ? "full_attention" : "sliding_attention",
  );
  return kvByKind(kinds, kvHeads, headDim, cfg.has("sliding_window") ? cfg.int("sliding_window") : null);
}

/** cohere: parallel attention + SwiGLU under one bias-free LayerNorm, optional q/k norms. */
export function readCohere(cfg: ConfigView): ModelReading {
  return readCohereFamily(cfg, "cohere");
}

/** cohere2: cohere's layers with 3:1 sliding-window / full attention. */
export function readCohere2(cfg: ConfigView): ModelReading {
  return readCohereFamily(cfg, "cohere2");
}
