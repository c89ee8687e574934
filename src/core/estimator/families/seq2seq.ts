/**
 * Encoder-decoder layers shared by BART and Whisper: post-norm (BART) or pre-norm (Whisper) layers with
 * self-attention, (decoder) cross-attention over the encoder's positions, and a GELU MLP with biases.
 */
import type { StructureNode } from "../types.ts";
import { type AttentionSpec, add, attention, crossAttention, geluMlp, norm, type Place } from "./blocks.ts";

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
  const q: Place = { ...p, layer: i };
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
  const q: Place = { ...p, layer: i };
  const self = attention(q, `SelfAttention_${i}`, l.self);
  self.params += l.attnParamAdjust;
  const cross = crossAttention(q, `CrossAttention_${i}`, l.self, encoderSeq);
  cross.params += l.attnParamAdjust;
  const ln = (k: number) => norm(q, `LayerNorm_${i}_${k}`, "LayerNorm", l.hidden);
  const mlp = geluMlp(q, `FFN_${i}`, l.hidden, l.ffn);
  const sum = (what: string) => add(q, `Add_${i}_${what}`, l.hidden);
  return l.preNorm
    ? [ln(1), self, sum("self"), ln(2), cross, sum("cross"), ln(3), mlp, sum("ffn")]
    : [self, sum("self"), ln(1), cross, sum("cross"), ln(2), mlp, sum("ffn"), ln(3)];
}
