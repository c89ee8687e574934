/**
 * step3p7 (Step-3.7-Flash). Neither transformers nor the searchable code has a modeling file for
 * step3p7, so this follows its predecessor step3p5 (Step-3.5-Flash, remote modeling_step3p5.py and
 * its vLLM/SGLang/MLX ports): GQA with per-head q/k RMSNorm (optional head-wise sigmoid gate g_proj
 * h -> heads when use_head_wise_attn_gate; attention_other_setting's head counts on sliding layers;
 * num_attention_groups as the kv-head key), first_k_dense_replace dense SwiGLU layers, then MoE
 * layers with a sigmoid router (gate h -> E, router bias E), SwiGLU experts of moe_intermediate_size
 * and a shared SwiGLU expert of share_expert_dim; sliding/full layers from layer_types.
 * Everything inferred is said in the reading's warnings.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { fullKv, layerTypesOf, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, type Piece } from "./moe-parts.ts";
import { type TextDims, textDims } from "./qwen3-moe.ts";

function attention(cfg: ConfigView, d: TextDims, o?: ConfigView): Piece {
  const heads = o?.optInt("num_attention_heads", d.heads) ?? d.heads;
  const kvHeads = o?.optInt("num_attention_groups", d.kvHeads) ?? d.kvHeads;
  const attn = gqaAttention({
    hidden: d.hidden,
    heads,
    kvHeads,
    headDim: d.headDim,
    qkNorm: [d.headDim, d.headDim],
  });
  if (cfg.bool("use_head_wise_attn_gate", false)) {
    // g_proj: one sigmoid gate per head.
    attn.params += d.hidden * heads;
    attn.linears.push({ in: d.hidden, out: heads, count: 1 });
  }
  return attn;
}

function stepMoe(cfg: ConfigView, hidden: number): Piece {
  return moeBlock({
    hidden,
    experts: cfg.intOf(["num_experts", "moe_num_experts"]),
    topK: cfg.intOf(["num_experts_per_tok", "moe_top_k"]),
    expertInter: cfg.int("moe_intermediate_size"),
    sharedInter:
      cfg.optInt("n_shared_experts", 1, { min: 0 }) * cfg.optInt("share_expert_dim", 0, { min: 0 }),
    routerBias: cfg.bool("use_moe_router_bias", false),
  });
}

/** step3p5 lists MoE layers in moe_layers_enum ("3,4,..."); step3p7 uses first_k_dense_replace. */
function moeLayerRule(cfg: ConfigView): (i: number) => boolean {
  const listed = cfg.optStr("moe_layers_enum");
  if (listed !== undefined) {
    const set = new Set(listed.split(",").map((x) => Number(x.trim())));
    return (i) => set.has(i);
  }
  const firstDense = cfg.optInt("first_k_dense_replace", 1, { min: 0 });
  return (i) => i >= firstDense;
}

/** Layers and caches; sliding layers take attention_other_setting's head counts when given (step3p5). */
function stepLayers(cfg: ConfigView, d: TextDims) {
  const other = cfg.optSub("attention_other_setting");
  const full = attention(cfg, d);
  const sliding = attention(cfg, d, other);
  const moe = stepMoe(cfg, d.hidden);
  const dense = gatedMlp(d.hidden, cfg.int("intermediate_size"));
  const isMoe = moeLayerRule(cfg);
  const types = layerTypesOf(cfg, d.layers, () => "full_attention");
  const window = cfg.optInt("sliding_window", 0, { min: 0 });
  const slidingKv = other?.optInt("num_attention_groups", d.kvHeads) ?? d.kvHeads;
  const layers: LayerSpec[] = types.map((t, i) => ({
    mixer: t === "sliding_attention" ? sliding : full,
    ffn: isMoe(i) ? moe : dense,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const kvLayers = types.map((t) =>
    t === "sliding_attention" && window > 0
      ? fullKv(slidingKv, d.headDim, window)
      : fullKv(d.kvHeads, d.headDim),
  );
  return { layers, kvLayers, mtpParams: 2 * d.hidden + full.params + moe.params + 2 * d.hidden * d.hidden };
}

/** step3p7: read as a step3p5-style hybrid sliding/full GQA decoder with shared-expert MoE. */
export function readStep3p7(cfg: ConfigView): ModelReading {
  const base = textDims(cfg);
  // step3p5 configs name the kv heads num_attention_groups.
  const kvHeads = cfg.has("num_key_value_heads")
    ? base.kvHeads
    : cfg.optInt("num_attention_groups", base.heads);
  const d = { ...base, kvHeads };
  const { layers, kvLayers, mtpParams } = stepLayers(cfg, d);
  const tied = cfg.bool("tie_word_embeddings", false);
  const warnings = [
    "step3p7: no modeling file found; read as step3p5 (per-head q/k norm, sigmoid router with bias, shared expert); total not checked against a checkpoint",
  ];
  const mtp = cfg.optInt("num_nextn_predict_layers", 0, { min: 0 });
  if (mtp > 0) {
    warnings.push(
      `step3p7: ${mtp} MTP layer(s) (num_nextn_predict_layers) not counted; if the checkpoint stores them they add about ${mtp} x ${mtpParams} parameters`,
    );
  }
  const towers = [textTower(d, layers, tied)];
  return textReading({ cfg, family: "step3p7", ...d, tied, towers, kvLayers, warnings });
}
