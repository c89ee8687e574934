/**
 * Building blocks shared by the MoE / MLA / hybrid / multimodal family readers.
 * A "Piece" is one sub-module of a layer: its parameters, the activation elements it stores
 * per token for backward (bf16 -> x2 bytes when it becomes a node), and the linears LoRA adapts.
 */
import type { Linear, MoeFacts, StructureNode } from "../types.ts";
import { makeNode } from "./node-shape.ts";

export type Piece = { type: string; params: number; actElems: number; linears: Linear[]; moe?: MoeFacts };

/** Bytes of one bf16 activation element. */
const ACT_BYTES = 2;

/** A linear of in x out (with optional bias), as LoRA sees it. */
export function lin(inF: number, outF: number, count = 1): Linear {
  return { in: inF, out: outF, count };
}

/** Parameters of a list of linears (weights only). */
export function linParams(ls: Linear[]): number {
  return ls.reduce((s, l) => s + l.in * l.out * l.count, 0);
}

/** Standard GQA attention: q/k/v/o, optional biases, per-head q/k norms, sinks, output gate. */
export function gqaAttention(o: {
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  bias?: boolean;
  oBias?: boolean;
  /** q_norm and k_norm weights (per-head: head_dim each; per-layer: q and kv widths). */
  qkNorm?: [number, number];
  sinks?: boolean;
  outputGate?: boolean;
  type?: string;
}): Piece {
  const q = o.heads * o.headDim;
  const kv = o.kvHeads * o.headDim;
  const qOut = o.outputGate ? 2 * q : q;
  const linears = [lin(o.hidden, qOut), lin(o.hidden, kv, 2), lin(q, o.hidden)];
  let params = linParams(linears);
  if (o.bias) params += qOut + 2 * kv;
  if (o.oBias) params += o.hidden;
  params += (o.qkNorm?.[0] ?? 0) + (o.qkNorm?.[1] ?? 0);
  if (o.sinks) params += o.heads;
  // Saved for backward (the normed input is the norm node's): q, k, v, attention output (+ gate).
  const actElems = 2 * q + 2 * kv + (o.outputGate ? q : 0);
  return { type: o.type ?? "Grouped Query Attn", params, actElems, linears };
}

/** SwiGLU (or GeGLU) MLP: gate, up, down. */
export function gatedMlp(hidden: number, inter: number, bias = false): Piece {
  const linears = [lin(hidden, inter, 2), lin(inter, hidden)];
  const params = linParams(linears) + (bias ? 2 * inter + hidden : 0);
  return { type: "SwiGLU", params, actElems: 4 * inter, linears };
}

/** Non-gated MLP (up, act, down), e.g. relu2 or GELU. */
export function plainMlp(hidden: number, inter: number, bias: boolean, type = "MLP"): Piece {
  const linears = [lin(hidden, inter), lin(inter, hidden)];
  const params = linParams(linears) + (bias ? inter + hidden : 0);
  return { type, params, actElems: 2 * inter, linears };
}

type MoeSpec = {
  hidden: number;
  experts: number;
  topK: number;
  expertInter: number;
  /** Per-expert parameters beyond the three (or two) weight matrices (biases). */
  expertExtra?: number;
  /** Two matrices per expert (up, down) instead of three (gate, up, down). */
  ungated?: boolean;
  sharedInter?: number;
  sharedGate?: boolean;
  routerBias?: boolean;
  /** e_score_correction_bias (DeepSeek/MiniMax noaux_tc routing). */
  correctionBias?: boolean;
  /** Checkpoint stores gate and up as one gate_up_proj per expert (gpt_oss, llama4, gemma4): one LoRA linear. */
  fusedGateUp?: boolean;
};

/**
 * A routed-MoE block: router + experts (+ shared expert). Activations (the input is the norm
 * node's): router logits, and for each of the top-k experts its dispatched input copy plus its
 * internals (the spec's SwiGLU 4I per expert), plus the shared expert's internals.
 */
