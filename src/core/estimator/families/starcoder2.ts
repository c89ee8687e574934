/**
 * starcoder2 (modeling_starcoder2.py): LayerNorm (weight and bias, norm_epsilon) before attention and
 * before the MLP; q/k/v/o with use_bias (default true); a plain MLP c_fc (h -> I) and c_proj (I -> h)
 * with use_bias and gelu_pytorch_tanh, not SwiGLU; final LayerNorm; LM head tied by default. When the
 * config sets sliding_window every layer's attention (and cache) is windowed. No persistent buffers.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { repeatLayer, textFrameTower, textModel } from "./decoder-kit.ts";
import { decoderDims } from "./dense-decoder.ts";
import { fullKv, textSeq } from "./moe-frame.ts";
import { gqaAttention, plainMlp } from "./moe-parts.ts";

/** starcoder2: GQA + GELU MLP, biases throughout. */
export function readStarcoder2(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const bias = cfg.bool("use_bias", true);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias,
    oBias: bias,
  });
  const mlp = plainMlp(d.hidden, d.inter, bias, "GELU MLP");
  const tied = cfg.bool("tie_word_embeddings", true);
  const tower = textFrameTower({
    seq: textSeq(d.context),
    hidden: d.hidden,
    vocab: d.vocab,
    layers: repeatLayer(d.layers, {
      mixer: attn,
      ffn: mlp,
      norm1: 2 * d.hidden,
      norm2: 2 * d.hidden,
      normType: "LayerNorm",
    }),
    shape: "pre",
    tied,
    finalNorm: 2 * d.hidden,
    normType: "LayerNorm",
    rope: true,
  });
  const kv = fullKv(d.kvHeads, d.headDim, cfg.has("sliding_window") ? cfg.int("sliding_window") : undefined);
  return textModel({
    cfg,
    family: "starcoder2",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [tower],
    kvLayers: Array.from({ length: d.layers }, () => kv),
    warnings: [],
  });
}
