import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { readDenseDecoder } from "./dense-decoder.ts";

/** Qwen2/2.5 (modeling_qwen2.py): bias on q/k/v only, untied by default; sliding only with use_sliding_window. */
export function readQwen2(cfg: ConfigView): ModelReading {
  return readDenseDecoder(cfg, {
    family: "qwen2",
    qkvBias: true,
    oBias: false,
    qkNorm: false,
    mlpBias: false,
    tieDefault: false,
    slidingByDefault: false,
  });
}
