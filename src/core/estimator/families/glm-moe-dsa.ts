/**
 * glm_moe_dsa (GLM-5, modular_glm_moe_dsa.py): the DeepSeek-V3.2 layout (MLA + DSA indexer +
 * DeepSeek-MoE) with cross-layer top-k sharing: layers marked "shared" reuse the previous full
 * layer's top-k and carry no indexer. The schedule is GlmMoeDsaConfig.__post_init__'s:
 * indexer_types, else index_topk_pattern ("F"/"S" per layer), else index_topk_freq /
 * index_skip_topk_offset (defaults 1 and 2: every layer full). Its MTP layer stores no embedding or
 * head copy (GLM-5's stored total confirms it).
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { readMlaMoe } from "./deepseek.ts";

/** "full" or "shared" per layer, as transformers derives it. */
function glmIndexerTypes(cfg: ConfigView, layers: number): string[] {
  const explicit = cfg.optArray("indexer_types");
  const pattern = cfg.raw.index_topk_pattern;
  let types: unknown[];
  if (explicit) types = explicit;
  else if (typeof pattern === "string") types = [...pattern].map((c) => (c === "S" ? "shared" : "full"));
  else if (Array.isArray(pattern)) types = pattern;
  else {
    const freq = Math.max(cfg.optInt("index_topk_freq", 1), 1);
    const offset = cfg.optInt("index_skip_topk_offset", 2, { min: 0 });
    types = Array.from({ length: layers }, (_, i) =>
      Math.max(i - offset + 1, 0) % freq === 0 ? "full" : "shared",
    );
  }
  if (types.length < layers) cfg.fail("indexer_types", `has ${types.length} entries for ${layers} layers`);
  return types.slice(0, layers).map((t) => (t === "shared" ? "shared" : "full"));
}

/** glm_moe_dsa: MLA + MoE with an indexer on the "full" layers only. */
export function readGlmMoeDsa(cfg: ConfigView): ModelReading {
  const types = glmIndexerTypes(cfg, cfg.int("num_hidden_layers"));
  return readMlaMoe(
    cfg,
    { family: "glm_moe_dsa", indexerAt: (i) => types[i] === "full", mtpCopies: false },
    [],
  );
}
