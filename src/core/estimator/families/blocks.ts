/**
 * Building blocks for family readers: each returns structure nodes with exact parameter counts (as in
 * transformers' modeling files) and activation bytes per token (bf16, SDPA: no score matrix stored).
 * Activation convention (the spec's SwiGLU layer: 2 bytes x (4h + 2q + 2kv + 4I) per token):
 * norm and add outputs h each, attention q + k + v + attention output, SwiGLU gate/up/act/product.
 */
import type { KvLayer, Linear, ModelReading, StructureNode } from "../types.ts";
import { makeNode } from "./node-shape.ts";

const BF16 = 2;

/** Where the nodes sit: display sequence length, node-name prefix (for multi-tower models), layer index. */
export type Place = { seq: number; prefix?: string; layer?: number };

/** A place for a tower (always all three keys: one object shape keeps node building fast in V8). */
export function place(seq: number, prefix?: string): Place {
  return { seq, prefix, layer: undefined };
}

/** The same place at `layer` (use instead of `{ ...p, layer }`: object spread is slow on this hot path). */
export function at(p: Place, layer: number | undefined): Place {
  return { seq: p.seq, prefix: p.prefix, layer };
}

/** Appends nodes one by one (`out.push(...nodes)` goes through the slow generic spread path). */
export function append(out: StructureNode[], nodes: StructureNode[]): void {
  for (const n of nodes) out.push(n);
}

function nm(p: Place, name: string): string {
  return p.prefix ? `${p.prefix}.${name}` : name;
}

/** One node; `act` is activation bytes per token. */
export function node(
  p: Place,
  name: string,
  type: string,
  width: number,
  params: number,
  act: number,
  linears?: Linear[],
): StructureNode {
  const ls = linears && linears.length > 0 ? linears : undefined;
  return makeNode(nm(p, name), type, [p.seq, width], params, act, p.layer, ls);
}

export function embedding(p: Place, vocab: number, hidden: number, name = "Embedding"): StructureNode {
  return node(p, name, "Embedding", hidden, vocab * hidden, 0);
}

/** Learned absolute positions (GPT-2 wpe, BERT position_embeddings): added in-line to the token embedding. */
export function positionEmbedding(
  p: Place,
  positions: number,
  hidden: number,
  name = "PosEmbedding",
): StructureNode {
  return node(p, name, "Learned Positions", hidden, positions * hidden, 0);
}

/** Rotary positions: no parameters, kept in-line between the embedding and the first block. */
export function rope(p: Place, hidden: number): StructureNode {
  return node(p, "RoPE", "RoPE", hidden, 0, 0);
}

type NormKind = "RMSNorm" | "LayerNorm";

/** RMSNorm (weight) or LayerNorm (weight + bias unless `bias` is false). */
export function norm(p: Place, name: string, kind: NormKind, hidden: number, bias = true): StructureNode {
  const params = kind === "RMSNorm" || !bias ? hidden : 2 * hidden;
  return node(p, name, kind, hidden, params, BF16 * hidden);
}

export function add(p: Place, name: string, hidden: number): StructureNode {
  return node(p, name, "Add", hidden, 0, BF16 * hidden);
}

export type AttentionSpec = {
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  /** Bias on q, k, v projections. */
  qkvBias: boolean;
  /** Bias on the output projection. */
  oBias: boolean;
  /** Per-head RMSNorm on q and k (Qwen3): headDim weights each. */
  qkNorm?: "head" | "none";
  /** Fused qkv (GPT-2 c_attn): same count, one linear for LoRA. */
  fused?: boolean;
};

/** Parameters of a self-attention module. */
function attentionParams(a: AttentionSpec): number {
  const q = a.heads * a.headDim;
  const kv = a.kvHeads * a.headDim;
  const w = a.hidden * q + 2 * a.hidden * kv + q * a.hidden;
  const b = (a.qkvBias ? q + 2 * kv : 0) + (a.oBias ? a.hidden : 0);
  return w + b + (a.qkNorm === "head" ? 2 * a.headDim : 0);
}

export function attention(p: Place, name: string, a: AttentionSpec): StructureNode {
  const q = a.heads * a.headDim;
  const kv = a.kvHeads * a.headDim;
  const linears: Linear[] = a.fused
    ? [
        { in: a.hidden, out: q + 2 * kv, count: 1 },
        { in: q, out: a.hidden, count: 1 },
      ]
    : [
        { in: a.hidden, out: q, count: 1 },
        { in: a.hidden, out: kv, count: 2 },
        { in: q, out: a.hidden, count: 1 },
      ];
  const type =
    a.kvHeads < a.heads ? (a.kvHeads === 1 ? "Multi-Query Attn" : "Grouped Query Attn") : "Multi-Head Attn";
  return node(p, name, type, a.hidden, attentionParams(a), BF16 * (2 * q + 2 * kv), linears);
}

/**
 * Cross-attention (decoder over encoder states): q from the decoder, k/v over `encoderSeq` positions.
 * Per token: q and output; per sample: k and v over the encoder positions.
 */
export function crossAttention(p: Place, name: string, a: AttentionSpec, encoderSeq: number): StructureNode {
  const n = attention(p, name, a);
  const q = a.heads * a.headDim;
  const kv = a.kvHeads * a.headDim;
  n.type = "Cross Attn";
  n.actBytesPerToken = BF16 * 2 * q;
  n.actBytesPerSample = BF16 * 2 * kv * encoderSeq;
  return n;
}

/** SwiGLU MLP: gate, up (hidden -> I), down (I -> hidden). */
export function swiglu(p: Place, name: string, hidden: number, inter: number, bias = false): StructureNode {
  const params = 3 * hidden * inter + (bias ? 2 * inter + hidden : 0);
  const linears: Linear[] = [
    { in: hidden, out: inter, count: 2 },
    { in: inter, out: hidden, count: 1 },
  ];
  return node(p, name, "SwiGLU", hidden, params, BF16 * 4 * inter, linears);
}

