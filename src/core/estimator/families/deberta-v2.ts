/**
 * DeBERTa-v2 / v3 (modeling_deberta_v2.py, defaults from configuration_deberta_v2.py). DebertaV2Embeddings:
 * word_embeddings (vocab x embedding_size), position_embeddings only when position_biased_input (v3: false),
 * token_type_embeddings when type_vocab_size > 0, embed_proj (embedding_size -> hidden, no bias) when the two
 * differ, LayerNorm. DisentangledSelfAttention: query/key/value_proj (bias) and, unless share_att_key, pos_key_proj
 * (for "c2p") and pos_query_proj (for "p2c"); post-norm BERT layer otherwise. DebertaV2Encoder: rel_embeddings
 * (2 x position_buckets, else 2 x max_relative_positions, rows) when relative_attention, a LayerNorm when
 * norm_rel_ebd has "layer_norm", and ConvLayer when conv_kernel_size > 0. Heads: ForMaskedLM (transform dense +
 * LayerNorm, decoder tied to word_embeddings, bias), ForSequenceClassification / ForMultipleChoice (ContextPooler
 * dense + classifier), ForTokenClassification (classifier), ForQuestionAnswering (qa_outputs); no architectures =
 * DebertaV2Model (the published v3 backbones). `embeddings.position_ids` is a persistent buffer in older versions.
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
  linear,
  lmHead,
  node,
  norm,
  type Place,
  place,
  positionEmbedding,
} from "./blocks.ts";
import { numLabels } from "./encoder.ts";

type Dims = {
  h: number;
  e: number;
  heads: number;
  headDim: number;
  inter: number;
  vocab: number;
  posProj: number;
};

/** pos_att_type as a list ("p2c|c2p" strings and arrays are both published). */
function posAttTypes(cfg: ConfigView): string[] {
  const raw = cfg.raw.pos_att_type;
  if (typeof raw === "string")
    return raw
      .toLowerCase()
      .split("|")
      .map((s) => s.trim());
  return (cfg.optArray("pos_att_type") ?? []).map((s) => String(s).toLowerCase());
}

function embeddingNodes(p: Place, cfg: ConfigView, d: Dims): StructureNode[] {
  const nodes = [embedding(p, d.vocab, d.e)];
  if (cfg.bool("position_biased_input", true))
    nodes.push(positionEmbedding(p, cfg.int("max_position_embeddings"), d.e));
  const types = cfg.optInt("type_vocab_size", 0, { min: 0, max: 1_000_000 });
  if (types > 0) nodes.push(positionEmbedding(p, types, d.e, "TokenTypeEmbedding"));
  if (d.e !== d.h) nodes.push(linear(p, "EmbedProj", "Linear (embed_proj)", d.e, d.h, false));
  nodes.push(norm(p, "LayerNorm_emb", "LayerNorm", d.h));
  return nodes;
}

function layerNodes(p: Place, i: number, d: Dims): StructureNode[] {
  const q = at(p, i);
  const all = d.heads * d.headDim;
  const attn = attention(q, `Attention_${i}`, {
    hidden: d.h,
    heads: d.heads,
    kvHeads: d.heads,
    headDim: d.headDim,
    qkvBias: true,
    oBias: true,
  });
  attn.type = "Disentangled Attn";
  attn.params += d.posProj * (d.h * all + all);
  return [
    attn,
    add(q, `Add_${i}_attn`, d.h),
    norm(q, `LayerNorm_${i}_1`, "LayerNorm", d.h),
    geluMlp(q, `FFN_${i}`, d.h, d.inter),
    add(q, `Add_${i}_ffn`, d.h),
    norm(q, `LayerNorm_${i}_2`, "LayerNorm", d.h),
  ];
}

