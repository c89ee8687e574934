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
import { kvByKind } from "./decoder-kit.ts";
import { type DecoderDims, decoderDims } from "./dense-decoder.ts";
import { layerTypesOf } from "./moe-frame.ts";
import { gatedMlp } from "./moe-parts.ts";
import { dimsAttention, sameKv, uniformDecoder } from "./uniform-decoder.ts";

function readCohereFamily(cfg: ConfigView, family: "cohere" | "cohere2"): ModelReading {
  const d = decoderDims(cfg);
  const qkNorm = family === "cohere" && cfg.bool("use_qk_norm", false);
  const mlp = gatedMlp(d.hidden, d.inter);
  mlp.type = "SwiGLU (parallel)";
  return uniformDecoder({
    cfg,
    family,
    d,
    attn: dimsAttention(d, cfg.bool("attention_bias", false), undefined, qkNorm),
    ffn: mlp,
    norm: d.hidden,
    norm2: 0,
    normType: "LayerNorm (no bias)",
    shape: "parallel",
    tied: cfg.bool("tie_word_embeddings", true),
    kvLayers: family === "cohere2" ? cohere2Kv(cfg, d) : sameKv(d),
  });
}

function cohere2Kv(cfg: ConfigView, d: DecoderDims): KvLayer[] {
  const every = cfg.optInt("sliding_window_pattern", 4);
  const kinds = layerTypesOf(cfg, d.layers, (i) =>
    (i + 1) % every === 0 ? "full_attention" : "sliding_attention",
  );
  return kvByKind(kinds, d.kvHeads, d.headDim, cfg.has("sliding_window") ? cfg.int("sliding_window") : null);
}

/** cohere: parallel attention + SwiGLU under one bias-free LayerNorm, optional q/k norms. */
export function readCohere(cfg: ConfigView): ModelReading {
  return readCohereFamily(cfg, "cohere");
}

/** cohere2: cohere's layers with 3:1 sliding-window / full attention. */
export function readCohere2(cfg: ConfigView): ModelReading {
  return readCohereFamily(cfg, "cohere2");
}
