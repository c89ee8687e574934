/**
 * BERT-style post-norm encoders (modeling_bert.py, modeling_roberta.py): word + position + token-type
 * embeddings and a LayerNorm; per layer attention, add, LayerNorm, GELU MLP, add, LayerNorm; then the
 * head the architecture names (pooler, classifier, masked-LM head).
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { ModelReading, StoredBuffer, StructureNode } from "../types.ts";
import {
  add,
  asHead,
  at,
  attention,
  embedding,
  geluMlp,
  linear,
  lmHead,
  norm,
  type Place,
  place,
  positionEmbedding,
} from "./blocks.ts";

export type EncoderHead = "model" | "sequence_classification" | "masked_lm" | "pretraining";

/** Which head the first architecture names. */
export function headFromArchitectures(cfg: ConfigView, fallback: EncoderHead): EncoderHead {
  const arch = cfg.optArray("architectures")?.find((a) => typeof a === "string") as string | undefined;
  if (!arch) return fallback;
  if (arch.endsWith("ForSequenceClassification")) return "sequence_classification";
  if (arch.endsWith("ForMaskedLM")) return "masked_lm";
  if (arch.endsWith("ForPreTraining")) return "pretraining";
  return "model";
}

/** num_labels, else the size of id2label, else 2 (transformers' default). */
export function numLabels(cfg: ConfigView): number {
  if (cfg.has("num_labels")) return cfg.int("num_labels", { max: 1_000_000 });
  const map = cfg.raw.id2label;
  if (map && typeof map === "object" && !Array.isArray(map)) return Math.max(1, Object.keys(map).length);
  return 2;
}

export type EncoderOptions = {
  family: string;
  head: EncoderHead;
  /** RoBERTa's classifier is dense + out_proj on the first token, without the pooler. */
  robertaHeads: boolean;
  /** Positions reserved before the first real token (RoBERTa: padding_idx + 1 = 2). */
  positionOffset: number;
};

/** The MLM decoder's own bias (vocab scalars): stores no activation of its own. */
function mlmBias(p: Place, vocab: number): StructureNode {
  const n = linear(p, "MLMBias", "Bias", 0, vocab, true, false);
  n.actBytesPerToken = 0;
  return n;
}

/** The head the architecture names, after the encoder layers (shared with pre-norm BERT variants). */
export function headNodes(
  p: Place,
  cfg: ConfigView,
  h: number,
  vocab: number,
  o: EncoderOptions,
): StructureNode[] {
  const pooler = () => linear(p, "Pooler", "Pooler (dense + tanh)", h, h, true, false);
  const mlm = () => [
    linear(p, "MLMTransform", "Dense + GELU", h, h, true, false),
    norm(p, "MLMNorm", "LayerNorm", h),
    lmHead(p, h, vocab, "Embedding"),
    mlmBias(p, vocab),
  ];
  const labels = numLabels(cfg);
  switch (o.head) {
    case "model":
      return [pooler()];
    case "masked_lm":
      return mlm();
    case "pretraining":
      return [pooler(), ...mlm(), linear(p, "NSP", "Classifier", h, 2, true, false)];
    case "sequence_classification":
      return o.robertaHeads
        ? [
            linear(p, "ClassifierDense", "Dense + tanh", h, h, true, false),
            linear(p, "Classifier", "Classifier", h, labels, true, false),
          ]
        : [pooler(), linear(p, "Classifier", "Classifier", h, labels, true, false)];
  }
}

/**
 * The embeddings' position_ids buffer (I64: in every published BERT checkpoint here, in some RoBERTa ones);
 * and, under a head that builds no pooler, the pooler some checkpoints still carry (from the base model).
 */
function encoderBuffers(
  positions: number,
  h: number,
  head: StructureNode[],
  ids: "always" | "maybe",
): StoredBuffer[] {
  const out: StoredBuffer[] = [
    { suffix: "position_ids", count: 1, scalarsEach: positions, dtype: "I64", presence: ids },
  ];
  if (!head.some((n) => n.name === "Pooler")) {
    out.push(
      { suffix: "pooler.dense.weight", count: 1, scalarsEach: h * h, dtype: "F32", presence: "maybe" },
      { suffix: "pooler.dense.bias", count: 1, scalarsEach: h, dtype: "F32", presence: "maybe" },
    );
  }
  return out;
}

/** A complete reading of a BERT-style encoder. */
export function readEncoder(cfg: ConfigView, o: EncoderOptions): ModelReading {
  const h = cfg.int("hidden_size");
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  const headDim = divisible(cfg, "hidden_size", h, heads, "num_attention_heads");
  const inter = cfg.int("intermediate_size");
  const vocab = cfg.int("vocab_size");
  const positions = cfg.int("max_position_embeddings");
  const typeVocab = cfg.optInt("type_vocab_size", 2, { min: 0, max: 1_000_000 });
  const context = Math.max(1, positions - o.positionOffset);
  const p: Place = place(context);
  const nodes: StructureNode[] = [embedding(p, vocab, h), positionEmbedding(p, positions, h)];
  if (typeVocab > 0) nodes.push(positionEmbedding(p, typeVocab, h, "TokenTypeEmbedding"));
  nodes.push(norm(p, "LayerNorm_emb", "LayerNorm", h));
  const spec = { hidden: h, heads, kvHeads: heads, headDim, qkvBias: true, oBias: true };
  for (let i = 1; i <= layers; i++) {
    const q: Place = at(p, i);
    nodes.push(
      attention(q, `Attention_${i}`, spec),
      add(q, `Add_${i}_attn`, h),
      norm(q, `LayerNorm_${i}_1`, "LayerNorm", h),
      geluMlp(q, `FFN_${i}`, h, inter),
      add(q, `Add_${i}_ffn`, h),
      norm(q, `LayerNorm_${i}_2`, "LayerNorm", h),
    );
  }
  const headList = headNodes(p, cfg, h, vocab, o);
  const head = asHead(headList);
  const hasLm = o.head === "masked_lm" || o.head === "pretraining";
  return {
    storedBuffers: encoderBuffers(positions, h, headList, o.robertaHeads ? "maybe" : "always"),
    family: o.family,
    modelType: cfg.optStr("model_type") ?? o.family,
    towers: [{ name: "encoder", role: "encoder", seqLen: context, nodes: [...nodes, ...head] }],
    contextLength: context,
    lmHead: hasLm ? { vocab, hidden: h } : null,
    tiedEmbedding: hasLm,
    embeddingParams: vocab * h,
    kvLayers: [],
    warnings: [],
  };
}
