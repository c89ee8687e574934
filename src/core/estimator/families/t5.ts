/**
 * t5, mt5, umt5 (modeling_t5.py, modeling_mt5.py, modeling_umt5.py; defaults from configuration_t5.py,
 * configuration_mt5.py, configuration_umt5.py). One `shared` embedding (vocab x d_model) feeds the encoder and the
 * decoder stacks (T5Stack / UMT5Stack: blocks, final_layer_norm); the relative attention bias sits in block 0 of
 * each stack (T5Block(has_relative_attention_bias=i == 0)) or, for umT5, in every self-attention layer; the
 * cross-attention (EncDecAttention) has none. The head follows the architecture: T5ForConditionalGeneration's
 * lm_head (d_model -> vocab, no bias, tied to `shared` per tie_word_embeddings), T5Model (none), T5EncoderModel
 * (encoder only), T5ForSequenceClassification (T5ClassificationHead: dense + out_proj), T5ForTokenClassification
 * (encoder + classifier), T5ForQuestionAnswering (qa_outputs). transformers 5 forces tie_word_embeddings to true
 * for umT5 in the config class; the published umT5 checkpoints store an untied lm_head, so the config's own flag
 * is what is counted here.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import { append, asHead, embedding, linear, lmHead, norm, type Place, place } from "./blocks.ts";
import { numLabels } from "./encoder.ts";
import { seq2seqReading } from "./seq2seq.ts";
import { type T5Dims, type T5Variant, t5DecoderLayer, t5Dims, t5EncoderLayer } from "./t5-parts.ts";

type T5Head = "generation" | "model" | "encoder" | "sequence" | "token" | "qa";

const HEAD_SUFFIXES: [string, T5Head][] = [
  ["ForConditionalGeneration", "generation"],
  ["EncoderModel", "encoder"],
  ["ForSequenceClassification", "sequence"],
  ["ForTokenClassification", "token"],
  ["ForQuestionAnswering", "qa"],
  ["Model", "model"],
];

function headOf(cfg: ConfigView, warnings: string[]): T5Head {
  const arch = cfg.optArray("architectures")?.find((a) => typeof a === "string") as string | undefined;
  const hit = arch ? HEAD_SUFFIXES.find(([suffix]) => arch.endsWith(suffix)) : undefined;
  if (hit) return hit[1];
  warnings.push(
    `architectures ${arch ?? "missing"}: read as ForConditionalGeneration (encoder, decoder, LM head)`,
  );
  return "generation";
}

function encoderNodes(p: Place, t: T5Dims, v: T5Variant): StructureNode[] {
  const nodes: StructureNode[] = [embedding(p, t.vocab, t.d)];
  for (let i = 1; i <= t.layers; i++) append(nodes, t5EncoderLayer(p, i, t, v.biasEveryLayer || i === 1));
  nodes.push(norm(p, "RMSNorm_out", "RMSNorm", t.d));
  return nodes;
}

function decoderNodes(p: Place, t: T5Dims, v: T5Variant, encoderSeq: number): StructureNode[] {
  const shared = embedding(p, t.vocab, t.d);
  shared.tiedTo = "encoder.Embedding";
  const nodes: StructureNode[] = [shared];
  for (let i = 1; i <= t.decoderLayers; i++) {
    append(nodes, t5DecoderLayer(p, i, t, v.biasEveryLayer || i === 1, encoderSeq));
  }
  const out = norm(p, "RMSNorm_out", "RMSNorm", t.d);
  out.outputHead = true;
  nodes.push(out);
  return nodes;
}

/** Head nodes after the decoder (or, for token classification, after the encoder). */
function headNodes(p: Place, cfg: ConfigView, t: T5Dims, head: T5Head): StructureNode[] {
  const labels = () => numLabels(cfg);
  switch (head) {
    case "generation":
      return [lmHead(p, t.d, t.vocab, t.tied ? "encoder.Embedding" : null)];
    case "sequence":
      return [
        linear(p, "ClassifierDense", "Dense + tanh", t.d, t.d, true, false),
        linear(p, "Classifier", "Classifier", t.d, labels(), true, false),
      ];
    case "token":
      return [linear(p, "Classifier", "Classifier", t.d, labels(), true, false)];
    case "qa":
      return [linear(p, "QAOutputs", "Span classifier", t.d, labels(), true, false)];
    default:
      return [];
  }
}

