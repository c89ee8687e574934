/**
 * Decoders whose layers are all alike (phi3, starcoder2, internlm, olmo2/3, cohere/cohere2): attention at
 * the decoder's dims, one KV entry per layer, and the tower plus reading built from one layer spec.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { type LayerShape, repeatLayer, textFrameTower, textModel } from "./decoder-kit.ts";
import type { DecoderDims } from "./dense-decoder.ts";
import { fullKv, textSeq } from "./moe-frame.ts";
import { gqaAttention, type LayerSpec, type Piece } from "./moe-parts.ts";

/** Grouped-query attention at a decoder's dims; `qkNorm` adds q_norm / k_norm over the whole projections. */
export function dimsAttention(d: DecoderDims, bias = false, oBias = bias, qkNorm = false): Piece {
  return gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias,
    oBias,
    qkNorm: qkNorm ? [d.heads * d.headDim, d.kvHeads * d.headDim] : undefined,
  });
}

/** The same KV entry on every layer: full, or windowed at `window`. */
export function sameKv(d: DecoderDims, window?: number | null): KvLayer[] {
  const kv = fullKv(d.kvHeads, d.headDim, window ?? undefined);
  return Array.from({ length: d.layers }, () => kv);
}

type UniformDecoder = {
  cfg: ConfigView;
  family: string;
  d: DecoderDims;
  attn: Piece;
  ffn: Piece;
  /** Parameters of each norm and the final norm (h for RMSNorm, 2h for LayerNorm with bias). */
  norm: number;
  /** The second norm of a layer when it differs (0 for one norm feeding both sublayers). */
  norm2?: number;
  normType: string;
  shape: LayerShape;
  tied: boolean;
  kvLayers: KvLayer[];
  warnings?: string[];
};

/** A rotary text decoder of `d.layers` identical layers in one shape: its tower and reading. */
export function uniformDecoder(o: UniformDecoder): ModelReading {
  const layer: LayerSpec = {
    mixer: o.attn,
    ffn: o.ffn,
    norm1: o.norm,
    norm2: o.norm2 ?? o.norm,
    normType: o.normType,
  };
  const tower = textFrameTower({
    seq: textSeq(o.d.context),
    hidden: o.d.hidden,
    vocab: o.d.vocab,
    layers: repeatLayer(o.d.layers, layer),
    shape: o.shape,
    tied: o.tied,
    finalNorm: o.norm,
    normType: o.normType,
    rope: true,
  });
  return textModel({
    cfg: o.cfg,
    family: o.family,
    hidden: o.d.hidden,
    vocab: o.d.vocab,
    context: o.d.context,
    tied: o.tied,
    towers: [tower],
    kvLayers: o.kvLayers,
    warnings: o.warnings ?? [],
  });
}
