/**
 * A diffusers pipeline as its files describe it. model_index.json names the pipeline class and each
 * component as `name: [library, class]` ([null, null] for a component left out); each component lives in
 * its folder: `<name>/config.json` (models) or `<name>/scheduler_config.json`, and its weights
 * `<name>/<base>[.<variant>][-0000i-of-0000n].safetensors` (diffusion_pytorch_model for diffusers models,
 * model for transformers ones; `.fp16` / `.bf16` variants beside the default files, as
 * diffusers' `_add_variant` names them). Pure: paths and parsed JSON in.
 */
import { z } from "zod";

export const MODEL_INDEX_PATH = "model_index.json";

/** A component: the library and class model_index.json names; null when the pipeline leaves it out. */
export type ComponentRef = { library: string; class: string } | null;

export type ModelIndex = {
  class_name: string;
  diffusers_version: string | null;
  components: Record<string, ComponentRef>;
};

const Entry = z.tuple([z.string().nullable(), z.string().nullable()]);
const Index = z.object({ _class_name: z.string(), _diffusers_version: z.string().optional() }).passthrough();

/**
 * model_index.json as a ModelIndex, or null when it is not one (no `_class_name`). Keys starting with `_`
 * are metadata; a `[library, class]` pair is a component; other values (`requires_safety_checker`,
 * `force_zeros_for_empty_prompt`...) are pipeline settings, not components.
 */
export function parseModelIndex(json: unknown): ModelIndex | null {
  const parsed = Index.safeParse(json);
  if (!parsed.success) return null;
  const components: Record<string, ComponentRef> = {};
  for (const [name, value] of Object.entries(parsed.data).sort(([a], [b]) => a.localeCompare(b))) {
    if (name.startsWith("_")) continue;
    const entry = Entry.safeParse(value);
    if (!entry.success) continue;
    const [library, cls] = entry.data;
    components[name] = library && cls ? { library, class: cls } : null;
  }
  return {
    class_name: parsed.data._class_name,
    diffusers_version: parsed.data._diffusers_version ?? null,
    components,
  };
}

const COMPONENT_CONFIG = /^[A-Za-z0-9_.-]+\/(config|scheduler_config)\.json$/;

/** A component folder's config (`unet/config.json`, `scheduler/scheduler_config.json`). */
export function isComponentConfig(path: string): boolean {
  return COMPONENT_CONFIG.test(path);
}

/** Whether a revision's paths make a diffusers pipeline (a root model_index.json). */
export function isPipelinePaths(paths: Iterable<string>): boolean {
  for (const p of paths) if (p === MODEL_INDEX_PATH) return true;
  return false;
}

const WEIGHT_FILE = /^([A-Za-z0-9_.-]+)\/([^./]+)(?:\.([A-Za-z0-9_]+))?(?:-\d{5}-of-\d{5})?\.safetensors$/;

/** Variants served in half precision: the pipeline's dtype when its components ship them. */
const HALF_VARIANTS = ["fp16", "bf16"] as const;

type PipelineWeights = {
  /** The variant read where a component has it (fp16, bf16), or null: the default files. */
  variant: string | null;
  /** Per component folder, the weight files read (sorted): one set, the pipeline variant's or the default. */
  components: Record<string, string[]>;
  /** Other safetensors (other variants, root single-file checkpoints): listed, never read or added. */
  other: string[];
};

/** Per component folder, its weight files by variant ("" for the default files). */
function byVariant(paths: string[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const p of paths) {
    const m = WEIGHT_FILE.exec(p);
    if (!m) continue;
    const sets = out.get(m[1]!) ?? new Map<string, string[]>();
    const variant = m[3] ?? "";
    sets.set(variant, [...(sets.get(variant) ?? []), p]);
    out.set(m[1]!, sets);
  }
  return out;
}

/**
 * Which safetensors of a pipeline make its weights: per component folder one set of files. The pipeline
 * variant is the half-precision variant (fp16, then bf16) that most components ship; a component reads that
 * variant's files when it has them, else its default files (what `from_pretrained` loads without a variant).
 */
export function selectPipelineWeights(paths: string[]): PipelineWeights {
  const sets = byVariant(paths);
  const count = (v: string) => [...sets.values()].filter((s) => s.has(v)).length;
  const best = [...HALF_VARIANTS].sort((a, b) => count(b) - count(a))[0]!;
  const variant = count(best) > 0 ? best : null;
  const components: Record<string, string[]> = {};
  for (const [folder, s] of [...sets.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const chosen = (variant && s.get(variant)) || s.get("") || [...s.entries()].sort()[0]![1];
    components[folder] = [...chosen].sort();
  }
  const read = new Set(Object.values(components).flat());
  const other = paths.filter((p) => p.endsWith(".safetensors") && !read.has(p));
  return { variant, components, other };
}

export type ComponentSwap = { component: string; before: ComponentRef; after: ComponentRef };

const label = (c: ComponentRef | undefined) => (c ? `${c.library}.${c.class}` : "none");

/**
 * Components whose library or class differs between two model indexes, added (absent or null before) or
 * removed (absent or null after), sorted by name.
 */
export function diffComponents(a: ModelIndex, b: ModelIndex): ComponentSwap[] {
  const names = [...new Set([...Object.keys(a.components), ...Object.keys(b.components)])].sort();
  const out: ComponentSwap[] = [];
  for (const component of names) {
    const before = a.components[component] ?? null;
    const after = b.components[component] ?? null;
    if (label(before) !== label(after)) out.push({ component, before, after });
  }
  return out;
}

/** "vae: diffusers.AutoencoderKL -> diffusers.AutoencoderTiny" (none: left out). */
export function describeSwap(s: ComponentSwap): string {
  if (!s.before) return `component ${s.component} added: ${label(s.after)}`;
  if (!s.after) return `component ${s.component} removed (was ${label(s.before)})`;
  return `component ${s.component} swapped: ${label(s.before)} -> ${label(s.after)}`;
}
