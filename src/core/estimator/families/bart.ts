import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import { append, asHead, embedding, lmHead, norm, type Place, place, positionEmbedding } from "./blocks.ts";
import { decoderLayer, encoderLayer, type Seq2SeqLayer, seq2seqReading } from "./seq2seq.ts";

/**
 * BART (modeling_bart.py): shared token embedding (encoder, decoder and LM head tied to it), learned positions
 * with an offset of 2 per side, layernorm_embedding per side, post-norm layers, optional final layer norms
 * (add_final_layer_norm, mBART). final_logits_bias is a buffer.
 */
export function readBart(cfg: ConfigView): ModelReading {
  const d = cfg.int("d_model");
  const encLayers = cfg.int("encoder_layers", { max: 10_000 });
  const decLayers = cfg.int("decoder_layers", { max: 10_000 });
  const encHeads = cfg.int("encoder_attention_heads", { max: 100_000 });
  const decHeads = cfg.int("decoder_attention_heads", { max: 100_000 });
  const vocab = cfg.int("vocab_size");
  const positions = cfg.int("max_position_embeddings");
  const finalNorm = cfg.bool("add_final_layer_norm", false);
  const tied = cfg.bool("tie_word_embeddings", true);
  const layer = (heads: number, ffnKey: string): Seq2SeqLayer => {
    const headDim = divisible(cfg, "d_model", d, heads, "attention heads");
    return {
      hidden: d,
      ffn: cfg.int(ffnKey),
      self: { hidden: d, heads, kvHeads: heads, headDim, qkvBias: true, oBias: true },
      attnParamAdjust: 0,
      preNorm: cfg.bool("normalize_before", false),
    };
  };
  const enc = layer(encHeads, "encoder_ffn_dim");
  const dec = layer(decHeads, "decoder_ffn_dim");
  const p: Place = place(positions, "encoder");
  const encoder: StructureNode[] = [
    embedding(p, vocab, d),
    positionEmbedding(p, positions + 2, d),
    norm(p, "LayerNorm_emb", "LayerNorm", d),
  ];
  for (let i = 1; i <= encLayers; i++) append(encoder, encoderLayer(p, i, enc));
  if (finalNorm) encoder.push(norm(p, "LayerNorm_out", "LayerNorm", d));
  const q: Place = place(positions, "decoder");
  const sharedEmb = embedding(q, vocab, d);
  sharedEmb.tiedTo = "encoder.Embedding";
  const decoder: StructureNode[] = [
    sharedEmb,
    positionEmbedding(q, positions + 2, d),
    norm(q, "LayerNorm_emb", "LayerNorm", d),
  ];
  for (let i = 1; i <= decLayers; i++) append(decoder, decoderLayer(q, i, dec, positions));
  const head = [lmHead(q, d, vocab, tied ? "encoder.Embedding" : null)];
  if (finalNorm) head.unshift(norm(q, "LayerNorm_out", "LayerNorm", d));
  const r = seq2seqReading({
    family: "bart",
    encoder,
    encoderRole: "encoder",
    encoderSeq: positions,
    encoderFixed: false,
    decoder: [...decoder, ...asHead(head)],
    decoderSeq: positions,
    decoderLayers: decLayers,
    decoderHeads: decHeads,
    headDim: d / decHeads,
    vocab,
    hidden: d,
    tied,
  });
  r.storedBuffers = [{ suffix: "final_logits_bias", count: 1, scalarsEach: vocab, dtype: "F32" }];
  return r;
}
