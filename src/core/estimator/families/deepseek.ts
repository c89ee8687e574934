/**
 * Readers for MLA + DeepSeek-MoE decoders: deepseek_v3, kimi_k2 (same modeling), deepseek_v32 and
 * glm_moe_dsa (MLA plus the DSA "lightning indexer"). Shapes follow transformers'
 * modeling_deepseek_v3.py / modeling_deepseek_v32.py / modular_glm_moe_dsa.py.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { decoderTower, mtpTower, reading, readQuantization, textSeq } from "./moe-frame.ts";
import { gatedMlp, type LayerSpec, lin, linParams, moeBlock, type Piece } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";

type Mla = {
  hidden: number;
  heads: number;
  qLora: number;
  kvLora: number;
  nope: number;
  rope: number;
  v: number;
};

function mlaDims(cfg: ConfigView): Mla {
  return {
    hidden: cfg.int("hidden_size"),
    heads: cfg.int("num_attention_heads"),
    qLora: cfg.optInt("q_lora_rank", 0, { min: 0 }),
    kvLora: cfg.int("kv_lora_rank"),
    nope: cfg.int("qk_nope_head_dim"),
    rope: cfg.int("qk_rope_head_dim"),
    v: cfg.int("v_head_dim"),
  };
}

/**
 * Multi-head latent attention: q_a_proj (h -> q_lora) + q_a_layernorm + q_b_proj (q_lora -> heads x
 * (nope + rope)), or q_proj when q_lora_rank is null; kv_a_proj_with_mqa (h -> kv_lora + rope) +
 * kv_a_layernorm; kv_b_proj (kv_lora -> heads x (nope + v)); o_proj (heads x v -> h).
 * With an indexer (DSA): wq_b (q_lora -> n x d), wk (h -> d), k_norm LayerNorm(d), weights_proj (h -> n).
 */
function mlaAttention(m: Mla, indexer?: { heads: number; dim: number }): Piece {
  const qk = m.nope + m.rope;
  const linears = m.qLora
    ? [lin(m.hidden, m.qLora), lin(m.qLora, m.heads * qk)]
    : [lin(m.hidden, m.heads * qk)];
  linears.push(
    lin(m.hidden, m.kvLora + m.rope),
    lin(m.kvLora, m.heads * (m.nope + m.v)),
    lin(m.heads * m.v, m.hidden),
  );
  let params = linParams(linears) + m.qLora + m.kvLora;
  // Saved: input, q latent (+normed), q, kv latent (+normed), expanded k/v, attention output.
  const actElems =
    m.hidden + 2 * m.qLora + m.heads * qk + 2 * (m.kvLora + m.rope) + m.heads * (qk + m.v) + m.heads * m.v;
  let type = "MLA";
  if (indexer) {
    const idx = [
      lin(m.qLora, indexer.heads * indexer.dim),
      lin(m.hidden, indexer.dim),
      lin(m.hidden, indexer.heads),
    ];
    params += linParams(idx) + 2 * indexer.dim;
    // The indexer runs under no_grad in transformers: nothing of it is saved for backward.
    linears.push(...idx);
    type = "MLA + DSA indexer";
  }
  return { type, params, actElems, linears };
}

function deepseekMoe(cfg: ConfigView, hidden: number): Piece {
  return moeBlock({
    hidden,
    experts: cfg.int("n_routed_experts"),
    topK: cfg.int("num_experts_per_tok"),
    expertInter: cfg.int("moe_intermediate_size"),
    sharedInter: cfg.optInt("n_shared_experts", 0, { min: 0 }) * cfg.int("moe_intermediate_size"),
    correctionBias: cfg.optStr("topk_method") === "noaux_tc",
  });
}

type MlaFamily = {
  family: string;
  indexer: boolean;
  /** DeepSeek's MTP layers carry their own embed_tokens and shared_head.head; GLM's carry neither. */
  mtpCopies: boolean;
};

