/**
 * ModernBERT (modeling_modernbert.py, defaults from configuration_modernbert.py). ModernBertEmbeddings:
 * tok_embeddings and a LayerNorm (bias per norm_bias), no position table (RoPE). ModernBertEncoderLayer: attn_norm
 * (nn.Identity in layer 0), attention with a fused Wqkv and Wo (bias per attention_bias), mlp_norm, and the GLU
 * ModernBertMLP (Wi: hidden -> 2 x intermediate, Wo: intermediate -> hidden, bias per mlp_bias); final_norm. Layers
 * alternate global and local (sliding, `local_attention` tokens) attention: `layer_types`, else every
 * `global_attn_every_n_layers`-th layer (0, 3, 6 ...) is global. Heads: ForMaskedLM = ModernBertPredictionHead
 * (dense, bias per classifier_bias; act; LayerNorm) + decoder (tied to tok_embeddings per tie_word_embeddings,
 * bias per decoder_bias); ForSequenceClassification / ForTokenClassification / ForQuestionAnswering = prediction
 * head + classifier (with bias); ForMultipleChoice = the same with one output. An encoder: no KV cache.
 */
import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  add,
  append,
  asHead,
  at,
  attention,
  embedding,
  linear,
  lmHead,
  node,
  norm,
  type Place,
  place,
} from "./blocks.ts";
import { numLabels } from "./encoder.ts";
import { layerTypesOf } from "./moe-frame.ts";

type Dims = {
  h: number;
  inter: number;
  heads: number;
  vocab: number;
  normBias: boolean;
  attnBias: boolean;
  mlpBias: boolean;
  window: number;
};

/** GLU MLP with a fused Wi (input and gate halves): one LoRA linear in, one out; 4 x intermediate stored. */
function gluMlp(q: Place, i: number, d: Dims): StructureNode {
  const params = 3 * d.h * d.inter + (d.mlpBias ? 2 * d.inter + d.h : 0);
  return node(q, `FFN_${i}`, "GeGLU (fused Wi)", d.h, params, 2 * 4 * d.inter, [
    { in: d.h, out: 2 * d.inter, count: 1 },
    { in: d.inter, out: d.h, count: 1 },
  ]);
}

function layerNodes(p: Place, i: number, d: Dims, kind: string): StructureNode[] {
  const q = at(p, i);
  const spec = {
    hidden: d.h,
    heads: d.heads,
    kvHeads: d.heads,
    headDim: d.h / d.heads,
    qkvBias: d.attnBias,
    oBias: d.attnBias,
    fused: true,
  };
  const attn = attention(q, `Attention_${i}`, spec);
  attn.type = kind === "sliding_attention" ? `Local Attn (window ${d.window})` : "Global Attn";
  const nodes: StructureNode[] = [];
  if (i > 1) nodes.push(norm(q, `LayerNorm_${i}_1`, "LayerNorm", d.h, d.normBias));
  nodes.push(
    attn,
    add(q, `Add_${i}_attn`, d.h),
    norm(q, `LayerNorm_${i}_2`, "LayerNorm", d.h, d.normBias),
    gluMlp(q, i, d),
    add(q, `Add_${i}_ffn`, d.h),
  );
  return nodes;
}

function headNodes(p: Place, cfg: ConfigView, d: Dims, arch: string): StructureNode[] {
  const prediction = [
    linear(p, "HeadDense", "Dense + act", d.h, d.h, cfg.bool("classifier_bias", false), false),
    norm(p, "HeadNorm", "LayerNorm", d.h, d.normBias),
  ];
  if (arch.endsWith("ForMaskedLM")) {
    const tied = cfg.bool("tie_word_embeddings", true);
    const decoder = lmHead(p, d.h, d.vocab, tied ? "Embedding" : null);
    const bias = cfg.bool("decoder_bias", true)
      ? [linear(p, "DecoderBias", "Bias", 0, d.vocab, true, false)]
      : [];
    for (const b of bias) b.actBytesPerToken = 0;
    return [...prediction, decoder, ...bias];
  }
  if (arch.endsWith("ForMultipleChoice"))
    return [...prediction, linear(p, "Classifier", "Classifier", d.h, 1, true, false)];
  if (/For(Sequence|Token)Classification$|ForQuestionAnswering$/.test(arch)) {
    return [...prediction, linear(p, "Classifier", "Classifier", d.h, numLabels(cfg), true, false)];
  }
  return [];
}

export function readModernBert(cfg: ConfigView): ModelReading {
  const h = cfg.int("hidden_size");
  const heads = cfg.int("num_attention_heads", { max: 100_000 });
  divisible(cfg, "hidden_size", h, heads, "num_attention_heads");
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  const d: Dims = {
    h,
    inter: cfg.int("intermediate_size"),
    heads,
    vocab: cfg.int("vocab_size"),
    normBias: cfg.bool("norm_bias", false),
    attnBias: cfg.bool("attention_bias", false),
    mlpBias: cfg.bool("mlp_bias", false),
    window: cfg.optInt("local_attention", 128),
  };
  const every = cfg.optInt("global_attn_every_n_layers", 3, { max: 10_000 });
  const types = layerTypesOf(cfg, layers, (i) => (i % every === 0 ? "full_attention" : "sliding_attention"));
  const context = cfg.optInt("max_position_embeddings", 8192);
  const p = place(context);
  const nodes: StructureNode[] = [
    embedding(p, d.vocab, h),
    norm(p, "LayerNorm_emb", "LayerNorm", h, d.normBias),
  ];
  for (let i = 1; i <= layers; i++) append(nodes, layerNodes(p, i, d, types[i - 1]!));
  const arch =
    (cfg.optArray("architectures")?.find((a) => typeof a === "string") as string | undefined) ??
    "ModernBertModel";
  append(
    nodes,
    asHead([norm(p, "LayerNorm_out", "LayerNorm", h, d.normBias), ...headNodes(p, cfg, d, arch)]),
  );
  const mlm = arch.endsWith("ForMaskedLM");
  return {
    family: "modernbert",
    modelType: "modernbert",
    towers: [{ name: "encoder", role: "encoder", seqLen: context, nodes }],
    contextLength: context,
    lmHead: mlm ? { vocab: d.vocab, hidden: h } : null,
    tiedEmbedding: mlm && cfg.bool("tie_word_embeddings", true),
    embeddingParams: d.vocab * h,
    kvLayers: [],
    warnings: [],
  };
}
