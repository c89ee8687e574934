/**
 * XLM-RoBERTa and XLM-RoBERTa-XL/XXL.
 * - xlm-roberta (modeling_xlm_roberta.py): RoBERTa's modules unchanged (post-norm BERT layers, positions offset
 *   by padding_idx + 1 = 2, classifier = dense + out_proj without pooler); read by encoder.ts.
 * - xlm-roberta-xl (modeling_xlm_roberta_xl.py): XLMRobertaXLEmbeddings has no LayerNorm; each layer is pre-norm
 *   (self_attn_layer_norm before attention, the layer's LayerNorm before the MLP) and the encoder ends in a
 *   LayerNorm; the heads (XLMRobertaXLLMHead, XLMRobertaXLClassificationHead) are RoBERTa's.
 * Both register `embeddings.position_ids` (persistent before transformers 4.31, so older checkpoints store it).
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  add,
  append,
  asHead,
  at,
  attention,
  embedding,
  geluMlp,
  norm,
  type Place,
  place,
  positionEmbedding,
} from "./blocks.ts";
import { type EncoderOptions, headFromArchitectures, headNodes, readEncoder } from "./encoder.ts";

function options(cfg: ConfigView, family: string): EncoderOptions {
  return { family, head: headFromArchitectures(cfg, "masked_lm"), robertaHeads: true, positionOffset: 2 };
}

function positionIds(cfg: ConfigView): ModelReading["storedBuffers"] {
  const positions = cfg.int("max_position_embeddings");
  return [{ suffix: "embeddings.position_ids", count: 1, scalarsEach: positions, dtype: "I64" }];
}

/** xlm-roberta: the RoBERTa reading under its own family name (XLMRobertaForMaskedLM when architectures is missing). */
export function readXlmRoberta(cfg: ConfigView): ModelReading {
  const r = readEncoder(cfg, options(cfg, "xlm-roberta"));
  r.storedBuffers = positionIds(cfg);
  return r;
}

function xlLayer(p: Place, i: number, h: number, heads: number, inter: number): StructureNode[] {
  const q = at(p, i);
  const spec = { hidden: h, heads, kvHeads: heads, headDim: h / heads, qkvBias: true, oBias: true };
  return [
    norm(q, `LayerNorm_${i}_1`, "LayerNorm", h),
    attention(q, `Attention_${i}`, spec),
    add(q, `Add_${i}_attn`, h),
    norm(q, `LayerNorm_${i}_2`, "LayerNorm", h),
    geluMlp(q, `FFN_${i}`, h, inter),
    add(q, `Add_${i}_ffn`, h),
  ];
}

/** xlm-roberta-xl: pre-norm layers, no embedding LayerNorm, a final encoder LayerNorm. */
export function readXlmRobertaXl(cfg: ConfigView): ModelReading {
  const h = cfg.int("hidden_size");
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  divisible(cfg, "hidden_size", h, heads, "num_attention_heads");
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  const inter = cfg.int("intermediate_size");
  const vocab = cfg.int("vocab_size");
  const positions = cfg.int("max_position_embeddings");
  const context = Math.max(1, positions - 2);
  const o = options(cfg, "xlm-roberta-xl");
  const p = place(context);
  const nodes: StructureNode[] = [
    embedding(p, vocab, h),
    positionEmbedding(p, positions, h),
    positionEmbedding(p, cfg.optInt("type_vocab_size", 1, { min: 1 }), h, "TokenTypeEmbedding"),
  ];
  for (let i = 1; i <= layers; i++) append(nodes, xlLayer(p, i, h, heads, inter));
  append(nodes, asHead([norm(p, "LayerNorm_out", "LayerNorm", h), ...headNodes(p, cfg, h, vocab, o)]));
  const mlm = o.head === "masked_lm" || o.head === "pretraining";
  return {
    family: "xlm-roberta-xl",
    modelType: "xlm-roberta-xl",
    towers: [{ name: "encoder", role: "encoder", seqLen: context, nodes }],
    contextLength: context,
    lmHead: mlm ? { vocab, hidden: h } : null,
    tiedEmbedding: mlm,
    embeddingParams: vocab * h,
    kvLayers: [],
    storedBuffers: positionIds(cfg),
    warnings: [],
  };
}
