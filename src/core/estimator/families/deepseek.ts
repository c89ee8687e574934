/**
 * Readers for MLA + DeepSeek-MoE decoders: deepseek_v3, kimi_k2 (same modeling) and deepseek_v32
 * (MLA plus the DSA "lightning indexer"). Shapes follow transformers'
 * modeling_deepseek_v3.py / modeling_deepseek_v32.py; glm_moe_dsa (glm-moe-dsa.ts) reuses them.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { mtpTower, readQuantization, textReading, textTower } from "./moe-frame.ts";
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
  // Saved (the normed input is the norm node's): q latent (+normed), q, kv latent (+normed),
  // expanded k and v, attention output.
  const actElems =
    2 * m.qLora + m.heads * qk + 2 * (m.kvLora + m.rope) + m.heads * (qk + m.v) + m.heads * m.v;
  let type = "MLA";
  if (indexer) {
    const idx = [
      lin(m.qLora, indexer.heads * indexer.dim),
      lin(m.hidden, indexer.dim),
      // weights_proj: kept in bf16 by the fp8 checkpoints.
      { ...lin(m.hidden, indexer.heads), unquantized: true },
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
  /** Whether layer i (0-based) carries a DSA lightning indexer; absent: no indexer anywhere. */
  indexerAt?: (i: number) => boolean;
  /** DeepSeek's MTP layers carry their own embed_tokens and shared_head.head; GLM's carry neither. */
  mtpCopies: boolean;
};

function mlaLayers(cfg: ConfigView, f: MlaFamily, hidden: number): { layers: LayerSpec[]; withIdx: Piece } {
  const m = mlaDims(cfg);
  const plain = mlaAttention(m);
  const withIdx = f.indexerAt
    ? mlaAttention(m, { heads: cfg.int("index_n_heads"), dim: cfg.int("index_head_dim") })
    : plain;
  const moe = deepseekMoe(cfg, hidden);
  const dense = gatedMlp(hidden, cfg.int("intermediate_size"));
  const firstDense = cfg.optInt("first_k_dense_replace", 0, { min: 0 });
  const freq = cfg.optInt("moe_layer_freq", 1);
  const layers = Array.from({ length: cfg.int("num_hidden_layers") }, (_, i) => ({
    mixer: f.indexerAt?.(i) ? withIdx : plain,
    ffn: i >= firstDense && i % freq === 0 ? moe : dense,
    norm1: hidden,
    norm2: hidden,
  }));
  return { layers, withIdx };
}

/** MLA caches the compressed latent and the shared rope key; a DSA indexer adds its key. */
function mlaKv(cfg: ConfigView, f: MlaFamily, layers: number): KvLayer[] {
  const latent = cfg.int("kv_lora_rank") + cfg.int("qk_rope_head_dim");
  return Array.from({ length: layers }, (_, i) => ({
    kind: "mla",
    bytesPerToken: (latent + (f.indexerAt?.(i) ? cfg.int("index_head_dim") : 0)) * 2,
  }));
}

/** A DeepSeek-layout MLA + MoE reading (text tower, plus MTP modules when the checkpoint has them). */
export function readMlaMoe(cfg: ConfigView, f: MlaFamily, warnings: string[]): ModelReading {
  const d = textDims(cfg);
  const { layers, withIdx } = mlaLayers(cfg, f, d.hidden);
  const tied = cfg.bool("tie_word_embeddings", false);
  const towers = [textTower(d, layers, tied)];
  const mtp = cfg.optInt("num_nextn_predict_layers", 0, { min: 0 });
  if (mtp > 0) {
    const layer: LayerSpec = { ...layers[layers.length - 1]!, mixer: withIdx };
    towers.push(
      mtpTower({ count: mtp, layer, hidden: d.hidden, vocab: d.vocab, copies: f.mtpCopies ? 2 : 0 }),
    );
    const copies = f.mtpCopies ? " with their own embedding and head copies" : "";
    warnings.push(
      `${f.family}: ${mtp} MTP module(s) (num_nextn_predict_layers) are stored in the checkpoint${copies}; counted in parameters, not in activations`,
    );
  }
  return textReading({
    cfg,
    family: f.family,
    ...d,
    tied,
    towers,
    kvLayers: mlaKv(cfg, f, d.layers),
    quantization: readQuantization(cfg),
    warnings,
  });
}

/** deepseek_v3: MLA, first_k_dense_replace dense layers, then routed + shared experts. */
export function readDeepseekV3(cfg: ConfigView): ModelReading {
  return readMlaMoe(cfg, { family: "deepseek_v3", mtpCopies: true }, []);
}

/**
 * kimi_k2: DeepSeek-V3 modeling with its own sizes (Kimi-K2 ships modeling_deepseek.py). The published
 * Kimi-K2-Instruct files also hold every layer's `self_attn.rotary_emb.inv_freq`, BF16 [56] (its public tensor
 * list: 61 x 56 = 3,416 scalars beside the model's parameters); a buffer, so not a parameter, and "maybe": the
 * 56 does not follow from the config (the rope dim 64 gives 32 frequencies), so other exports may differ.
 */
export function readKimiK2(cfg: ConfigView): ModelReading {
  const r = readMlaMoe(cfg, { family: "kimi_k2", mtpCopies: true }, []);
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  r.storedBuffers = [
    {
      suffix: "self_attn.rotary_emb.inv_freq",
      count: layers,
      scalarsEach: 56,
      dtype: "BF16",
      presence: "maybe",
    },
  ];
  return r;
}

/** deepseek_v32: DeepSeek-V3 plus a lightning indexer in every layer (DSA). */
export function readDeepseekV32(cfg: ConfigView): ModelReading {
  return readMlaMoe(cfg, { family: "deepseek_v32", indexerAt: () => true, mtpCopies: true }, []);
}