/** Old T5/mT5 checkpoints (converted from TensorFlow) store a cross-attention bias table no module builds. */
function legacyCrossBias(t: T5Dims, v: T5Variant): ModelReading["storedBuffers"] {
  if (v.biasEveryLayer) return [];
  const suffix = "decoder.block.0.layer.1.EncDecAttention.relative_attention_bias.weight";
  return [{ suffix, count: 1, scalarsEach: t.buckets * t.heads, dtype: "F32" }];
}

function encoderOnly(cfg: ConfigView, t: T5Dims, v: T5Variant, seq: number, head: T5Head): ModelReading {
  const p = place(seq, "encoder");
  const nodes = encoderNodes(p, t, v);
  nodes[nodes.length - 1]!.outputHead = true;
  append(nodes, asHead(headNodes(p, cfg, t, head)));
  return {
    family: v.family,
    modelType: v.family,
    towers: [{ name: "encoder", role: "encoder", seqLen: seq, nodes }],
    contextLength: seq,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: t.vocab * t.d,
    kvLayers: [],
    warnings: [],
  };
}

function readT5Family(cfg: ConfigView, v: T5Variant): ModelReading {
  const t = t5Dims(cfg, v);
  const warnings: string[] = [];
  const head = headOf(cfg, warnings);
  const seq = cfg.optInt("n_positions", 512);
  if (!cfg.has("n_positions")) {
    warnings.push(
      "no n_positions (relative positions set no limit): sized at 512 tokens, T5's pretraining length",
    );
  }
  if (head === "encoder" || head === "token") {
    const r = encoderOnly(cfg, t, v, seq, head);
    r.warnings = warnings;
    return r;
  }
  const q = place(seq, "decoder");
  const decoder = decoderNodes(q, t, v, seq);
  append(decoder, asHead(headNodes(q, cfg, t, head)));
  const r = seq2seqReading({
    family: v.family,
    encoder: encoderNodes(place(seq, "encoder"), t, v),
    encoderRole: "encoder",
    encoderSeq: seq,
    encoderFixed: false,
    decoder,
    decoderSeq: seq,
    decoderLayers: t.decoderLayers,
    decoderHeads: t.heads,
    headDim: t.dkv,
    vocab: t.vocab,
    hidden: t.d,
    tied: head === "generation" && t.tied,
  });
  if (head !== "generation") r.lmHead = null;
  r.storedBuffers = legacyCrossBias(t, v);
  r.warnings = warnings;
  return r;
}

/** T5 and T5 v1.1 / Flan-T5 (T5Config: relu feed-forward and a tied head unless the config says otherwise). */
export function readT5(cfg: ConfigView): ModelReading {
  return readT5Family(cfg, {
    family: "t5",
    biasEveryLayer: false,
    feedForwardDefault: "relu",
    tieDefault: true,
  });
}

/** mT5 (MT5Config: gated-gelu, untied head by default); the modules are T5's. */
export function readMt5(cfg: ConfigView): ModelReading {
  return readT5Family(cfg, {
    family: "mt5",
    biasEveryLayer: false,
    feedForwardDefault: "gated-gelu",
    tieDefault: false,
  });
}

/** umT5: T5 layers with a relative attention bias in every self-attention layer. */
export function readUmt5(cfg: ConfigView): ModelReading {
  return readT5Family(cfg, {
    family: "umt5",
    biasEveryLayer: true,
    feedForwardDefault: "gated-gelu",
    tieDefault: true,
  });
}
