import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { readDenseDecoder } from "./dense-decoder.ts";

/** Llama 2/3 (modeling_llama.py): attention_bias on q/k/v/o, mlp_bias on the MLP, untied by default. */
export function readLlama(cfg: ConfigView): ModelReading {
  const bias = cfg.bool("attention_bias", false);
  return readDenseDecoder(cfg, {
    family: "llama",
    qkvBias: bias,
    oBias: bias,
    qkNorm: false,
    mlpBias: cfg.bool("mlp_bias", false),
    tieDefault: false,
    slidingByDefault: false,
  });
}
