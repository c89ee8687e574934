import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { readDenseDecoder } from "./dense-decoder.ts";

/** Mistral (modeling_mistral.py): no biases; sliding-window cache on every layer when sliding_window is set. */
export function readMistral(cfg: ConfigView): ModelReading {
  return readDenseDecoder(cfg, {
    family: "mistral",
    qkvBias: false,
    oBias: false,
    qkNorm: false,
    mlpBias: false,
    tieDefault: false,
    slidingByDefault: true,
  });
}
