/**
 * A sentence-transformers revision's module files (modules.json, the modules' configs,
 * sentence_bert_config.json) read from the stored files: the summary the estimate carries and the
 * behaviour changes compare (pooling, normalisation, embedding dimension, max sequence length).
 */
import type { Estimate } from "../core/estimator/estimate.ts";
import {
  readSentenceTransformers,
  type SentenceTransformersJson,
} from "../core/estimator/sentence-transformers.ts";
import { parseJson } from "./json-text.ts";

type Files = Map<string, { oid: string; content: string | null }>;

/** The revision's sentence-transformers summary, or null when it has no (readable) modules.json. */
export function sentenceTransformersOf(files: Files): SentenceTransformersJson | null {
  const modules = files.get("modules.json");
  if (!modules) return null;
  return readSentenceTransformers(parseJson(modules.content), (p) =>
    parseJson(files.get(p)?.content ?? null),
  );
}

/** The estimate with the sentence-transformers summary, Dense parameters counted in the total. */
export function withSentenceTransformers(
  e: Estimate,
  st: SentenceTransformersJson | null,
): Estimate & { sentence_transformers?: SentenceTransformersJson } {
  if (!st) return e;
  const params =
    st.dense_params > 0
      ? {
          ...e.params,
          total: e.params.total + st.dense_params,
          active: e.params.active + st.dense_params,
          towers: { ...e.params.towers, dense: st.dense_params },
        }
      : e.params;
  const note = `sentence-transformers: ${st.modules.length} modules, ${st.pooling ?? "no"} pooling${st.normalize ? ", normalized" : ""}, ${st.dimension ?? "?"} dimensions${st.dense_params > 0 ? `; Dense modules add ${st.dense_params.toLocaleString("en-US")} parameters to the total (memory figures are the transformer's)` : ""}`;
  return { ...e, params, warnings: [...e.warnings, note], sentence_transformers: st };
}

/** The facts a behaviour change compares, or null for a revision that is not sentence-transformers. */
export function embeddingFacts(files: Files): Record<string, unknown> | null {
  const st = sentenceTransformersOf(files);
  if (!st) return null;
  return {
    pooling: st.pooling,
    normalize: st.normalize,
    dimension: st.dimension,
    max_seq_length: st.max_seq_length,
  };
}
