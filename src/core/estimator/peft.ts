/**
 * PEFT adapters: adapter_config.json read with zod, the adapter's parameters counted from its
 * adapter_model.safetensors header (exact), and the parameters the config implies for a base model's
 * modules (the cross-check), following PEFT's own rules (peft/tuners/tuners_utils.py
 * `check_target_module_exists`, peft/tuners/lora/model.py `_create_and_replace`):
 *   a module is targeted when `target_modules` is a list and the module's name equals an entry or ends in
 *   "." + entry; when it is a string, when the regex matches the whole name; "all-linear" takes every linear
 *   but the output layer. `layers_to_transform` keeps only those layer indices; `exclude_modules` drops names.
 *   LoRA adds r x (in + out) per targeted linear (lora_A: r x in, lora_B: out x r), + out with `lora_bias`,
 *   + out for DoRA's magnitude vector (`use_dora`); `rank_pattern` sets r per module (first key K whose
 *   regex `(.*\.)?K$` matches the name); `modules_to_save` stores full copies of those modules.
 * Pure: parsed JSON and tensor headers in, counts out.
 */
import { z } from "zod";
import type { TensorHeader } from "./types.ts";

const Names = z.union([z.array(z.string()), z.string()]).nullish();

export const AdapterConfig = z.object({
  peft_type: z.string().default("LORA"),
  base_model_name_or_path: z.string().nullish(),
  revision: z.string().nullish(),
  r: z.number().int().positive().default(8),
  lora_alpha: z.number().default(8),
  target_modules: Names,
  exclude_modules: Names,
  modules_to_save: z.array(z.string()).nullish(),
  use_dora: z.boolean().nullish(),
  lora_bias: z.boolean().nullish(),
  rank_pattern: z.record(z.string(), z.number().int().positive()).nullish(),
  layers_to_transform: z.union([z.number().int(), z.array(z.number().int())]).nullish(),
  task_type: z.string().nullish(),
});
export type AdapterConfig = z.infer<typeof AdapterConfig>;

