/**
 * The estimate of a PEFT adapter repo. Parameters are the adapter's: its safetensors header's count (exact),
 * else the config's count on the base. With the base's estimate, memory is the base's plus the adapter's:
 *   serve           W_base + W_adapter (as stored), plus b * KV(s) of the base
 *   LoRA training   W_base (frozen, as memory.ts costs it) + 1.2 * 16 * P_adapter (weights, grads, AdamW in
 *                   fp32) + b * A(s) of the base (+ logits)
 *   full fine-tune  the base's (what training the merged model costs)
 * and the fit table is the same cells (fit.ts) on those costs. Without a base only the adapter's own figures
 * are given, and what needs the base is listed under `missing`. Pure.
 */
import {
  type Estimate,
  type FitJson,
  fitJson,
  type MemoryJson,
  memoryJson,
  weightsJson,
} from "./estimate-json.ts";
import { CARDS, cell, NO_SPLIT } from "./fit.ts";
import { FULL_BYTES_PER_PARAM, SERVE_TOKENS, TRAIN_TOKENS } from "./memory.ts";
import { type AdapterConfig, type ConfigCount, countAdapterHeader, countFromConfig } from "./peft.ts";
import type { MemoryFigure, TensorHeader } from "./types.ts";

export type PeftBase = { repo: string; sha: string; estimate: Estimate; tensors: TensorHeader[] };

export type PeftJson = {
  peft_type: string;
  base_model: string | null;
  /** The base revision the figures use (the base's newest processed revision at the adapter's commit). */
  base: { repo: string; sha: string } | null;
  r: number;
  lora_alpha: number;
  /** Ranks of the header's lora_A tensors. */
  ranks: number[];
  target_modules: string[] | string | null;
  use_dora: boolean;
  modules_to_save: string[];
  params_header: number | null;
  params_config: number | null;
  modules_header: number | null;
  modules_config: number | null;
  /** Targeted base modules per short name (q_proj: 28). */
  targeted: Record<string, number>;
  cross_check: "agrees" | "disagrees" | "needs the base" | "needs the header" | "not LoRA";
};

export type PeftEstimate = Estimate & { peft: PeftJson };

type PeftInput = {
  config: AdapterConfig;
  header: TensorHeader[] | null;
  base: PeftBase | null;
  /** Why there is no base (not watched, not processed...), said under `missing`. */
  noBase: string;
  version: string;
};

function figure(tokens: number, batch: number, breakdown: Record<string, number>): MemoryFigure {
  let bytes = 0;
  for (const v of Object.values(breakdown)) bytes += v;
  return { bytes, tokens, batch, breakdown };
}

function crossCheck(
  i: PeftInput,
  headerParams: number | null,
  config: ConfigCount | null,
): PeftJson["cross_check"] {
  if (i.config.peft_type !== "LORA") return "not LoRA";
  if (!config) return "needs the base";
  if (headerParams === null) return "needs the header";
  return headerParams === config.params ? "agrees" : "disagrees";
}

/** Memory and fit of base + adapter: the base's figures with the adapter's weights and training state. */
function withBase(base: Estimate, params: number, adapterBytes: number) {
  const bl = base.memory.lora.breakdown;
  const lora = figure(TRAIN_TOKENS, 1, {
    base_weights: bl.base_weights ?? 0,
    adapters: FULL_BYTES_PER_PARAM * params,
    activations: bl.activations ?? 0,
    logits: bl.logits ?? 0,
  });
  lora.bytesWithoutLogits = lora.bytes - (bl.logits ?? 0);
  const serve = figure(base.memory.serve.tokens, 0, {
    base_weights: base.weights.bytes,
    adapter: adapterBytes,
  });
  const kv = base.memory.kv_cache.bytes;
  const fit: FitJson[] = [];
  for (const { card, capacityGb } of CARDS) {
    const full = base.fit.find((f) => f.card === card && f.mode === "full_finetune");
    if (full) fit.push(full);
    const loraCost = {
      fixed: lora.bytes - (bl.activations ?? 0) - (bl.logits ?? 0),
      perSample: bl.activations ?? 0,
    };
    const rows = [
      cell(card, capacityGb, "lora", loraCost, NO_SPLIT),
      cell(card, capacityGb, "serve", { fixed: serve.bytes, perSample: kv }, NO_SPLIT),
    ];
    fit.push(...fitJson(rows));
  }
  const memory = {
    full_finetune: base.memory.full_finetune,
    lora: memoryJson(lora),
    serve: memoryJson(serve),
    kv_cache: base.memory.kv_cache,
    lora_params: params,
  };
  return { memory, fit };
}

