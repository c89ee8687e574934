/**
 * A sentence-transformers model read from its module files: modules.json lists the modules in order
 * (Transformer at the root, then Pooling, Dense, Normalize... in their folders); 1_Pooling/config.json gives
 * the pooling mode and the word embedding dimension; each Dense module's config gives in x out (+ bias)
 * parameters; sentence_bert_config.json the max sequence length. The embedding dimension is the last Dense's
 * out_features, else the pooling's dimension. Pure: parsed JSON in, a summary out.
 */
export type StModule = { path: string; type: string };

export type SentenceTransformersJson = {
  modules: StModule[];
  /** The pooling modes set (cls, mean, max, mean_sqrt_len, weightedmean, lasttoken), joined by "+". */
  pooling: string | null;
  normalize: boolean;
  dimension: number | null;
  max_seq_length: number | null;
  /** Parameters of the Dense modules (the Transformer's are the estimate's). */
  dense_params: number;
};

const MODES = [
  "cls_token",
  "mean_tokens",
  "max_tokens",
  "mean_sqrt_len_tokens",
  "weightedmean_tokens",
  "lasttoken",
];

type Json = Record<string, unknown>;

function obj(v: unknown): Json | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null;
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The modules.json list, or null when it is not one. */
function stModules(modulesJson: unknown): StModule[] | null {
  if (!Array.isArray(modulesJson)) return null;
  return modulesJson.flatMap((m) => {
    const o = obj(m);
    return o && typeof o.type === "string"
      ? [{ path: typeof o.path === "string" ? o.path : "", type: o.type }]
      : [];
  });
}

/** `json(path)`: a parsed JSON file of the revision, or undefined when absent or not JSON. */
export function readSentenceTransformers(
  modulesJson: unknown,
  json: (path: string) => unknown,
): SentenceTransformersJson | null {
  const modules = stModules(modulesJson);
  if (!modules) return null;
  const of = (type: string) => modules.filter((m) => m.type.endsWith(`.${type}`) || m.type === type);
  const pool = obj(json(`${of("Pooling")[0]?.path ?? "1_Pooling"}/config.json`));
  const modes = pool
    ? MODES.filter((m) => pool[`pooling_mode_${m}`] === true).map((m) => m.replace(/_tokens?$/, ""))
    : [];
  let dense = 0;
  let dimension = num(pool?.word_embedding_dimension);
  for (const d of of("Dense")) {
    const c = obj(json(`${d.path}/config.json`));
    const i = num(c?.in_features);
    const o = num(c?.out_features);
    if (i === null || o === null) continue;
    dense += i * o + (c?.bias === false ? 0 : o);
    dimension = o;
  }
  const st = obj(json("sentence_bert_config.json"));
  return {
    modules,
    pooling: modes.length > 0 ? modes.join("+") : null,
    normalize: of("Normalize").length > 0,
    dimension,
    max_seq_length: num(st?.max_seq_length),
    dense_params: dense,
  };
}
