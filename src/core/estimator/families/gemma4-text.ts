/**
 * gemma4 text layers (modeling_gemma4.py Gemma4TextDecoderLayer / Gemma4TextAttention / Gemma4TextModel).
 * Sliding layers use head_dim and num_key_value_heads; full layers use global_head_dim and, with
 * attention_k_eq_v, num_global_key_value_heads and no v_proj (values = keys). q_norm/k_norm per head
 * (v_norm has no weight). Four sandwich RMSNorms per layer, a dense GeGLU MLP in every layer and,
 * with enable_moe_block, a parallel MoE (router: proj, scale, per_expert_scale; experts with fused
 * gate_up and down) with three more norms. The last num_kv_shared_layers layers reuse earlier K/V:
 * no k/v projections or norms and no cache of their own, and (use_double_wide_mlp) a 2x MLP.
 * Per-layer input embeddings (hidden_size_per_layer_input > 0): a vocab_size_per_layer_input x
 * (layers x ple) table, a model-level projection h -> layers x ple and its norm, and per layer a gate
 * h -> ple, a projection ple -> h and a norm.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, StructureNode } from "../types.ts";
import { fullKv, layerTypesOf } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, node, type Piece } from "./moe-parts.ts";

type Kind = { full: boolean; shared: boolean };

function attention(t: ConfigView, hidden: number, k: Kind): Piece {
  const heads = t.int("num_attention_heads");
  const kEqV = k.full && t.bool("attention_k_eq_v", false);
  const headDim = k.full ? t.optInt("global_head_dim", t.int("head_dim")) : t.int("head_dim");
  const kvHeads = kEqV ? t.int("num_global_key_value_heads") : t.int("num_key_value_heads");
  const bias = t.bool("attention_bias", false);
  const attn = gqaAttention({
    hidden,
    heads,
    kvHeads,
    headDim,
    bias,
    oBias: bias,
    qkNorm: [headDim, headDim],
  });
  const q = heads * headDim;
  const kv = kvHeads * headDim;
  if (k.shared) {
    // KV-shared layers keep only q_proj, q_norm and o_proj.
    attn.params -= 2 * hidden * kv + headDim + (bias ? 2 * kv : 0);
    attn.actElems -= 2 * kv;
    attn.linears = [
      { in: hidden, out: q, count: 1 },
      { in: q, out: hidden, count: 1 },
    ];
  } else if (kEqV) {
    attn.params -= hidden * kv + (bias ? kv : 0);
    attn.linears = [
      { in: hidden, out: q, count: 1 },
      { in: hidden, out: kv, count: 1 },
      { in: q, out: hidden, count: 1 },
    ];
  }
  return attn;
}

function feedForward(t: ConfigView, hidden: number, k: Kind): Piece {
  const wide = k.shared && t.bool("use_double_wide_mlp", false) ? 2 : 1;
  const mlp = gatedMlp(hidden, wide * t.int("intermediate_size"));
  let ffn: Piece = { ...mlp, type: "GeGLU" };
  if (t.bool("enable_moe_block", false)) {
    const experts = t.int("num_experts");
    const topK = t.int("top_k_experts");
    const moe = moeBlock({
      hidden,
      experts,
      topK,
      expertInter: t.int("moe_intermediate_size"),
      fusedGateUp: true,
    });
    // Router scale (h) + per_expert_scale (E) + three extra norms (3h).
    ffn = {
      type: "GeGLU + MoE",
      params: mlp.params + moe.params + hidden + experts + 3 * hidden,
      actElems: mlp.actElems + moe.actElems + 3 * hidden,
      linears: [...mlp.linears, ...moe.linears],
      moe: moe.moe,
    };
  }
  const ple = t.optInt("hidden_size_per_layer_input", 0, { min: 0 });
  if (ple > 0) {
    // per_layer_input_gate (h -> ple), per_layer_projection (ple -> h), post_per_layer_input_norm (h).
    ffn.params += 2 * hidden * ple + hidden;
    ffn.actElems += 3 * ple + 2 * hidden;
    ffn.linears = [...ffn.linears, { in: hidden, out: ple, count: 1 }, { in: ple, out: hidden, count: 1 }];
  }
  return ffn;
}

type Gemma4Text = {
  layers: LayerSpec[];
  kvLayers: KvLayer[];
  perLayerEmbedding: StructureNode | null;
};

/** The text layers, their caches (none for KV-shared layers) and the per-layer embedding node. */
export function gemma4Text(t: ConfigView, hidden: number, seq: number): Gemma4Text {
  const n = t.int("num_hidden_layers");
  const every = t.optInt("sliding_window_pattern", 6);
  const types = layerTypesOf(t, n, (i) => ((i + 1) % every === 0 ? "full_attention" : "sliding_attention"));
  const firstShared = n - t.optInt("num_kv_shared_layers", 0, { min: 0, max: n });
  const kinds: Kind[] = types.map((ty, i) => ({ full: ty === "full_attention", shared: i >= firstShared }));
  const layers = kinds.map((k) => ({
    mixer: attention(t, hidden, k),
    ffn: feedForward(t, hidden, k),
    // input + post_attention norms before the add; pre/post feed-forward norms.
    norm1: 2 * hidden,
    norm2: 2 * hidden,
  }));
  const ple = t.optInt("hidden_size_per_layer_input", 0, { min: 0 });
  const pleVocab = t.optInt("vocab_size_per_layer_input", t.int("vocab_size"));
  const perLayerEmbedding =
    ple > 0
      ? node(
          "PerLayerEmbedding",
          "Embedding + Projection",
          [seq, n * ple],
          pleVocab * n * ple + hidden * n * ple + ple,
          2 * n * ple,
        )
      : null;
  return { layers, kvLayers: gemma4Kv(t, kinds), perLayerEmbedding };
}

function gemma4Kv(t: ConfigView, kinds: Kind[]): KvLayer[] {
  const window = t.optInt("sliding_window", 0, { min: 0 });
  const kEqV = t.bool("attention_k_eq_v", false);
  const globalKv = kEqV ? t.int("num_global_key_value_heads") : t.int("num_key_value_heads");
  const globalDim = t.optInt("global_head_dim", t.int("head_dim"));
  return kinds
    .filter((k) => !k.shared)
    .map((k) =>
      k.full
        ? fullKv(globalKv, globalDim)
        : fullKv(t.int("num_key_value_heads"), t.int("head_dim"), window || undefined),
    );
}
