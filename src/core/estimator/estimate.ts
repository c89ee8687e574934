/**
 * The estimator's entry point: config (parsed JSON) and optional checkpoint headers in, a plan out.
 * Pure: no I/O. Bad input throws EstimatorInputError naming the key, except that with headers a config
 * the readers cannot read still gets exact parameters, weight bytes and a serving verdict (figures that
 * need the structure are listed under `missing`).
 */
import { fromHeaders, fromIndex } from "./checkpoint.ts";
import { type ConfigView, configView, EstimatorInputError } from "./config-view.ts";
import { DTYPE_SIZE, modelDtype } from "./dtypes.ts";
import {
  assertFinite,
  type Estimate,
  fitJson,
  type MissingJson,
  memoryJson,
  type WeightsJson,
  weightsJson,
} from "./estimate-json.ts";
import { fitTable } from "./fit.ts";
import { headersOnlyEstimate } from "./headers-only.ts";
import { planMemory, trainTokensOf } from "./memory.ts";
import { type QuantSpec, quantJson, quantSpecOf } from "./quantization.ts";
import { type Resolved, resolveModel } from "./resolve.ts";
import { type NodeScan, scanNodes } from "./scan.ts";
import { declaredBufferBytes } from "./stored-total.ts";
import type { CheckpointInput, ModelReading, TensorHeader } from "./types.ts";
import { weightBytes } from "./weights.ts";

export type { Estimate } from "./estimate-json.ts";

/**
 * Version of the numbers. Bump rules: any change in a derived number (params, memory, batch, verdict, delta)
 * bumps the minor version at least; a new family or a fix that changes an existing family's count bumps minor;
 * output shape changes that remove or rename keys bump major; wording-only changes bump patch.
 */
export const ESTIMATOR_VERSION = "1.6.0";

/** What the checkpoint says, folded into the estimate's parameters and weights. */
type FromFiles = {
  checkpoint?: Estimate["checkpoint"];
  weights: WeightsJson;
  total: number;
  source: "structure" | "headers";
  quantized: boolean;
  warnings: string[];
};

function fromTensors(
  r: ModelReading,
  tied: boolean,
  derived: number,
  tensors: TensorHeader[],
  q: QuantSpec | null,
): FromFiles {
  const { report, tally } = fromHeaders(r, tied, derived, tensors, q);
  const stored = report.compared_total - report.extra_scalars;
  const mismatch = report.expected_total !== report.compared_total;
  const warnings = mismatch
    ? [
        `reader_mismatch: the structure gives ${derived.toLocaleString("en-US")} parameters, the checkpoint stores ${stored.toLocaleString("en-US")} (buffers, quantization scales${report.tied_embedding_stored_twice ? " and the tied embedding's second copy" : ""} set aside): parameters, memory and fit use the stored figures`,
      ]
    : [];
  return {
    checkpoint: report,
    weights: weightsJson(tally.servedBytes, tally.weightBytesByDtype, "headers"),
    total: mismatch ? stored : derived,
    source: mismatch ? "headers" : "structure",
    quantized: q !== null || report.quantization !== undefined,
    warnings,
  };
}

function fromConfig(
  r: ModelReading,
  cfg: ConfigView,
  derived: number,
  q: QuantSpec | null,
  input: CheckpointInput | undefined,
): FromFiles {
  const dtype = modelDtype(cfg);
  const w = weightBytes(r, q, dtype, derived);
  const out: FromFiles = {
    weights: weightsJson(w.served, w.byDtype, "config"),
    total: derived,
    source: "structure",
    quantized: q !== null,
    warnings: [],
  };
  if (input?.indexTotalSizeBytes !== undefined) {
    const expected = q ? w.stored + declaredBufferBytes(r) : null;
    out.checkpoint = fromIndex(derived, input, DTYPE_SIZE[dtype] ?? 2, expected);
  } else if (input) {
    fromIndex(derived, input, 2, null); // throws: neither headers nor a total
  }
  return out;
}

function quantNote(q: QuantSpec | null, quantized: boolean): string[] {
  if (!quantized) return [];
  return [
    `quantized checkpoint${q ? ` (${q.method})` : ""}: serving and LoRA (QLoRA) keep the weights as stored; a full fine-tune is costed dequantized (bf16 weights, fp32 AdamW state)`,
  ];
}

/** Reads the structure; with headers, a config no reader can read yields null and the reason. */
function readOrExplain(cfg: ConfigView, headers: boolean): Resolved | { error: EstimatorInputError } {
  try {
    return resolveModel(cfg);
  } catch (err) {
    if (headers && err instanceof EstimatorInputError) return { error: err };
    throw err;
  }
}

function structured(
  cfg: ConfigView,
  res: Resolved,
  scan: NodeScan,
  input: CheckpointInput | undefined,
): Estimate {
  const r = res.reading;
  const q = quantSpecOf(cfg);
  const tensors = input?.tensors && input.tensors.length > 0 ? input.tensors : null;
  // A head stored beside the embedding is a tied copy only when the model ties them: a family reader knows
  // its default; the generic reading trusts only an explicit tie_word_embeddings.
  const tied = res.confidence === "known" ? r.tiedEmbedding : cfg.raw.tie_word_embeddings === true;
  const files = tensors
    ? fromTensors(r, tied, scan.total, tensors, q)
    : fromConfig(r, cfg, scan.total, q, input);
  const mem = planMemory(r, files.total, scan, { bytes: files.weights.bytes, quantized: files.quantized });
  const out: Estimate = {
    estimator_version: ESTIMATOR_VERSION,
    model_type: r.modelType,
    family: r.family,
    reader: { family: r.family, confidence: res.confidence },
    params: {
      total: files.total,
      active: files.total - (scan.total - scan.active),
      towers: scan.towers,
      tied_embedding: r.tiedEmbedding,
      derived: scan.total,
      source: files.source,
    },
    weights: files.weights,
    quantization: q ? quantJson(q) : null,
    memory: {
      full_finetune: memoryJson(mem.full),
      lora: memoryJson(mem.lora),
      serve: memoryJson(mem.serve),
      kv_cache: memoryJson(mem.kvCache),
      lora_params: mem.loraParams,
    },
    fit: fitJson(fitTable(r, mem, false, scan.costs)),
    structure: scan.rows,
    warnings: [...r.warnings, ...files.warnings, ...quantNote(q, files.quantized)],
  };
  if (files.checkpoint) out.checkpoint = files.checkpoint;
  return out;
}

/** Estimate parameters, checkpoint agreement, memory and card fit for one config. */
export function estimate(config: unknown, opts: { checkpoint?: CheckpointInput } = {}): Estimate {
  const cfg = configView(config);
  const tensors = opts.checkpoint?.tensors;
  const headers = tensors !== undefined && tensors.length > 0;
  const res = readOrExplain(cfg, headers);
  let out: Estimate;
  if ("error" in res) {
    const why: MissingJson["why"] = `no structure: ${res.error.message}`;
    out = headersOnlyEstimate(cfg, tensors!, quantSpecOf(cfg), why, ESTIMATOR_VERSION);
  } else {
    const scan = scanNodes(res.reading, trainTokensOf(res.reading));
    out = structured(cfg, res, scan, opts.checkpoint);
  }
  // The structure was checked node by node in scanNodes; walk the rest.
  assertFinite(out, "(estimate)", "structure");
  return out;
}
