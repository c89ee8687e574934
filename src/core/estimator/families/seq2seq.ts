/**
 * Encoder-decoder layers shared by BART and Whisper: post-norm (BART) or pre-norm (Whisper) layers with
 * self-attention, (decoder) cross-attention over the encoder's positions, and a GELU MLP with biases.
 */
import type { ModelReading, StructureNode, TowerRole } from "../types.ts";
import {
  type AttentionSpec,
  add,
  at,
  attention,
  crossAttention,
  geluMlp,
  kvCross,
  kvFull,
  norm,
  type Place,
} from "./blocks.ts";

export type Seq2SeqLayer = {
  hidden: number;
  ffn: number;
  self: AttentionSpec;
  /** Parameters to remove from each attention (Whisper's k_proj has no bias). */
  attnParamAdjust: number;
  preNorm: boolean;
};

/** One encoder layer (i is 1-based). */
export function encoderLayer(p: Place, i: number, l: Seq2SeqLayer): StructureNode[] {
  const q: Place = at(p, i);
  const attn = attention(q, `Attention_${i}`, l.self);
  attn.params += l.attnParamAdjust;
  const ln1 = norm(q, `LayerNorm_${i}_1`, "LayerNorm", l.hidden);
  const ln2 = norm(q, `LayerNorm_${i}_2`, "LayerNorm", l.hidden);
  const mlp = geluMlp(q, `FFN_${i}`, l.hidden, l.ffn);
  const a1 = add(q, `Add_${i}_attn`, l.hidden);
  const a2 = add(q, `Add_${i}_ffn`, l.hidden);
  return l.preNorm ? [ln1, attn, a1, ln2, mlp, a2] : [attn, a1, ln1, mlp, a2, ln2];
}

/** One decoder layer with cross-attention over `encoderSeq` positions. */
export function decoderLayer(p: Place, i: number, l: Seq2SeqLayer, encoderSeq: number): StructureNode[] {
  const q: Place = at(p, i);
  const self = attention(q, `SelfAttention_${i}`, l.self);
  self.params += l.attnParamAdjust;
  const cross = crossAttention(q, `CrossAttention_${i}`, l.self, encoderSeq);
  cross.params += l.attnParamAdjust;
  const h = l.hidden;
  // Plain calls, not closures per layer: each closure made at run time costs more than the node it builds.
  const ln1 = norm(q, `LayerNorm_${i}_1`, "LayerNorm", h);
  const ln2 = norm(q, `LayerNorm_${i}_2`, "LayerNorm", h);
  const ln3 = norm(q, `LayerNorm_${i}_3`, "LayerNorm", h);
  const mlp = geluMlp(q, `FFN_${i}`, h, l.ffn);
  const selfAdd = add(q, `Add_${i}_self`, h);
  const crossAdd = add(q, `Add_${i}_cross`, h);
  const ffnAdd = add(q, `Add_${i}_ffn`, h);
  return l.preNorm
    ? [ln1, self, selfAdd, ln2, cross, crossAdd, ln3, mlp, ffnAdd]
    : [self, selfAdd, ln1, cross, crossAdd, ln2, mlp, ffnAdd, ln3];
}

/** What an encoder-decoder reading needs beyond its two node lists. */
type Seq2SeqFacts = {
  family: string;
  encoder: StructureNode[];
  encoderRole: TowerRole;
  /** Encoder positions (also what the decoder's cross-attention caches). */
  encoderSeq: number;
  /** True when the encoder always runs at encoderSeq (Whisper's 1500 positions). */
  encoderFixed: boolean;
  decoder: StructureNode[];
  decoderSeq: number;
  decoderLayers: number;
  decoderHeads: number;
  headDim: number;
  vocab: number;
  hidden: number;
  tied: boolean;
};

/** Encoder and decoder towers; KV: decoder self-attention per layer plus cross-attention over the encoder. */
export function seq2seqReading(f: Seq2SeqFacts): ModelReading {
  const self = Array.from({ length: f.decoderLayers }, () => kvFull(f.decoderHeads, f.headDim));
  const cross = Array.from({ length: f.decoderLayers }, () =>
    kvCross(f.decoderHeads, f.headDim, f.encoderSeq),
  );
  return {
    family: f.family,
    modelType: f.family,
    towers: [
      {
        name: "encoder",
        role: f.encoderRole,
        seqLen: f.encoderSeq,
        nodes: f.encoder,
        fixedSeq: f.encoderFixed,
      },
      { name: "decoder", role: "decoder", seqLen: f.decoderSeq, nodes: f.decoder },
    ],
    contextLength: f.decoderSeq,
    lmHead: { vocab: f.vocab, hidden: f.hidden },
    tiedEmbedding: f.tied,
    embeddingParams: f.vocab * f.hidden,
    kvLayers: [...self, ...cross],
    warnings: [],
  };
}
