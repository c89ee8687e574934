/**
 * gemma4 (modeling_gemma4.py). Text layers: sliding layers use head_dim and num_key_value_heads; full
 * layers use global_head_dim and, with attention_k_eq_v, num_global_key_value_heads and no v_proj
 * (values = keys). q_norm/k_norm per head (v_norm has no weight). Four sandwich RMSNorms per layer,
 * a dense GeGLU MLP in every layer and, with enable_moe_block, a parallel MoE (router: proj, scale,
 * per_expert_scale; experts with fused gate_up and down) with three more norms. Vision: linear
 * patch embedder (no bias) + a 2 x position_embedding_size x h table, RMSNorm sandwich blocks with
 * q/k norms and GeGLU MLP, and embed_vision (h_vision -> h_text, no bias).
 * Buffers (layer_scalar per layer, the vision std_bias/std_scale) are not parameters and are not
 * counted: gemma-4-26B-A4B's stored total equals this count plus exactly one vocab x hidden matrix
 * (the tied embedding stored a second time), which only holds if those buffers are absent.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode, TowerReading } from "../types.ts";
import { fullKv, layerTypesOf, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, node, type Piece } from "./moe-parts.ts";
import { encoderTower, patchEmbedNode } from "./vision-parts.ts";

function textLayer(t: ConfigView, hidden: number, full: boolean): LayerSpec {
  const heads = t.int("num_attention_heads");
  const kEqV = full && t.bool("attention_k_eq_v", false);
  const headDim = full ? t.optInt("global_head_dim", t.int("head_dim")) : t.int("head_dim");
  const kvHeads = kEqV ? t.int("num_global_key_value_heads") : t.int("num_key_value_heads");
  const attn = gqaAttention({
    hidden,
    heads,
    kvHeads,
    headDim,
    bias: t.bool("attention_bias", false),
    qkNorm: [headDim, headDim],
  });
  if (kEqV) {
    attn.params -= hidden * kvHeads * headDim;
    attn.linears = [
      { in: hidden, out: heads * headDim, count: 1 },
      { in: hidden, out: kvHeads * headDim, count: 1 },
      { in: heads * headDim, out: hidden, count: 1 },
    ];
  }
  const mlp = gatedMlp(hidden, t.int("intermediate_size"));
  let ffn: Piece = { ...mlp, type: "GeGLU" };
  if (t.bool("enable_moe_block", false)) {
    const experts = t.int("num_experts");
    const moe = moeBlock({
      hidden,
      experts,
      topK: t.int("top_k_experts"),
      expertInter: t.int("moe_intermediate_size"),
      fusedGateUp: true,
    });
    // Router scale (h) + per_expert_scale (E) + three extra norms (3h).
    ffn = {
      type: "GeGLU + MoE",
      params: mlp.params + moe.params + hidden + experts + 3 * hidden,
      actElems: mlp.actElems + moe.actElems + 3 * hidden,
      linears: [...mlp.linears, ...moe.linears],
    };
  }
  // input + post_attention norms before the add; pre/post feed-forward norms.
  return { mixer: attn, ffn, norm1: 2 * hidden, norm2: 2 * hidden };
}

function gemma4Vision(v: ConfigView, textHidden: number): TowerReading {
  const hidden = v.int("hidden_size");
  const patch = v.int("patch_size");
  const pool = v.optInt("pooling_kernel_size", 1);
  const outTokens = v.optInt("default_output_length", 256);
  const seq = outTokens * pool * pool;
  const headDim = v.optInt("head_dim", hidden / v.int("num_attention_heads"));
  const front: StructureNode[] = [
    node("vision.Input", "Input", [seq, 3 * patch * patch], 0, 0),
    patchEmbedNode("vision.PatchEmbed", seq, 3 * patch * patch, hidden, false),
    node(
      "vision.PosEmbed",
      "Learned Pos Embed (x, y)",
      [seq, hidden],
      2 * v.int("position_embedding_size") * hidden,
      0,
    ),
  ];
  const embed = node("vision.EmbedVision", "Linear", [outTokens, textHidden], hidden * textHidden, hidden);
  embed.linears = [{ in: hidden, out: textHidden, count: 1 }];
  const tower = encoderTower({
    name: "vision",
    role: "vision",
    seq,
    hidden,
    inter: v.int("intermediate_size"),
    heads: v.int("num_attention_heads"),
    kvHeads: v.optInt("num_key_value_heads", v.int("num_attention_heads")),
    headDim,
    layers: v.int("num_hidden_layers"),
    bias: v.bool("attention_bias", false),
    mlpBias: false,
    gatedMlp: true,
    norm: "RMSNorm",
    // q/k norms (head_dim each) and the post-attention / post-feed-forward norms.
    extraPerLayer: 2 * headDim + 2 * hidden,
    front,
    finalNorm: false,
    back: [node("vision.Pooler", "Avg Pool", [outTokens, hidden], 0, 0), embed],
  });
  return tower;
}

function gemma4Kv(t: ConfigView, types: string[]): KvLayer[] {
  const window = t.optInt("sliding_window", 0, { min: 0 });
  const kEqV = t.bool("attention_k_eq_v", false);
  const globalKv = kEqV ? t.int("num_global_key_value_heads") : t.int("num_key_value_heads");
  const globalDim = t.optInt("global_head_dim", t.int("head_dim"));
  return types.map((ty) =>
    ty === "full_attention"
      ? fullKv(globalKv, globalDim)
      : fullKv(t.int("num_key_value_heads"), t.int("head_dim"), window || undefined),
  );
}

function gemma4Warnings(cfg: ConfigView, t: ConfigView): string[] {
  const warnings: string[] = [];
  const ple = t.optInt("hidden_size_per_layer_input", 0, { min: 0 }) > 0;
  if (ple || t.optInt("num_kv_shared_layers", 0, { min: 0 }) > 0) {
    warnings.push(
      "gemma4: per-layer input embeddings / KV-shared layers are not reconstructed (Gemma 4 E-series)",
    );
  }
  if (cfg.optSub("audio_config")) warnings.push("gemma4: audio tower declared but not reconstructed");
  return warnings;
}

/** gemma4: sliding/global text decoder with a parallel MoE block, and its vision tower. */
export function readGemma4(cfg: ConfigView): ModelReading {
  const t = cfg.sub("text_config");
  const hidden = t.int("hidden_size");
  const vocab = t.int("vocab_size");
  const context = t.has("max_position_embeddings") ? t.int("max_position_embeddings") : null;
  const types = layerTypesOf(t, t.int("num_hidden_layers"), (i) =>
    (i + 1) % 6 === 0 ? "full_attention" : "sliding_attention",
  );
  const layers = types.map((ty) => textLayer(t, hidden, ty === "full_attention"));
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", true));
  const d = { hidden, vocab, context };
  const text = textTower(d, layers, tied);
  const v = cfg.optSub("vision_config");
  const towers = v ? [gemma4Vision(v, hidden), text] : [text];
  return textReading({
    cfg,
    family: "gemma4",
    ...d,
    tied,
    towers,
    kvLayers: gemma4Kv(t, types),
    warnings: gemma4Warnings(cfg, t),
  });
}
