/**
 * A diffusers pipeline's estimate: one row per model component (unet or transformer, vae, text encoders...)
 * and their sum. Pure.
 *   params(component) = sum over its safetensors tensors of prod(shape), buffers set aside (header-first, exact);
 *                       without a header, a transformers component (CLIPTextModel, T5EncoderModel...) is counted
 *                       from its config.json by the transformers estimator; a diffusers model is "unknown".
 *   serve bytes       = sum over components of their weights at the pipeline's dtype (the fp16 / bf16 variant's
 *                       stored bytes; float32 files served at 2 bytes per parameter), fit per card on the weights.
 * Schedulers, tokenizers and image processors hold no parameters.
 * Latents, attention and VAE decode activations depend on the image size and are not counted.
 */
import type { ModelIndex } from "../diff/diffusers.ts";
import { fromHeaders } from "./checkpoint.ts";
import { estimate } from "./estimate.ts";
import type { Estimate, FitJson } from "./estimate-json.ts";
import { CARDS, cell, NO_SPLIT } from "./fit.ts";
import { FULL_BYTES_PER_PARAM, TRAIN_TOKENS } from "./memory.ts";
import type { TensorHeader } from "./types.ts";

/** One component's files as stored: its config.json (parsed; null when absent) and the tensors read. */
export type ComponentFiles = { config: Record<string, unknown> | null; tensors: TensorHeader[] | null };

type DiffusersComponentJson = {
  name: string;
  library: string;
  class: string;
  /** null: a model whose parameters could not be counted (no header, not a transformers config). */
  params: number | null;
  source: "headers" | "config" | "unknown" | "none";
  /** Bytes served at the pipeline dtype (null when params are unknown). */
  serve_bytes: number | null;
  /** Stored bytes per dtype of the files read. */
  by_dtype: Record<string, number>;
  note: string | null;
};

export type DiffusersJson = {
  pipeline: string;
  diffusers_version: string | null;
  /** The weights variant read (fp16, bf16) or null: the default files. */
  variant: string | null;
  components: DiffusersComponentJson[];
};

export type DiffusersEstimate = Estimate & { diffusers: DiffusersJson };

function fromTensors(
  name: string,
  ref: { library: string; class: string },
  ts: TensorHeader[],
): DiffusersComponentJson {
  const { report, tally } = fromHeaders(null, false, null, ts, null);
  return {
    name,
    ...ref,
    params: report.compared_total,
    source: "headers",
    serve_bytes: tally.servedBytes,
    by_dtype: tally.weightBytesByDtype,
    note: null,
  };
}

