/**
 * starcoder2 (modeling_starcoder2.py): LayerNorm (weight and bias, norm_epsilon) before attention and
 * before the MLP; q/k/v/o with use_bias (default true); a plain MLP c_fc (h -> I) and c_proj (I -> h)
 * with use_bias and gelu_pytorch_tanh, not SwiGLU; final LayerNorm; LM head tied by default. When the
 * config sets sliding_window every layer's attention (and cache) is windowed. No persistent buffers.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { decoderDims } from "./dense-decoder.ts";
import { plainMlp } from "./moe-parts.ts";
import { dimsAttention, sameKv, uniformDecoder } from "./uniform-decoder.ts";

/** starcoder2: GQA + GELU MLP, biases throughout. */
export function readStarcoder2(cfg: ConfigView): ModelReading {
  const d = decoderDims(cfg);
  const bias = cfg.bool("use_bias", true);
  return uniformDecoder({
    cfg,
    family: "starcoder2",
    d,
    attn: dimsAttention(d, bias),
    ffn: plainMlp(d.hidden, d.inter, bias, "GELU MLP"),
    norm: 2 * d.hidden,
    normType: "LayerNorm",
    shape: "pre",
    tied: cfg.bool("tie_word_embeddings", true),
    kvLayers: sameKv(d, cfg.has("sliding_window") ? cfg.int("sliding_window") : undefined),
  });
}