/** rel_embeddings, their LayerNorm and the ConvLayer after layer 1, as DebertaV2Encoder holds them. */
function encoderExtras(p: Place, cfg: ConfigView, d: Dims): StructureNode[] {
  const out: StructureNode[] = [];
  if (cfg.bool("relative_attention", false)) {
    const buckets = cfg.optInt("position_buckets", -1, { min: -1 });
    const maxRel = cfg.optInt("max_relative_positions", -1, { min: -1 });
    const span = buckets > 0 ? buckets : maxRel > 0 ? maxRel : cfg.int("max_position_embeddings");
    out.push(node(p, "RelEmbeddings", "Relative Position Embeddings", d.h, 2 * span * d.h, 0));
  }
  const normRel = (cfg.optStr("norm_rel_ebd") ?? "none")
    .toLowerCase()
    .split("|")
    .map((s) => s.trim());
  if (normRel.includes("layer_norm")) out.push(norm(p, "LayerNorm_rel", "LayerNorm", d.h));
  const kernel = cfg.optInt("conv_kernel_size", 0, { min: 0 });
  if (kernel > 0) {
    const groups = cfg.optInt("conv_groups", 1);
    if (d.h % groups !== 0) cfg.fail("conv_groups", `${groups} does not divide hidden_size ${d.h}`);
    out.push(
      node(
        p,
        "ConvLayer",
        `Conv1d k${kernel}`,
        d.h,
        d.h * (d.h / groups) * kernel + d.h + 2 * d.h,
        2 * 2 * d.h,
      ),
    );
  }
  return out;
}

function headNodes(p: Place, cfg: ConfigView, d: Dims, arch: string): StructureNode[] {
  const pooler = () => {
    const ph = cfg.optInt("pooler_hidden_size", d.h);
    return linear(p, "Pooler", "ContextPooler (dense + act)", ph, ph, true, false);
  };
  if (arch.endsWith("ForMaskedLM")) {
    const bias = linear(p, "MLMBias", "Bias", 0, d.vocab, true, false);
    bias.actBytesPerToken = 0;
    return [
      linear(p, "MLMTransform", "Dense + act", d.h, d.e, true, false),
      norm(p, "MLMNorm", "LayerNorm", d.e),
      lmHead(p, d.e, d.vocab, "Embedding"),
      bias,
    ];
  }
  if (arch.endsWith("ForSequenceClassification"))
    return [pooler(), linear(p, "Classifier", "Classifier", d.h, numLabels(cfg), true, false)];
  if (arch.endsWith("ForMultipleChoice"))
    return [pooler(), linear(p, "Classifier", "Classifier", d.h, 1, true, false)];
  if (arch.endsWith("ForTokenClassification"))
    return [linear(p, "Classifier", "Classifier", d.h, numLabels(cfg), true, false)];
  if (arch.endsWith("ForQuestionAnswering"))
    return [linear(p, "QAOutputs", "Span classifier", d.h, numLabels(cfg), true, false)];
  return [];
}

function dims(cfg: ConfigView): Dims {
  const h = cfg.int("hidden_size");
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  const headDim = cfg.has("attention_head_size")
    ? cfg.int("attention_head_size")
    : divisible(cfg, "hidden_size", h, heads, "num_attention_heads");
  const types = posAttTypes(cfg);
  const separate = cfg.bool("relative_attention", false) && !cfg.bool("share_att_key", false);
  const posProj = separate ? Number(types.includes("c2p")) + Number(types.includes("p2c")) : 0;
  return {
    h,
    e: cfg.optInt("embedding_size", h),
    heads,
    headDim,
    inter: cfg.int("intermediate_size"),
    vocab: cfg.int("vocab_size"),
    posProj,
  };
}

export function readDebertaV2(cfg: ConfigView): ModelReading {
  const d = dims(cfg);
  const positions = cfg.int("max_position_embeddings");
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  const p = place(positions);
  const nodes = embeddingNodes(p, cfg, d);
  append(nodes, encoderExtras(p, cfg, d));
  for (let i = 1; i <= layers; i++) append(nodes, layerNodes(p, i, d));
  const arch =
    (cfg.optArray("architectures")?.find((a) => typeof a === "string") as string | undefined) ??
    "DebertaV2Model";
  append(nodes, asHead(headNodes(p, cfg, d, arch)));
  const mlm = arch.endsWith("ForMaskedLM");
  return {
    family: "deberta-v2",
    modelType: "deberta-v2",
    towers: [{ name: "encoder", role: "encoder", seqLen: positions, nodes }],
    contextLength: positions,
    lmHead: mlm ? { vocab: d.vocab, hidden: d.e } : null,
    tiedEmbedding: mlm,
    embeddingParams: d.vocab * d.e,
    kvLayers: [],
    storedBuffers: [{ suffix: "embeddings.position_ids", count: 1, scalarsEach: positions, dtype: "I64" }],
    warnings: [],
  };
}
