/**
 * The estimate of a checkpoint whose config no reader can read, from its safetensors headers alone: exact
 * parameters and weight bytes, the weights' memory per mode and a serving verdict on the weights. What needs
 * the structure (KV cache, activations, LoRA adapters, layer splits) is listed under `missing`, with why.
 */
import { fromHeaders } from "./checkpoint.ts";
import type { ConfigView } from "./config-view.ts";
import { type Estimate, fitJson, memoryJson, weightsJson } from "./estimate-json.ts";
import { weightsOnlyServeRows } from "./fit.ts";
import { FULL_BYTES_PER_PARAM, SERVE_TOKENS, TRAIN_TOKENS } from "./memory.ts";
import { type QuantSpec, quantJson } from "./quantization.ts";
import type { MemoryFigure, TensorHeader } from "./types.ts";

function figure(tokens: number, batch: number, breakdown: Record<string, number>): MemoryFigure {
  let bytes = 0;
  for (const v of Object.values(breakdown)) bytes += v;
  return { bytes, tokens, batch, breakdown };
}

const NEEDS_STRUCTURE = [
  "kv_cache",
  "activations",
  "lora_params",
  "full_finetune and lora fit",
  "layer splits",
  "active params",
];

export function headersOnlyEstimate(
  cfg: ConfigView,
  tensors: TensorHeader[],
  q: QuantSpec | null,
  why: string,
  version: string,
): Estimate {
  const tied = cfg.raw.tie_word_embeddings === true;
  const { report, tally } = fromHeaders(null, tied, null, tensors, q);
  const total = report.compared_total - report.extra_scalars;
  const quantized = q !== null || report.quantization !== undefined;
  const weights = weightsJson(tally.servedBytes, tally.weightBytesByDtype, "headers");
  const modelType = cfg.optStr("model_type") ?? "";
  const full = figure(TRAIN_TOKENS, 1, { weights_grads_optimizer: FULL_BYTES_PER_PARAM * total });
  const lora = figure(TRAIN_TOKENS, 1, { base_weights: quantized ? weights.bytes : 2 * total });
  return {
    estimator_version: version,
    model_type: modelType,
    family: "none",
    reader: { family: "none", confidence: "generic" },
    params: { total, active: total, towers: {}, tied_embedding: tied, derived: null, source: "headers" },
    weights,
    quantization: q ? quantJson(q) : null,
    checkpoint: report,
    memory: {
      full_finetune: memoryJson(full),
      lora: memoryJson(lora),
      serve: memoryJson(figure(SERVE_TOKENS, 0, { weights: weights.bytes })),
      kv_cache: memoryJson(figure(SERVE_TOKENS, 1, {})),
      lora_params: 0,
    },
    fit: fitJson(weightsOnlyServeRows(weights.bytes)),
    structure: [],
    missing: NEEDS_STRUCTURE.map((figure) => ({ figure, why })),
    warnings: [
      `${modelType || "(no model_type)"}: parameters and weight bytes from the safetensors headers only; ${why}`,
    ],
  };
}
