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
import { type ComponentFiles, componentRow, type DiffusersComponentJson } from "./diffusers-components.ts";
import type { Estimate, FitJson } from "./estimate-json.ts";
import { CARDS, cell, NO_SPLIT } from "./fit.ts";
import { FULL_BYTES_PER_PARAM, TRAIN_TOKENS } from "./memory.ts";

export type DiffusersJson = {
  pipeline: string;
  diffusers_version: string | null;
  /** The weights variant read (fp16, bf16) or null: the default files. */
  variant: string | null;
  /** The dtype the pipeline is served at: the variant's, else the half dtype stored most (F16 for float32 files). */
  dtype: string;
  components: DiffusersComponentJson[];
};

export type DiffusersEstimate = Estimate & { diffusers: DiffusersJson };

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
      batch: r.batch,
      split: null,
      text,
    };
  });
}

function servedDtype(variant: string | null, byDtype: Record<string, number>): string {
  if (variant === "fp16") return "F16";
  if (variant === "bf16") return "BF16";
  const floats = Object.entries(byDtype).filter(([d]) => d === "BF16" || d === "F16" || d === "F32");
  const top = floats.sort(([, a], [, b]) => b - a)[0]?.[0];
  return top === "BF16" ? "BF16" : "F16";
}

type Totals = { total: number; serve: number; stored: number; byDtype: Record<string, number> };

/** Parameters, served bytes and stored bytes per dtype over the model components. */
function totals(models: DiffusersComponentJson[]): Totals {
  const byDtype: Record<string, number> = {};
  for (const r of models) for (const [d, b] of Object.entries(r.by_dtype)) byDtype[d] = (byDtype[d] ?? 0) + b;
  return {
    total: models.reduce((n, r) => n + (r.params ?? 0), 0),
    serve: models.reduce((n, r) => n + (r.serve_bytes ?? 0), 0),
    stored: Object.values(byDtype).reduce((a, b) => a + b, 0),
    byDtype,
  };
}

function memory(t: Totals): Estimate["memory"] {
  return {
    full_finetune: figure(TRAIN_TOKENS, 1, {
      weights_grads_optimizer: Math.round(FULL_BYTES_PER_PARAM * t.total),
    }),
    lora: figure(TRAIN_TOKENS, 1, { base_weights: t.serve }),
    serve: figure(0, 1, { weights: t.serve }),
    kv_cache: figure(0, 1, {}),
    lora_params: 0,
  };
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
  const t = totals(models);
  const dtype = servedDtype(variant, t.byDtype);
  const missing = [
    { figure: "activations", why: "latents, attention and VAE decode depend on the image size: not planned" },
    { figure: "full_finetune and lora fit", why: "training a diffusion pipeline is not planned" },
    ...unknown.map((r) => ({ figure: `params of ${r.name}`, why: r.note ?? "unknown" })),
  ];
  const warnings = [
    `diffusers ${index.class_name}: ${models.length} model component(s) (${models.map((r) => r.name).join(", ")}), weights read from the ${variant ?? "default"} files, served at ${dtype}; serve memory is the weights alone`,
    ...unknown.map((r) => `${r.name} (${r.library}.${r.class}): ${r.note}; the total leaves it out`),
  ];
  const towers = Object.fromEntries(models.map((r) => [r.name, r.params ?? 0]));
  return {
    estimator_version: version,
    model_type: index.class_name,
    family: "diffusers",
    reader: { family: "diffusers", confidence: unknown.length === 0 ? "known" : "generic" },
    params: {
      total: t.total,
      active: t.total,
      towers,
      tied_embedding: false,
      derived: null,
      source: "headers",
    },
    weights: { bytes: t.serve, stored_bytes: t.stored, by_dtype: t.byDtype, source: "headers" },
    quantization: null,
    memory: memory(t),
    fit: serveRows(t.serve),
    structure: [],
    missing,
    warnings,
    diffusers: {
      pipeline: index.class_name,
      diffusers_version: index.diffusers_version,
      variant,
      dtype,
      components: rows,
    },
  };
}