/** The config, or the reason it cannot be read (for a bad_config finding). */
export function readAdapterConfig(json: unknown): { config: AdapterConfig } | { error: string } {
  const parsed = AdapterConfig.safeParse(json);
  if (parsed.success) return { config: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
}

function numel(shape: number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** What the adapter's header holds: every tensor counted (exact), the LoRA pairs and their ranks. */
type AdapterHeaderCount = {
  params: number;
  /** Stored bytes per safetensors dtype. */
  byDtype: Record<string, number>;
  bytes: number;
  /** Modules with a lora_A/lora_B pair. */
  loraModules: number;
  /** Ranks seen on lora_A (r x in), each once, ascending. */
  ranks: number[];
  /** Scalars outside the LoRA pairs and DoRA vectors (modules_to_save copies, trained biases). */
  otherParams: number;
};

const DTYPE_BYTES: Record<string, number> = { F64: 8, F32: 4, BF16: 2, F16: 2, I64: 8, I32: 4, I8: 1, U8: 1 };

export function countAdapterHeader(tensors: TensorHeader[]): AdapterHeaderCount {
  const byDtype: Record<string, number> = {};
  const ranks = new Set<number>();
  let params = 0;
  let other = 0;
  let modules = 0;
  let bytes = 0;
  for (const t of tensors) {
    const n = numel(t.shape);
    params += n;
    const b = n * (DTYPE_BYTES[t.dtype] ?? 2);
    byDtype[t.dtype] = (byDtype[t.dtype] ?? 0) + b;
    bytes += b;
    if (/\.lora_A(\.[^.]+)?\.weight$/.test(t.name)) {
      modules++;
      if (t.shape[0] !== undefined) ranks.add(t.shape[0]);
    } else if (
      !/\.(lora_B(\.[^.]+)?\.(weight|bias)|lora_magnitude_vector(\.[^.]+)?(\.weight)?)$/.test(t.name)
    ) {
      other += n;
    }
  }
  return {
    params,
    byDtype,
    bytes,
    loraModules: modules,
    ranks: [...ranks].sort((a, b) => a - b),
    otherParams: other,
  };
}

/** A base module's weight as stored: name without ".weight", out x in. */
type BaseLinear = { module: string; out: number; in: number };

const EMBEDDING =
  /(^|\.)(embed_tokens|wte|wpe|word_embeddings|position_embeddings|token_type_embeddings|embed_positions|embeddings)$/;
const OUTPUT_LAYER = /(^|\.)(lm_head|output|embed_out)$/;

/** The base's 2-D weights that are linears (not embeddings), from its safetensors headers. */
function baseLinears(tensors: TensorHeader[]): BaseLinear[] {
  const out: BaseLinear[] = [];
  for (const t of tensors) {
    if (!t.name.endsWith(".weight") || t.shape.length !== 2) continue;
    const module = t.name.slice(0, -".weight".length);
    if (EMBEDDING.test(module)) continue;
    out.push({ module, out: t.shape[0]!, in: t.shape[1]! });
  }
  return out;
}

function listMatches(names: string[], key: string): boolean {
  return names.some((n) => key === n || key.endsWith(`.${n}`));
}

function fullMatch(pattern: string, key: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(key);
  } catch {
    return false;
  }
}

/** The layer index PEFT reads from a module name (`.<layers>.<i>.`), or null. */
function layerIndex(key: string): number | null {
  const m = /^.*\.[^.]*\.(\d+)\./.exec(key);
  return m ? Number(m[1]) : null;
}

/** Whether PEFT would wrap this base module with LoRA under `c`. */
export function isTargeted(c: AdapterConfig, key: string): boolean {
  const ex = c.exclude_modules;
  if (ex && (typeof ex === "string" ? fullMatch(ex, key) : listMatches(ex, key))) return false;
  const t = c.target_modules;
  if (!t) return false;
  let hit: boolean;
  if (t === "all-linear") hit = !OUTPUT_LAYER.test(key);
  else if (typeof t === "string") hit = fullMatch(t, key);
  else hit = listMatches(t, key);
  if (!hit || c.layers_to_transform == null) return hit;
  const wanted = typeof c.layers_to_transform === "number" ? [c.layers_to_transform] : c.layers_to_transform;
  const i = layerIndex(key);
  return i !== null && wanted.includes(i);
}

/** The rank of one module: rank_pattern's first matching key, else r. */
function rankOf(c: AdapterConfig, key: string): number {
  for (const [k, r] of Object.entries(c.rank_pattern ?? {})) {
    if (fullMatch(`(.*\\.)?${k}`, key)) return r;
  }
  return c.r;
}

/** What the config implies for a base: parameters, by part, and the modules targeted. */
export type ConfigCount = {
  params: number;
  lora: number;
  dora: number;
  loraBias: number;
  modulesToSave: number;
  modules: number;
  /** Targeted modules per short name (q_proj: 28), for the page and the docs. */
  byName: Record<string, number>;
};

/** The adapter's parameters as the config makes them on a base whose safetensors headers are `base`. */
export function countFromConfig(c: AdapterConfig, base: TensorHeader[]): ConfigCount {
  const out: ConfigCount = {
    params: 0,
    lora: 0,
    dora: 0,
    loraBias: 0,
    modulesToSave: 0,
    modules: 0,
    byName: {},
  };
  for (const l of baseLinears(base)) {
    if (!isTargeted(c, l.module)) continue;
    const r = rankOf(c, l.module);
    out.lora += r * (l.in + l.out);
    if (c.use_dora) out.dora += l.out;
    if (c.lora_bias) out.loraBias += l.out;
    out.modules++;
    const short = l.module.slice(l.module.lastIndexOf(".") + 1);
    out.byName[short] = (out.byName[short] ?? 0) + 1;
  }
  const save = c.modules_to_save ?? [];
  for (const t of base) {
    const module = t.name.slice(0, t.name.lastIndexOf("."));
    if (save.some((m) => module.endsWith(m))) out.modulesToSave += numel(t.shape);
  }
  out.params = out.lora + out.dora + out.loraBias + out.modulesToSave;
  return out;
}
