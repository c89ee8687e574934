import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { headFromArchitectures, readEncoder } from "./encoder.ts";

/** BERT (modeling_bert.py); BertForSequenceClassification = pooler + classifier (cross-encoders). */
export function readBert(cfg: ConfigView): ModelReading {
  return readEncoder(cfg, {
    family: "bert",
    head: headFromArchitectures(cfg, "model"),
    robertaHeads: false,
    positionOffset: 0,
  });
}