/** A transformers component without a header: the transformers estimator on its config.json. */
function fromConfig(
  name: string,
  ref: { library: string; class: string },
  config: Record<string, unknown>,
): DiffusersComponentJson {
  const unknown = (note: string): DiffusersComponentJson => ({
    name,
    ...ref,
    params: null,
    source: "unknown",
    serve_bytes: null,
    by_dtype: {},
    note,
  });
  if (ref.library !== "transformers") return unknown("no safetensors header read: parameters unknown");
  try {
    const e = estimate(config);
    const note = `counted from config.json by the ${e.reader.family} reader (${e.reader.confidence})`;
    if (e.reader.confidence !== "known") return unknown(`no safetensors header, and ${note}: not used`);
    return {
      name,
      ...ref,
      params: e.params.total,
      source: "config",
      serve_bytes: 2 * e.params.total,
      by_dtype: {},
      note,
    };
  } catch (err) {
    return unknown(`no safetensors header; config.json: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Components that hold no parameters: schedulers, tokenizers, image processors. */
const NO_PARAMS = /(Scheduler|Tokenizer|TokenizerFast|FeatureExtractor|ImageProcessor|Processor)$/;

function componentRow(
  name: string,
  ref: { library: string; class: string },
  f: ComponentFiles | undefined,
): DiffusersComponentJson {
  if (f?.tensors && f.tensors.length > 0) return fromTensors(name, ref, f.tensors);
  if (NO_PARAMS.test(ref.class))
    return { name, ...ref, params: 0, source: "none", serve_bytes: 0, by_dtype: {}, note: null };
  if (f?.config) return fromConfig(name, ref, f.config);
  return {
    name,
    ...ref,
    params: null,
    source: "unknown",
    serve_bytes: null,
    by_dtype: {},
    note: "no config.json and no safetensors header read: parameters unknown",
  };
}

function figure(tokens: number, batch: number, breakdown: Record<string, number>) {
  let bytes = 0;
  for (const v of Object.values(breakdown)) bytes += v;
  return { bytes, tokens, batch, breakdown };
}

/** Serve rows per card on the pipeline's weights (the image-size activations are not planned). */
function serveRows(bytes: number): FitJson[] {
  return CARDS.map(({ card, capacityGb }) => {
    const r = cell(card, capacityGb, "serve", { fixed: bytes, perSample: 0 }, NO_SPLIT);
    const text =
      r.verdict === "does_not_fit"
        ? r.text
        : `weights fit${r.verdict === "borderline" ? ", borderline" : ""} (activations at image size not counted)`;
    return {
      card: r.card,
      capacity_gb: r.capacityGb,
      mode: r.mode,
      verdict: r.verdict,
      batch: 1,
      split: null,
      text,
    };
  });
}

/** The pipeline's estimate from its model index and each component's stored files (by component name). */
export function estimateDiffusers(
  index: ModelIndex,
  files: Map<string, ComponentFiles>,
  variant: string | null,
  version: string,
): DiffusersEstimate {
  const rows = Object.entries(index.components).flatMap(([name, ref]) =>
    ref ? [componentRow(name, ref, files.get(name))] : [],
  );
  const models = rows.filter((r) => r.source !== "none");
  const unknown = models.filter((r) => r.params === null);
  const total = models.reduce((n, r) => n + (r.params ?? 0), 0);
  const serve = models.reduce((n, r) => n + (r.serve_bytes ?? 0), 0);
  const byDtype: Record<string, number> = {};
  for (const r of models) for (const [d, b] of Object.entries(r.by_dtype)) byDtype[d] = (byDtype[d] ?? 0) + b;
  const stored = Object.values(byDtype).reduce((a, b) => a + b, 0);
  const missing = [
    { figure: "activations", why: "latents, attention and VAE decode depend on the image size: not planned" },
    { figure: "full_finetune and lora fit", why: "training a diffusion pipeline is not planned" },
    ...unknown.map((r) => ({ figure: `params of ${r.name}`, why: r.note ?? "unknown" })),
  ];
  const warnings = [
    `diffusers ${index.class_name}: ${models.length} model component(s) (${models.map((r) => r.name).join(", ")}), weights read at ${variant ?? "the default files'"} ${variant ? "variant" : "dtype"}; serve memory is the weights alone`,
    ...unknown.map((r) => `${r.name} (${r.library}.${r.class}): ${r.note}; the total leaves it out`),
  ];
  return {
    estimator_version: version,
    model_type: index.class_name,
    family: "diffusers",
    reader: { family: "diffusers", confidence: unknown.length === 0 ? "known" : "generic" },
    params: {
      total,
      active: total,
      towers: Object.fromEntries(models.map((r) => [r.name, r.params ?? 0])),
      tied_embedding: false,
      derived: null,
      source: "headers",
    },
    weights: { bytes: serve, stored_bytes: stored, by_dtype: byDtype, source: "headers" },
    quantization: null,
    memory: {
      full_finetune: figure(TRAIN_TOKENS, 1, {
        weights_grads_optimizer: Math.round(FULL_BYTES_PER_PARAM * total),
      }),
      lora: figure(TRAIN_TOKENS, 1, { base_weights: serve }),
      serve: figure(0, 1, { weights: serve }),
      kv_cache: figure(0, 1, {}),
      lora_params: 0,
    },
    fit: serveRows(serve),
    structure: [],
    missing,
    warnings,
    diffusers: {
      pipeline: index.class_name,
      diffusers_version: index.diffusers_version,
      variant,
      components: rows,
    },
  };
}