export function moeBlock(m: MoeSpec): Piece {
  const mats = m.ungated ? 2 : 3;
  const expertParams = mats * m.hidden * m.expertInter + (m.expertExtra ?? 0);
  let params = m.experts * expertParams + m.hidden * m.experts;
  if (m.routerBias || m.correctionBias) params += m.experts;
  const inner = m.ungated ? 2 * m.expertInter : 4 * m.expertInter;
  let actElems = m.experts + m.topK * (m.hidden + inner);
  const linears: Linear[] = [
    m.fusedGateUp && !m.ungated
      ? lin(m.hidden, 2 * m.expertInter, m.experts)
      : lin(m.hidden, m.expertInter, (mats - 1) * m.experts),
    lin(m.expertInter, m.hidden, m.experts),
  ];
  const si = m.sharedInter ?? 0;
  if (si > 0) {
    const shared = m.ungated ? plainMlp(m.hidden, si, false) : gatedMlp(m.hidden, si);
    params += shared.params + (m.sharedGate ? m.hidden : 0);
    actElems += shared.actElems;
    linears.push(...shared.linears);
  }
  const moe: MoeFacts = {
    experts: m.experts,
    topK: m.topK,
    expertParams,
    expertWeights: m.experts * mats * m.hidden * m.expertInter,
    expertMatrices: m.experts * (m.fusedGateUp || m.ungated ? 2 : 3),
  };
  return { type: "MoE", params, actElems, linears, moe };
}

/** Turns a piece into a node of a repeated block. */
export function pieceNode(name: string, p: Piece, shape: number[], layer?: number): StructureNode {
  const n = makeNode(name, p.type, shape, p.params, p.actElems * ACT_BYTES, layer, p.linears);
  if (p.moe) n.moe = p.moe;
  return n;
}

/** A plain node without linears. */
export function node(
  name: string,
  type: string,
  shape: number[],
  params: number,
  actElems: number,
  layer?: number,
): StructureNode {
  return makeNode(name, type, shape, params, actElems * ACT_BYTES, layer, undefined);
}

export type LayerSpec = {
  mixer: Piece;
  ffn: Piece;
  /** Parameters of the two pre-norms (and any extra post-norms folded in). */
  norm1: number;
  norm2: number;
  normType?: string;
  mixerName?: string;
  ffnName?: string;
};

/**
 * Six nodes per pre-norm residual layer: norm, mixer, add, norm, ffn, add. Activation split as in
 * blocks.ts: norm and add outputs h each, the mixer and ffn their internals. `prefix` starts every
 * node name (a tower's "vision." for encoder blocks). Pushed onto `out`: no array per layer, as readers
 * build hundreds of layers per estimate. `shape` ([seq, hidden]) is every node's output shape: callers pass
 * one array for all their layers.
 */
export function pushResidualLayer(
  out: StructureNode[],
  l: number,
  shape: number[],
  hidden: number,
  s: LayerSpec,
  prefix = "",
): void {
  const nt = s.normType ?? "RMSNorm";
  const ffnName = s.ffnName ?? (s.ffn.type === "MoE" ? "MoE" : "FFN");
  // Names share their parts: each intermediate string is one more allocation per node.
  const tag = `_${l}`;
  const stem = `${prefix}${nt}${tag}`;
  const add = `${prefix}Add${tag}`;
  out.push(
    node(`${stem}_1`, nt, shape, s.norm1, hidden, l),
    pieceNode(`${prefix}${s.mixerName ?? "Attention"}${tag}`, s.mixer, shape, l),
    node(`${add}_attn`, "Add", shape, 0, hidden, l),
    node(`${stem}_2`, nt, shape, s.norm2, hidden, l),
    pieceNode(`${prefix}${ffnName}${tag}`, s.ffn, shape, l),
    node(`${add}_ffn`, "Add", shape, 0, hidden, l),
  );
}

/**
 * Scalars an fp8 block-quantized checkpoint stores beside these linears: one fp32 scale
 * (weight_scale_inv) per 128 x 128 block of each weight. Not parameters, but counted in stored totals.
 */
export function blockScaleScalars(linears: Linear[], block = 128): number {
  return linears.reduce((s, l) => s + Math.ceil(l.in / block) * Math.ceil(l.out / block) * l.count, 0);
}
