import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  append,
  asHead,
  embedding,
  lmHead,
  node,
  norm,
  type Place,
  place,
  positionEmbedding,
} from "./blocks.ts";
import { decoderLayer, encoderLayer, type Seq2SeqLayer, seq2seqReading } from "./seq2seq.ts";

const BF16 = 2;

/** The audio encoder: two convolutions from 2 x source mel frames down to `source` positions, then the layers. */
function encoderNodes(
  d: number,
  mel: number,
  source: number,
  layers: number,
  l: Seq2SeqLayer,
): StructureNode[] {
  const frames = 2 * source;
  const p: Place = place(source, "encoder");
  // Per encoder position: conv1 runs on two frames (output + GELU each), conv2 on one.
  const conv1 = node(
    { seq: frames, prefix: p.prefix, layer: p.layer },
    "Conv1",
    "Conv1d k3 + GELU",
    d,
    mel * d * 3 + d,
    BF16 * 2 * 2 * d,
  );
  const conv2 = node(p, "Conv2", "Conv1d k3 s2 + GELU", d, d * d * 3 + d, BF16 * 2 * d);
  const nodes: StructureNode[] = [conv1, conv2, positionEmbedding(p, source, d)];
  for (let i = 1; i <= layers; i++) append(nodes, encoderLayer(p, i, l));
  nodes.push(norm(p, "LayerNorm_out", "LayerNorm", d));
  return nodes;
}

/**
 * Whisper (modeling_whisper.py). Encoder: conv1 (mel -> d, k3) over 3000 mel frames, conv2 (d -> d, k3, stride 2)
 * down to max_source_positions (1500), stored sinusoidal positions, pre-norm layers, final LayerNorm.
 * Decoder: token + learned positions (max_target_positions, 448), pre-norm layers with cross-attention over
 * the 1500 encoder positions, final LayerNorm, proj_out tied to the token embedding.
 * k_proj has no bias (q, v, out_proj do).
 */
export function readWhisper(cfg: ConfigView): ModelReading {
  const d = cfg.int("d_model");
  const mel = cfg.int("num_mel_bins", { max: 100_000 });
  const encLayers = cfg.int("encoder_layers", { max: 10_000 });
  const decLayers = cfg.int("decoder_layers", { max: 10_000 });
  const encHeads = cfg.int("encoder_attention_heads", { max: 100_000 });
  const decHeads = cfg.int("decoder_attention_heads", { max: 100_000 });
  const source = cfg.int("max_source_positions");
  const target = cfg.int("max_target_positions");
  const vocab = cfg.int("vocab_size");
  const tied = cfg.bool("tie_word_embeddings", true);
  const layer = (heads: number, ffnKey: string, headsKey: string): Seq2SeqLayer => ({
    hidden: d,
    ffn: cfg.int(ffnKey),
    self: {
      hidden: d,
      heads,
      kvHeads: heads,
      headDim: divisible(cfg, headsKey, d, heads, "d_model / heads"),
      qkvBias: true,
      oBias: true,
    },
    attnParamAdjust: -d,
    preNorm: true,
  });
  const enc = layer(encHeads, "encoder_ffn_dim", "encoder_attention_heads");
  const dec = layer(decHeads, "decoder_ffn_dim", "decoder_attention_heads");
  const encoder = encoderNodes(d, mel, source, encLayers, enc);
  const q: Place = place(target, "decoder");
  const decoder: StructureNode[] = [embedding(q, vocab, d), positionEmbedding(q, target, d)];
  for (let i = 1; i <= decLayers; i++) append(decoder, decoderLayer(q, i, dec, source));
  decoder.push(
    ...asHead([
      norm(q, "LayerNorm_out", "LayerNorm", d),
      lmHead(q, d, vocab, tied ? "decoder.Embedding" : null),
    ]),
  );
  return seq2seqReading({
    family: "whisper",
    encoder,
    encoderRole: "audio",
    encoderSeq: source,
    encoderFixed: true,
    decoder,
    decoderSeq: target,
    decoderLayers: decLayers,
    decoderHeads: decHeads,
    headDim: d / decHeads,
    vocab,
    hidden: d,
    tied,
  });
}
