/**
 * The T5 block (modeling_t5.py, modeling_mt5.py, modeling_umt5.py): pre-norm T5LayerNorm (an RMSNorm, weight
 * only), attention q/k/v/o without biases over num_heads x d_kv, an optional relative_attention_bias table
 * (relative_attention_num_buckets x num_heads) on the self-attention, and the feed-forward T5DenseActDense
 * (wi, wo) or, for `feed_forward_proj: "gated-*"` (T5 v1.1, mT5, umT5), T5DenseGatedActDense (wi_0, wi_1, wo).
 */
import type { ConfigView } from "../config-view.ts";
import type { StructureNode } from "../types.ts";
import {
  type AttentionSpec,
  add,
  at,
  attention,
  crossAttention,
  geluMlp,
  norm,
  type Place,
  swiglu,
} from "./blocks.ts";

/** What the family's config class defaults and its attention layout differ in. */
export type T5Variant = {
  family: "t5" | "mt5" | "umt5";
  /** UMT5Attention: every self-attention layer owns a relative bias table (T5: only block 0 of each stack). */
  biasEveryLayer: boolean;
  /** T5Config: "relu"; MT5Config and UMT5Config: "gated-gelu". */
  feedForwardDefault: string;
  /** tie_word_embeddings when the config omits it (PretrainedConfig: true; MT5Config: false). */
  tieDefault: boolean;
};

export type T5Dims = {
  d: number;
  dff: number;
  heads: number;
  dkv: number;
  layers: number;
  decoderLayers: number;
  vocab: number;
  buckets: number;
  gated: boolean;
  act: string;
  tied: boolean;
  attn: AttentionSpec;
};

/** Reads the T5 keys (d_kv and the bucket count take the config class defaults, 64 and 32). */
export function t5Dims(cfg: ConfigView, v: T5Variant): T5Dims {
  const d = cfg.int("d_model");
  const heads = cfg.int("num_heads", { max: 100_000 });
  const dkv = cfg.optInt("d_kv", 64, { max: 100_000 });
  const layers = cfg.int("num_layers", { max: 10_000 });
  const proj = cfg.optStr("feed_forward_proj") ?? v.feedForwardDefault;
  const parts = proj.split("-");
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== "gated")) {
    cfg.fail("feed_forward_proj", `"${proj}" is not "ACT" or "gated-ACT"`);
  }
  return {
    d,
    dff: cfg.int("d_ff"),
    heads,
    dkv,
    layers,
    decoderLayers: cfg.optInt("num_decoder_layers", layers, { max: 10_000 }),
    vocab: cfg.int("vocab_size"),
    buckets: cfg.optInt("relative_attention_num_buckets", 32, { max: 1_000_000 }),
    gated: parts.length === 2,
    act: parts[parts.length - 1] ?? proj,
    tied: cfg.bool("tie_word_embeddings", v.tieDefault),
    attn: { hidden: d, heads, kvHeads: heads, headDim: dkv, qkvBias: false, oBias: false },
  };
}

function selfAttention(q: Place, name: string, t: T5Dims, withBias: boolean): StructureNode {
  const n = attention(q, name, t.attn);
  if (withBias) {
    n.params += t.buckets * t.heads;
    n.type = "Multi-Head Attn + relative bias";
  }
  return n;
}

function feedForward(q: Place, i: number, t: T5Dims): StructureNode {
  if (t.gated) {
    const n = swiglu(q, `FFN_${i}`, t.d, t.dff);
    n.type = `Gated ${t.act} MLP`;
    return n;
  }
  const n = geluMlp(q, `FFN_${i}`, t.d, t.dff, false);
  n.type = `${t.act} MLP`;
  return n;
}

/** Encoder block i (1-based): norm, self-attention, add, norm, feed-forward, add. */
export function t5EncoderLayer(p: Place, i: number, t: T5Dims, relBias: boolean): StructureNode[] {
  const q = at(p, i);
  return [
    norm(q, `RMSNorm_${i}_1`, "RMSNorm", t.d),
    selfAttention(q, `Attention_${i}`, t, relBias),
    add(q, `Add_${i}_attn`, t.d),
    norm(q, `RMSNorm_${i}_2`, "RMSNorm", t.d),
    feedForward(q, i, t),
    add(q, `Add_${i}_ffn`, t.d),
  ];
}

/** Decoder block i: self-attention, cross-attention over `encoderSeq` positions (no relative bias), feed-forward. */
export function t5DecoderLayer(
  p: Place,
  i: number,
  t: T5Dims,
  relBias: boolean,
  encoderSeq: number,
): StructureNode[] {
  const q = at(p, i);
  return [
    norm(q, `RMSNorm_${i}_1`, "RMSNorm", t.d),
    selfAttention(q, `SelfAttention_${i}`, t, relBias),
    add(q, `Add_${i}_self`, t.d),
    norm(q, `RMSNorm_${i}_2`, "RMSNorm", t.d),
    crossAttention(q, `CrossAttention_${i}`, t.attn, encoderSeq),
    add(q, `Add_${i}_cross`, t.d),
    norm(q, `RMSNorm_${i}_3`, "RMSNorm", t.d),
    feedForward(q, i, t),
    add(q, `Add_${i}_ffn`, t.d),
  ];
}