function adapterOnly(params: number, adapterBytes: number) {
  const zero = (tokens: number): MemoryJson => memoryJson(figure(tokens, 1, {}));
  return {
    memory: {
      full_finetune: zero(TRAIN_TOKENS),
      lora: memoryJson(figure(TRAIN_TOKENS, 1, { adapters: FULL_BYTES_PER_PARAM * params })),
      serve: memoryJson(figure(SERVE_TOKENS, 0, { adapter: adapterBytes })),
      kv_cache: zero(SERVE_TOKENS),
      lora_params: params,
    },
    fit: [] as FitJson[],
  };
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

function warningsOf(p: PeftJson, i: PeftInput): string[] {
  const base = p.base ? `${p.base.repo}@${p.base.sha.slice(0, 7)}` : (p.base_model ?? "(no base named)");
  const out = [
    `PEFT ${p.peft_type} adapter of ${base}: r=${p.r}, alpha=${p.lora_alpha}${p.use_dora ? ", DoRA" : ""}; the memory and fit figures are the base's with the adapter added`,
  ];
  if (p.cross_check === "disagrees")
    out.push(
      `adapter_mismatch: the header stores ${fmt(p.params_header ?? 0)} parameters (${p.modules_header} LoRA modules), the config on the base's layers gives ${fmt(p.params_config ?? 0)} (${p.modules_config} modules): parameters and memory use the header's`,
    );
  if (p.cross_check === "needs the base")
    out.push(`the config's count is not cross-checked: it needs the base's layers (${i.noBase})`);
  if (p.cross_check === "not LoRA")
    out.push(`${p.peft_type}: only the header's count (the cross-check is for LoRA)`);
  return out;
}

/** The adapter's estimate; `i.header` null when the repo has no adapter_model.safetensors header. */
export function estimatePeft(i: PeftInput): PeftEstimate {
  const h = i.header ? countAdapterHeader(i.header) : null;
  const lora = i.config.peft_type === "LORA";
  const cc = i.base && lora ? countFromConfig(i.config, i.base.tensors) : null;
  const params = h?.params ?? cc?.params ?? 0;
  // Without a header the weights are costed at the base's dtype width (2 bytes): the usual bf16/fp16 adapter.
  const adapterBytes = h?.bytes ?? 2 * params;
  const figures = i.base
    ? withBase(i.base.estimate, params, adapterBytes)
    : adapterOnly(params, adapterBytes);
  const t = i.config.target_modules ?? null;
  const peft: PeftJson = {
    peft_type: i.config.peft_type,
    base_model: i.config.base_model_name_or_path ?? null,
    base: i.base ? { repo: i.base.repo, sha: i.base.sha } : null,
    r: i.config.r,
    lora_alpha: i.config.lora_alpha,
    ranks: h?.ranks ?? [],
    target_modules: t,
    use_dora: i.config.use_dora === true,
    modules_to_save: i.config.modules_to_save ?? [],
    params_header: h?.params ?? null,
    params_config: cc?.params ?? null,
    modules_header: h?.loraModules ?? null,
    modules_config: cc?.modules ?? null,
    targeted: cc?.byName ?? {},
    cross_check: crossCheck(i, h?.params ?? null, cc),
  };
  const missing = i.base
    ? (i.base.estimate.missing ?? [])
    : [{ figure: "base + adapter memory and fit", why: i.noBase }];
  const modelType = i.base?.estimate.model_type ?? "";
  return {
    estimator_version: i.version,
    model_type: modelType,
    family: "peft",
    reader: { family: "peft", confidence: h ? "known" : "generic" },
    params: {
      total: params,
      active: params,
      towers: { adapter: params },
      tied_embedding: false,
      derived: cc?.params ?? null,
      source: h ? "headers" : "structure",
    },
    weights: weightsJson(adapterBytes, h?.byDtype ?? {}, h ? "headers" : "config"),
    quantization: null,
    ...figures,
    structure: [],
    ...(missing.length > 0 ? { missing } : {}),
    warnings: warningsOf(peft, i),
    peft,
  };
}