/** Two-layer MLP with GELU (GPT-2, BERT, Phi, Whisper, CLIP): fc1 output and activation output stored. */
export function geluMlp(p: Place, name: string, hidden: number, inter: number, bias = true): StructureNode {
  const params = 2 * hidden * inter + (bias ? inter + hidden : 0);
  const linears: Linear[] = [
    { in: hidden, out: inter, count: 1 },
    { in: inter, out: hidden, count: 1 },
  ];
  return node(p, name, "GELU MLP", hidden, params, BF16 * 2 * inter, linears);
}

/** A plain linear (projections, adapters); `lora` false for heads. */
export function linear(
  p: Place,
  name: string,
  type: string,
  inp: number,
  out: number,
  bias: boolean,
  lora = true,
): StructureNode {
  const params = inp * out + (bias ? out : 0);
  return node(p, name, type, out, params, BF16 * out, lora ? [{ in: inp, out, count: 1 }] : undefined);
}

/** LM head: hidden -> vocab; logits memory is counted apart (memory.ts), so no activation here. */
export function lmHead(
  p: Place,
  hidden: number,
  vocab: number,
  tiedTo: string | null,
  bias = false,
): StructureNode {
  const n = node(
    p,
    "LMHead",
    tiedTo ? "LM Head (tied)" : "LM Head",
    vocab,
    vocab * hidden + (bias ? vocab : 0),
    0,
  );
  if (tiedTo) n.tiedTo = tiedTo;
  n.outputHead = true;
  return n;
}

/** Marks nodes as the output head (final norm, heads): placed on the last card, not counted as layers. */
export function asHead(nodes: StructureNode[]): StructureNode[] {
  for (const n of nodes) n.outputHead = true;
  return nodes;
}

/** Pre-norm decoder layer (takes ownership of `attn` and `mlp`, setting their layer): norm, attention, add, norm, MLP, add (seed naming: RMSNorm_1_1, Attention_1 ...). */
export function preNormLayer(
  p: Place,
  i: number,
  kind: NormKind,
  hidden: number,
  attn: StructureNode,
  mlp: StructureNode,
): StructureNode[] {
  const out: StructureNode[] = [];
  pushPreNormLayer(out, at(p, i), kind, hidden, attn, mlp);
  return out;
}

/**
 * preNormLayer pushed onto `out` at the layer place `q` (its `layer` set): no array per layer. `shape`: the
 * norm and add nodes' output shape, which callers building many layers pass once for all of them.
 */
export function pushPreNormLayer(
  out: StructureNode[],
  q: Place,
  kind: NormKind,
  hidden: number,
  attn: StructureNode,
  mlp: StructureNode,
  shape: number[] = [q.seq, hidden],
): void {
  const i = q.layer;
  attn.layer = i;
  mlp.layer = i;
  const stem = nm(q, `${kind}_${i}`);
  const add = nm(q, `Add_${i}`);
  const normParams = kind === "RMSNorm" ? hidden : 2 * hidden;
  const act = BF16 * hidden;
  out.push(
    makeNode(`${stem}_1`, kind, shape, normParams, act, i, undefined),
    attn,
    makeNode(`${add}_attn`, "Add", shape, 0, act, i, undefined),
    makeNode(`${stem}_2`, kind, shape, normParams, act, i, undefined),
    mlp,
    makeNode(`${add}_ffn`, "Add", shape, 0, act, i, undefined),
  );
}

/** `n` again as the node `name` (under `q`'s prefix) of `q`'s layer, sharing its shape and linears. */
export function layerCopy(q: Place, n: StructureNode, name: string): StructureNode {
  return makeNode(nm(q, name), n.type, n.shape, n.params, n.actBytesPerToken, q.layer, n.linears);
}

/** KV cache entry of a standard attention layer: k and v, bf16. */
export function kvFull(kvHeads: number, headDim: number): KvLayer {
  return { kind: "full", bytesPerToken: 2 * kvHeads * headDim * BF16 };
}

export function kvSliding(kvHeads: number, headDim: number, window: number): KvLayer {
  return { kind: "sliding", bytesPerToken: 2 * kvHeads * headDim * BF16, window };
}

/** Cross-attention cache: k and v over the encoder's positions, per sequence. */
export function kvCross(kvHeads: number, headDim: number, encoderSeq: number): KvLayer {
  return { kind: "cross", bytesPerToken: 0, fixedBytes: 2 * kvHeads * headDim * BF16 * encoderSeq };
}

/** What a single-tower text decoder's reading needs beyond its nodes. */
type DecoderFacts = {
  family: string;
  modelType?: string;
  nodes: StructureNode[];
  context: number | null;
  vocab: number;
  hidden: number;
  tied: boolean;
  kvLayers: KvLayer[];
  warnings?: string[];
};

/** The ModelReading of a decoder-only model with one "text" tower. */
export function decoderReading(f: DecoderFacts): ModelReading {
  const seq = f.context ?? 2048;
  const warnings = f.warnings ?? [];
  if (f.context === null) warnings.push("max_position_embeddings missing: structure shown at 2048 tokens");
  return {
    family: f.family,
    modelType: f.modelType ?? f.family,
    towers: [{ name: "text", role: "decoder", seqLen: seq, nodes: f.nodes }],
    contextLength: f.context,
    lmHead: { vocab: f.vocab, hidden: f.hidden },
    tiedEmbedding: f.tied,
    embeddingParams: f.vocab * f.hidden,
    kvLayers: f.kvLayers,
    warnings,
  };
}
