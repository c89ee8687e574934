/**
 * A PEFT adapter revision's files (adapter_config.json, the adapter_model.safetensors header) read from the
 * stored files, and its estimate given the base (src/core/estimator/peft-estimate.ts).
 */
import { type AdapterConfig, readAdapterConfig } from "../core/estimator/peft.ts";
import { estimatePeft, type PeftBase, type PeftEstimate } from "../core/estimator/peft-estimate.ts";
import type { TensorHeader } from "../core/estimator/types.ts";
import type { FileState } from "./change-builders.ts";
import { BadUpstreamDataError } from "./hub-errors.ts";
import { jsonProblem } from "./json-text.ts";

type Files = Map<string, FileState>;

const ADAPTER_CONFIG = "adapter_config.json";
const ADAPTER_WEIGHTS = "adapter_model.safetensors";

/** A revision of an adapter repo: it has adapter_config.json (as core/diff/repo-kind.ts says "peft"). */
export function isPeftRevision(files: Files): boolean {
  return files.has(ADAPTER_CONFIG);
}

/** The parsed adapter_config.json; throws BadUpstreamDataError (bad_config) when it cannot be read. */
export function adapterConfigOf(files: Files): AdapterConfig {
  const text = files.get(ADAPTER_CONFIG)?.content ?? null;
  if (text === null) throw new BadUpstreamDataError("bad_config", `${ADAPTER_CONFIG}: not read`);
  const problem = jsonProblem(text);
  if (problem) throw new BadUpstreamDataError("bad_config", `${ADAPTER_CONFIG}: ${problem}`);
  const read = readAdapterConfig(JSON.parse(text));
  if ("error" in read) throw new BadUpstreamDataError("bad_config", `${ADAPTER_CONFIG}: ${read.error}`);
  return read.config;
}

/** The adapter header's tensors, or null when the revision has no readable adapter_model.safetensors. */
function adapterTensors(files: Files): TensorHeader[] | null {
  const text = files.get(ADAPTER_WEIGHTS)?.content ?? null;
  if (text === null) return null;
  const parsed = JSON.parse(text) as { tensors?: TensorHeader[] };
  return parsed.tensors ?? null;
}

/** What the estimate needs of the base: its processed revision's figures and layers, or why there is none. */
export type PeftBaseLoad = { base: PeftBase } | { noBase: string };

/** The adapter's estimate; throws BadUpstreamDataError for an unreadable adapter_config.json. */
export function computePeftEstimate(files: Files, load: PeftBaseLoad | null, version: string): PeftEstimate {
  const config = adapterConfigOf(files);
  const base = load && "base" in load ? load.base : null;
  const noBase = load && "noBase" in load ? load.noBase : "the base is not looked up here";
  return estimatePeft({ config, header: adapterTensors(files), base, noBase, version });
}
