/**
 * qwen2_moe (transformers modeling_qwen2_moe.py / configuration_qwen2_moe.py; Qwen1.5-MoE, Qwen2-57B-A14B):
 * Qwen2MoeAttention (q/k/v with bias per `qkv_bias`, default true; o without), Qwen2MoeSparseMoeBlock on
 * layers that are not in `mlp_only_layers` and fall on `decoder_sparse_step`: a softmax router (gate,
 * h -> E, no bias), E SwiGLU experts of `moe_intermediate_size`, a shared SwiGLU expert of
 * `shared_expert_intermediate_size` scaled by a sigmoid `shared_expert_gate` (h -> 1, no bias); other
 * layers a dense Qwen2MoeMLP of `intermediate_size`. RMSNorms, untied LM head by default.
 * Sliding window per the config's `layer_types`, else its __post_init__ rule (odd layers below
 * `max_window_layers` when `use_sliding_window`).
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { fullKv, layerTypesOf, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock } from "./moe-parts.ts";
import { qwen3MoeExperts, qwen3MoeSparseLayers, textDims } from "./qwen3-moe.ts";

function kvOf(cfg: ConfigView, layers: number, kvHeads: number, headDim: number): KvLayer[] {
  const useSliding = cfg.bool("use_sliding_window", false);
  const maxWindow = cfg.optInt("max_window_layers", 28, { min: 0, max: 10_000 });
  const types = layerTypesOf(cfg, layers, (i) =>
    useSliding && (i + 1) % 2 === 1 && i < maxWindow ? "sliding_attention" : "full_attention",
  );
  const window = useSliding ? cfg.optInt("sliding_window", 4096) : 0;
  return types.map((t) => fullKv(kvHeads, headDim, t === "sliding_attention" && window ? window : undefined));
}

/** qwen2_moe: Qwen2 attention with routed experts plus a sigmoid-gated shared expert. */
export function readQwen2Moe(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias: cfg.bool("qkv_bias", true),
  });
  const sparse = qwen3MoeSparseLayers(cfg, d.layers);
  const moe = sparse.some(Boolean)
    ? moeBlock({
        hidden: d.hidden,
        experts: qwen3MoeExperts(cfg),
        topK: cfg.int("num_experts_per_tok"),
        expertInter: cfg.int("moe_intermediate_size"),
        sharedInter: cfg.int("shared_expert_intermediate_size", { min: 0 }),
        sharedGate: true,
      })
    : null;
  const dense = sparse.every(Boolean) ? null : gatedMlp(d.hidden, cfg.int("intermediate_size"));
  const layers: LayerSpec[] = sparse.map((s) => ({
    mixer: attn,
    ffn: (s ? moe : dense)!,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const tied = cfg.bool("tie_word_embeddings", false);
  return textReading({
    cfg,
    family: "qwen2_moe",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers: kvOf(cfg, d.layers, d.kvHeads, d.headDim),
    quantization: readQuantization(cfg),
  });
}
