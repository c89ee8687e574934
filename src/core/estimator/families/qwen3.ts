import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { readDenseDecoder } from "./dense-decoder.ts";

/** Qwen3 (modeling_qwen3.py): per-head RMSNorm on q and k, attention_bias on q/k/v/o (default off). */
export function readQwen3(cfg: ConfigView): ModelReading {
  const bias = cfg.bool("attention_bias", false);
  return readDenseDecoder(cfg, {
    family: "qwen3",
    qkvBias: bias,
    oBias: bias,
    qkNorm: true,
    mlpBias: false,
    tieDefault: false,
    slidingByDefault: false,
  });
}
