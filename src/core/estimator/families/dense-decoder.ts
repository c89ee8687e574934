/**
 * The Llama-shaped dense decoder shared by llama, mistral, qwen2, qwen3 and mimo: embedding, RoPE in-line,
 * L pre-norm layers (GQA attention + SwiGLU), final RMSNorm, LM head (tied or not).
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode } from "../types.ts";
import {
  type AttentionSpec,
  append,
  asHead,
  at,
  attention,
  decoderReading,
  embedding,
  kvFull,
  kvSliding,
  layerCopy,
  lmHead,
  norm,
  type Place,
  place,
  pushPreNormLayer,
  rope,
  swiglu,
} from "./blocks.ts";

export type DecoderDims = {
  hidden: number;
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  inter: number;
  vocab: number;
  context: number | null;
};

/** Reads the usual decoder keys, checking that heads, kv heads and head_dim agree. */
export function decoderDims(cfg: ConfigView): DecoderDims {
  const hidden = cfg.int("hidden_size");
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  const kvHeads = cfg.optInt("num_key_value_heads", heads, { max: heads });
  divisible(cfg, "num_key_value_heads", heads, kvHeads, "num_key_value_heads");
  const headDim = cfg.has("head_dim")
    ? cfg.int("head_dim", { max: 100_000 })
    : divisible(cfg, "hidden_size", hidden, heads, "num_attention_heads");
  const inter = cfg.int("intermediate_size");
  const vocab = cfg.int("vocab_size");
  const context = cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null;
  return { hidden, layers, heads, kvHeads, headDim, inter, vocab, context };
}

/**
 * Per-layer attention kind, in this order: a per-layer `sliding_window` list (a window per layer,
 * null for full layers); `layer_types`; Gemma-style `sliding_window_pattern` (every n-th layer full);
 * Qwen's use_sliding_window / max_window_layers; else Mistral's sliding_window on every layer when the
 * family slides by default.
 */
export function layerKv(cfg: ConfigView, d: DecoderDims, slidingByDefault: boolean): KvLayer[] {
  const perLayer = windowList(cfg, d.layers);
  if (perLayer)
    return perLayer.map((w) => (w > 0 ? kvSliding(d.kvHeads, d.headDim, w) : kvFull(d.kvHeads, d.headDim)));
  const types = cfg.optArray("layer_types");
  const window = cfg.has("sliding_window") ? cfg.int("sliding_window") : null;
  const pattern = !types && cfg.has("sliding_window_pattern") ? cfg.int("sliding_window_pattern") : null;
  const out: KvLayer[] = [];
  const useSliding = cfg.bool("use_sliding_window", slidingByDefault);
  const maxWindow = cfg.optInt("max_window_layers", d.layers, { min: 0, max: 10_000 });
  // One entry per kind, shared by the layers of that kind (entries are never changed in place).
  const full = kvFull(d.kvHeads, d.headDim);
  const slides = window !== null ? kvSliding(d.kvHeads, d.headDim, window) : full;
  for (let i = 0; i < d.layers; i++) {
    const sliding = types
      ? types[i] === "sliding_attention"
      : pattern !== null
        ? (i + 1) % pattern !== 0
        : useSliding && i >= (slidingByDefault ? 0 : maxWindow);
    out.push(sliding ? slides : full);
  }
  return out;
}

/** `sliding_window` given per layer (a list of windows, null or 0 for full layers), or undefined. */
function windowList(cfg: ConfigView, layers: number): number[] | undefined {
  const raw = cfg.raw.sliding_window;
  if (!Array.isArray(raw)) return undefined;
  if (raw.length !== layers) cfg.fail("sliding_window", `has ${raw.length} entries for ${layers} layers`);
  return raw.map((w) => {
    if (w === null) return 0;
    if (typeof w !== "number" || !Number.isInteger(w) || w < 0)
      return cfg.fail("sliding_window", "expected windows or null");
    return w;
  });
}

/** True when the config says which layers slide (per-layer windows, layer_types or a pattern). */
export function hasLayerKinds(cfg: ConfigView): boolean {
  return Array.isArray(cfg.raw.sliding_window) || cfg.has("layer_types") || cfg.has("sliding_window_pattern");
}

export type DenseOptions = {
  family: string;
  qkvBias: boolean;
  oBias: boolean;
  qkNorm: boolean;
  mlpBias: boolean;
  tieDefault: boolean;
  slidingByDefault: boolean;
};

/** Builds the text decoder's nodes for layer indices 1..L (the caller adds extra blocks, e.g. MTP). */
export function denseDecoderNodes(
  p: Place,
  d: DecoderDims,
  o: DenseOptions,
  tied: boolean,
): { body: StructureNode[]; head: StructureNode[] } {
  const spec: AttentionSpec = {
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    qkvBias: o.qkvBias,
    oBias: o.oBias,
    qkNorm: o.qkNorm ? "head" : "none",
  };
  const body: StructureNode[] = [embedding(p, d.vocab, d.hidden), rope(p, d.hidden)];
  // Layers are alike but for names and indices: one attention and one MLP node are built, copied per layer
  // (sharing shape and linears, never changed in place), and every layer's norms share one shape.
  const attn = attention(p, "Attention", spec);
  const mlp = swiglu(p, "FFN", d.hidden, d.inter, o.mlpBias);
  const shape = [p.seq, d.hidden];
  for (let i = 1; i <= d.layers; i++) {
    const q: Place = at(p, i);
    const a = layerCopy(q, attn, `Attention_${i}`);
    pushPreNormLayer(body, q, "RMSNorm", d.hidden, a, layerCopy(q, mlp, `FFN_${i}`), shape);
  }
  const head = asHead([
    norm(p, "RMSNorm_out", "RMSNorm", d.hidden),
    lmHead(p, d.hidden, d.vocab, tied ? "Embedding" : null),
  ]);
  return { body, head };
}

/** A complete reading of a dense decoder-only model. */
export function readDenseDecoder(cfg: ConfigView, o: DenseOptions): ModelReading {
  const d = decoderDims(cfg);
  const tied = cfg.bool("tie_word_embeddings", o.tieDefault);
  const { body, head } = denseDecoderNodes(place(d.context ?? 2048), d, o, tied);
  append(body, head);
  return decoderReading({
    family: o.family,
    modelType: cfg.optStr("model_type") ?? o.family,
    nodes: body,
    context: d.context,
    vocab: d.vocab,
    hidden: d.hidden,
    tied,
    kvLayers: layerKv(cfg, d, o.slidingByDefault),
  });
}
