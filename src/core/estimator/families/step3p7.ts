/**
 * step3p7 (Step-3.7-Flash). Neither transformers nor the searchable code has a modeling file for
 * step3p7, so this follows its predecessor step3p5 (Step-3.5-Flash, remote modeling_step3p5.py and
 * its vLLM/SGLang/MLX ports): GQA with per-head q/k RMSNorm (optional head-wise sigmoid gate g_proj
 * h -> heads when use_head_wise_attn_gate), first_k_dense_replace dense SwiGLU layers, then MoE
 * layers with a sigmoid router (gate h -> E, router bias E), SwiGLU experts of moe_intermediate_size
 * and a shared SwiGLU expert of share_expert_dim; sliding/full layers from layer_types.
 * Everything inferred is said in the reading's warnings.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { fullKv, layerTypesOf, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";

/** step3p7: read as a step3p5-style hybrid sliding/full GQA decoder with shared-expert MoE. */
export function readStep3p7(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const gate = cfg.bool("use_head_wise_attn_gate", false);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    qkNorm: [d.headDim, d.headDim],
  });
  if (gate) {
    attn.params += d.hidden * d.heads;
    attn.linears.push({ in: d.hidden, out: d.heads, count: 1 });
  }
  const moe = moeBlock({
    hidden: d.hidden,
    experts: cfg.intOf(["num_experts", "moe_num_experts"]),
    topK: cfg.int("num_experts_per_tok"),
    expertInter: cfg.int("moe_intermediate_size"),
    sharedInter:
      cfg.optInt("n_shared_experts", 1, { min: 0 }) * cfg.optInt("share_expert_dim", 0, { min: 0 }),
    routerBias: cfg.bool("use_moe_router_bias", false),
  });
  const dense = gatedMlp(d.hidden, cfg.int("intermediate_size"));
  const firstDense = cfg.optInt("first_k_dense_replace", 1, { min: 0 });
  const layers: LayerSpec[] = Array.from({ length: d.layers }, (_, i) => ({
    mixer: attn,
    ffn: i < firstDense ? dense : moe,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const types = layerTypesOf(cfg, d.layers, () => "full_attention");
  const window = cfg.optInt("sliding_window", 0, { min: 0 });
  const kvLayers = types.map((t) =>
    fullKv(d.kvHeads, d.headDim, t === "sliding_attention" && window > 0 ? window : undefined),
  );
  const tied = cfg.bool("tie_word_embeddings", false);
  const warnings = [
    "step3p7: no modeling file found; read as step3p5 (per-head q/k norm, sigmoid router with bias, shared expert); total not checked against a checkpoint",
  ];
  if (cfg.has("attention_other_setting")) {
    warnings.push(
      "step3p7: attention_other_setting (different head counts on sliding layers) is not applied",
    );
  }
  const mtp = cfg.optInt("num_nextn_predict_layers", 0, { min: 0 });
  if (mtp > 0) {
    const perLayer = 2 * d.hidden + attn.params + moe.params + 2 * d.hidden * d.hidden;
    warnings.push(
      `step3p7: ${mtp} MTP layer(s) (num_nextn_predict_layers) not counted; if the checkpoint stores them they add about ${mtp} x ${perLayer} parameters`,
    );
  }
  return textReading({
    cfg,
    family: "step3p7",
    ...d,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers,
    warnings,
  });
}
