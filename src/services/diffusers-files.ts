/**
 * A diffusers revision's stored files (model_index.json, each component's config.json and weight headers)
 * turned into its estimate and its component changes: a component swapped (library or class), added or
 * removed in model_index.json is a change row of its own (detail `component_swap`).
 */
import {
  type ComponentRef,
  describeSwap,
  diffComponents,
  MODEL_INDEX_PATH,
  type ModelIndex,
  parseModelIndex,
  selectPipelineWeights,
} from "../core/diff/diffusers.ts";
import type { TensorInfo } from "../core/diff/weights.ts";
import { type DiffusersEstimate, estimateDiffusers } from "../core/estimator/diffusers.ts";
import type { ComponentFiles } from "../core/estimator/diffusers-components.ts";
import type { NewChange } from "../repositories/changes.repository.ts";
import { BadUpstreamDataError } from "./hub-errors.ts";
import { jsonProblem, parseJson } from "./json-text.ts";

type FileState = { oid: string; content: string | null };
type Files = Map<string, FileState>;

export function isDiffusersRevision(files: Files): boolean {
  return files.has(MODEL_INDEX_PATH);
}

/** The parsed model index, or null when absent, not JSON or not a model index. */
function modelIndexOf(files: Files): ModelIndex | null {
  return parseModelIndex(parseJson(files.get(MODEL_INDEX_PATH)?.content ?? null));
}

/** A pipeline's weight files (one set per component folder, see selectPipelineWeights), sorted by path. */
export function pipelineShards(files: Files): [string, FileState][] {
  const { components } = selectPipelineWeights([...files.keys()]);
  return Object.values(components)
    .flat()
    .sort()
    .map((p): [string, FileState] => [p, files.get(p)!]);
}

/** The tensors of a pipeline's weight files, each named under its component folder (`unet/conv_in.weight`). */
export function pipelineTensors(list: [string, FileState][]): TensorInfo[] {
  return list.flatMap(([path, f]) => {
    const folder = path.split("/")[0];
    const parsed = parseJson(f.content) as { tensors?: TensorInfo[] } | undefined;
    return (parsed?.tensors ?? []).map((t) => ({ ...t, name: `${folder}/${t.name}` }));
  });
}

function tensorsOf(files: Files, paths: string[]): TensorInfo[] | null {
  const out: TensorInfo[] = [];
  for (const p of paths) {
    const parsed = parseJson(files.get(p)?.content ?? null) as { tensors?: TensorInfo[] } | undefined;
    if (parsed?.tensors) out.push(...parsed.tensors);
  }
  return out.length > 0 ? out : null;
}

/** The pipeline estimate; throws BadUpstreamDataError when model_index.json is not a model index. */
export function computeDiffusersEstimate(files: Files, version: string): DiffusersEstimate {
  const text = files.get(MODEL_INDEX_PATH)?.content ?? null;
  const problem = text === null ? "not read" : jsonProblem(text);
  if (problem) throw new BadUpstreamDataError("bad_config", `${MODEL_INDEX_PATH}: ${problem}`);
  const index = modelIndexOf(files);
  if (!index) throw new BadUpstreamDataError("bad_config", `${MODEL_INDEX_PATH}: no _class_name`);
  const weights = selectPipelineWeights([...files.keys()]);
  const inputs = new Map<string, ComponentFiles>();
  for (const name of Object.keys(index.components)) {
    const config = parseJson(files.get(`${name}/config.json`)?.content ?? null);
    inputs.set(name, {
      config:
        config && typeof config === "object" && !Array.isArray(config)
          ? (config as Record<string, unknown>)
          : null,
      tensors: tensorsOf(files, weights.components[name] ?? []),
    });
  }
  return estimateDiffusers(index, inputs, weights.variant, version);
}

function swapKind(before: ComponentRef, after: ComponentRef): NewChange["kind"] {
  if (!before) return "added";
  return after ? "modified" : "removed";
}

/** One row per component swapped, added or removed between two revisions' model indexes. */
export function componentChanges(before: Files, after: Files): NewChange[] {
  const a = modelIndexOf(before);
  const b = modelIndexOf(after);
  if (!a || !b) return [];
  return diffComponents(a, b).map((s) => ({
    path: `component:${s.component}`,
    category: "config",
    kind: swapKind(s.before, s.after),
    summary: describeSwap(s),
    detail: { type: "component_swap", ...s },
  }));
}
