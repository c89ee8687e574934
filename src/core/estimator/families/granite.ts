import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { readDenseDecoder } from "./dense-decoder.ts";

/**
 * granite (modeling_granite.py): Llama's layers (q/k/v/o with attention_bias, SwiGLU with mlp_bias,
 * RMSNorms), untied by default (Granite 3.x configs tie). embedding_multiplier, residual_multiplier,
 * attention_multiplier and logits_scaling scale activations and change no parameter count.
 */
export function readGranite(cfg: ConfigView): ModelReading {
  const bias = cfg.bool("attention_bias", false);
  return readDenseDecoder(cfg, {
    family: "granite",
    qkvBias: bias,
    oBias: bias,
    qkNorm: false,
    mlpBias: cfg.bool("mlp_bias", false),
    tieDefault: false,
    slidingByDefault: false,
  });
}