function readMlaMoe(cfg: ConfigView, f: MlaFamily, warnings: string[]): ModelReading {
  const { family, indexer } = f;
  const d = textDims(cfg);
  const m = mlaDims(cfg);
  const attn = mlaAttention(
    m,
    indexer ? { heads: cfg.int("index_n_heads"), dim: cfg.int("index_head_dim") } : undefined,
  );
  const moe = deepseekMoe(cfg, d.hidden);
  const dense = gatedMlp(d.hidden, cfg.int("intermediate_size"));
  const firstDense = cfg.optInt("first_k_dense_replace", 0, { min: 0 });
  const freq = cfg.optInt("moe_layer_freq", 1);
  const layers: LayerSpec[] = Array.from({ length: d.layers }, (_, i) => ({
    mixer: attn,
    ffn: i >= firstDense && i % freq === 0 ? moe : dense,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const tied = cfg.bool("tie_word_embeddings", false);
  const seq = textSeq(d.context);
  const towers = [decoderTower({ seq, hidden: d.hidden, vocab: d.vocab, layers, tied, finalNorm: d.hidden })];
  const mtp = cfg.optInt("num_nextn_predict_layers", 0, { min: 0 });
  if (mtp > 0) {
    const layer: LayerSpec = { mixer: attn, ffn: moe, norm1: d.hidden, norm2: d.hidden };
    towers.push(
      mtpTower({ count: mtp, layer, hidden: d.hidden, vocab: d.vocab, storesEmbedAndHead: f.mtpCopies }),
    );
    warnings.push(
      `${family}: ${mtp} MTP module(s) (num_nextn_predict_layers) are stored in the checkpoint${f.mtpCopies ? " with their own embedding and head copies" : ""}; counted in parameters, not in activations`,
    );
  }
  // MLA caches the compressed latent and the shared rope key; DSA adds the indexer's key.
  const idxKey = indexer ? cfg.int("index_head_dim") : 0;
  const kvLayers: KvLayer[] = layers.map(() => ({
    kind: "mla",
    bytesPerToken: (m.kvLora + m.rope + idxKey) * 2,
  }));
  return reading({
    family,
    modelType: cfg.str("model_type"),
    towers,
    contextLength: d.context,
    lmHead: { vocab: d.vocab, hidden: d.hidden },
    tiedEmbedding: tied,
    embeddingParams: d.vocab * d.hidden,
    kvLayers,
    quantization: readQuantization(cfg),
    warnings,
  });
}

/** deepseek_v3: MLA, first_k_dense_replace dense layers, then routed + shared experts. */
export function readDeepseekV3(cfg: ConfigView): ModelReading {
  return readMlaMoe(cfg, { family: "deepseek_v3", indexer: false, mtpCopies: true }, []);
}

/** kimi_k2: DeepSeek-V3 modeling with its own sizes (Kimi-K2 ships modeling_deepseek.py). */
export function readKimiK2(cfg: ConfigView): ModelReading {
  return readMlaMoe(cfg, { family: "kimi_k2", indexer: false, mtpCopies: true }, []);
}

/** deepseek_v32: DeepSeek-V3 plus a lightning indexer in every layer (DSA). */
export function readDeepseekV32(cfg: ConfigView): ModelReading {
  return readMlaMoe(cfg, { family: "deepseek_v32", indexer: true, mtpCopies: true }, []);
}

/**
 * glm_moe_dsa (GLM-5): DeepSeek-V3.2 layout. indexer_types may mark layers "shared" (no indexer of
 * their own); GLM-5's config sets none, so every layer carries one (transformers' default schedule).
 */
export function readGlmMoeDsa(cfg: ConfigView): ModelReading {
  const warnings: string[] = [];
  const types = cfg.optArray("indexer_types");
  if (types?.some((t) => t === "shared")) {
    warnings.push(
      "glm_moe_dsa: indexer_types marks shared layers; indexers counted on every layer (over-count)",
    );
  }
  return readMlaMoe(cfg, { family: "glm_moe_dsa", indexer: true, mtpCopies: false }, warnings);
}
