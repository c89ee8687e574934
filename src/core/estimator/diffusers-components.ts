/**
 * One diffusers pipeline component's row: parameters from its safetensors header (exact, buffers set aside),
 * else, for a transformers component, from its config.json by the transformers estimator when a family reader
 * knows it; else unknown. Schedulers, tokenizers and image processors hold no parameters. Pure.
 */
import { fromHeaders } from "./checkpoint.ts";
import { estimate } from "./estimate.ts";
import type { TensorHeader } from "./types.ts";

/** One component's files as stored: its config.json (parsed; null when absent) and the tensors read. */
export type ComponentFiles = { config: Record<string, unknown> | null; tensors: TensorHeader[] | null };

export type DiffusersComponentJson = {
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
  const unknown = (note: string) => unknownRow(name, ref, note);
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

export function componentRow(
  name: string,
  ref: { library: string; class: string },
  f: ComponentFiles | undefined,
): DiffusersComponentJson {
  if (f?.tensors && f.tensors.length > 0) return fromTensors(name, ref, f.tensors);
  if (NO_PARAMS.test(ref.class))
    return { name, ...ref, params: 0, source: "none", serve_bytes: 0, by_dtype: {}, note: null };
  if (f?.config) return fromConfig(name, ref, f.config);
  return unknownRow(name, ref, "no config.json and no safetensors header read: parameters unknown");
}

/** A component whose parameters are not known: left out of the total, with the reason. */
function unknownRow(
  name: string,
  ref: { library: string; class: string },
  note: string,
): DiffusersComponentJson {
  return { name, ...ref, params: null, source: "unknown", serve_bytes: null, by_dtype: {}, note };
}
