import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { headFromArchitectures, readEncoder } from "./encoder.ts";

/**
 * RoBERTa and DistilRoBERTa (modeling_roberta.py): BERT layers, positions offset by padding_idx + 1 = 2,
 * classifier = dense + out_proj without pooler. A config without architectures (old roberta-base revisions)
 * is read as the published RobertaForMaskedLM.
 */
export function readRoberta(cfg: ConfigView): ModelReading {
  const hasArch = (cfg.optArray("architectures") ?? []).length > 0;
  const r = readEncoder(cfg, {
    family: "roberta",
    head: headFromArchitectures(cfg, "masked_lm"),
    robertaHeads: true,
    positionOffset: 2,
  });
  if (!hasArch)
    r.warnings.push(
      "architectures missing: head read as RobertaForMaskedLM (the published roberta checkpoints)",
    );
  return r;
}
