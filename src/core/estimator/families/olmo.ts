/**
 * olmo2 (modeling_olmo2.py) and olmo3 (modeling_olmo3.py).
 * Norms after each sublayer, before its residual add: post_attention_layernorm and
 * post_feedforward_layernorm (RMSNorm), no pre-norms. Attention q/k/v/o with attention_bias (default
 * off) and q_norm / k_norm over the whole projection (heads x head_dim and kv x head_dim weights, not
 * per head). SwiGLU MLP without bias; final RMSNorm; LM head untied by default.
 * olmo3 alternates sliding-window and full attention per layer_types (default: every fourth layer
 * full) with sliding_window (default 4096); olmo2 attends fully on every layer.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { type DefaultsUsed, defaultsWarning, intOr, kvByKind } from "./decoder-kit.ts";
import { decoderDims } from "./dense-decoder.ts";
import { layerTypesOf } from "./moe-frame.ts";
import { gatedMlp } from "./moe-parts.ts";
import { dimsAttention, uniformDecoder } from "./uniform-decoder.ts";

function readOlmo(cfg: ConfigView, family: "olmo2" | "olmo3"): ModelReading {
  const used: DefaultsUsed = [];
  const d = decoderDims(cfg);
  const kinds =
    family === "olmo3"
      ? layerTypesOf(cfg, d.layers, (i) => ((i + 1) % 4 === 0 ? "full_attention" : "sliding_attention"))
      : layerTypesOf(cfg, d.layers, () => "full_attention");
  const window = family === "olmo3" ? intOr(cfg, "sliding_window", 4096, used) : null;
  return uniformDecoder({
    cfg,
    family,
    d,
    attn: dimsAttention(d, cfg.bool("attention_bias", false), undefined, true),
    ffn: gatedMlp(d.hidden, d.inter),
    norm: d.hidden,
    normType: "RMSNorm",
    shape: "post",
    tied: cfg.bool("tie_word_embeddings", false),
    kvLayers: kvByKind(kinds, d.kvHeads, d.headDim, window),
    warnings: defaultsWarning("Olmo3Config", used),
  });
}

/** olmo2: post-norm layers with whole-projection q/k norms. */
export function readOlmo2(cfg: ConfigView): ModelReading {
  return readOlmo(cfg, "olmo2");
}

/** olmo3: olmo2's layers with 3:1 sliding-window / full attention. */
export function readOlmo3(cfg: ConfigView): ModelReading {
  return readOlmo(cfg, "olmo3");
}
