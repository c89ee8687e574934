/**
 * Vision (and Whisper-like audio) encoder towers for the multimodal readers: a patch or conv front
 * end, N pre-norm transformer blocks, a final norm and any merger/projector nodes after them.
 * Encoders run at their own sequence length (patches of one default image, or audio positions).
 */
import { EstimatorInputError } from "../config-view.ts";
import type { StructureNode, TowerReading, TowerRole } from "../types.ts";
import { append } from "./blocks.ts";
import { gatedMlp, gqaAttention, node, type Piece, plainMlp, pushResidualLayer } from "./moe-parts.ts";

type EncoderSpec = {
  name: string;
  role: TowerRole;
  /** Tokens the blocks run on (patches of one image, audio positions). */
  seq: number;
  hidden: number;
  inter: number;
  heads: number;
  layers: number;
  /** Attention q/k/v/o biases (most ViTs: true). */
  bias: boolean;
  mlpBias: boolean;
  /** Gated (SwiGLU/GeGLU) MLP instead of fc1 -> act -> fc2. */
  gatedMlp?: boolean;
  /** LayerNorm (weight + bias) or RMSNorm (weight only). */
  norm: "LayerNorm" | "RMSNorm";
  /** Extra per-layer parameters (per-head q/k norms, sandwich norms...). */
  extraPerLayer?: number;
  /** Nodes before the blocks (input, patch embed, position embedding). */
  front: StructureNode[];
  /** Whether a final norm follows the blocks. */
  finalNorm: boolean;
  /** Nodes after the blocks (mergers, projectors). */
  back: StructureNode[];
  headDim?: number;
  kvHeads?: number;
  /** Checkpoint stores q, k and v as one qkv linear (Qwen3-VL, MoonViT): one LoRA linear. */
  fusedQkv?: boolean;
};

function normParams(kind: "LayerNorm" | "RMSNorm", width: number): number {
  return kind === "LayerNorm" ? 2 * width : width;
}

/** One encoder block as the two pieces of a residual layer. */
function encoderPieces(s: EncoderSpec): { attn: Piece; mlp: Piece } {
  const headDim = s.headDim ?? s.hidden / s.heads;
  if (!Number.isInteger(headDim)) {
    throw new EstimatorInputError(
      `${s.name}.hidden_size`,
      `${s.hidden} is not divisible by ${s.heads} heads`,
    );
  }
  const attn = gqaAttention({
    hidden: s.hidden,
    heads: s.heads,
    kvHeads: s.kvHeads ?? s.heads,
    headDim,
    bias: s.bias,
    oBias: s.bias,
    type: "Self Attention",
  });
  attn.params += s.extraPerLayer ?? 0;
  if (s.fusedQkv) {
    const q = s.heads * headDim;
    const kv = (s.kvHeads ?? s.heads) * headDim;
    attn.linears = [
      { in: s.hidden, out: q + 2 * kv, count: 1 },
      { in: q, out: s.hidden, count: 1 },
    ];
  }
  const mlp = s.gatedMlp
    ? gatedMlp(s.hidden, s.inter, s.mlpBias)
    : plainMlp(s.hidden, s.inter, s.mlpBias, "GELU MLP");
  return { attn, mlp };
}

/** The whole encoder tower. Layer indices are local to the tower. */
export function encoderTower(s: EncoderSpec): TowerReading {
  const { attn, mlp } = encoderPieces(s);
  const n = normParams(s.norm, s.hidden);
  const nodes: StructureNode[] = [...s.front];
  const spec = { mixer: attn, ffn: mlp, norm1: n, norm2: n, normType: s.norm };
  const prefix = `${s.name}.`;
  const shape = [s.seq, s.hidden];
  for (let l = 1; l <= s.layers; l++) pushResidualLayer(nodes, l, shape, s.hidden, spec, prefix);
  if (s.finalNorm) nodes.push(node(`${s.name}.${s.norm}_final`, s.norm, shape, n, s.hidden));
  append(nodes, s.back);
  return { name: s.name, role: s.role, seqLen: s.seq, nodes };
}

/** Patches of one side x side image at the patch size (224 when the config names no size). */
export function imagePatches(side: number, patch: number): number {
  const per = Math.floor(side / patch);
  return per * per;
}

/**
 * Patch merger: a norm, then fc1 (in -> mid, bias), act, fc2 (mid -> out, bias). Used by Qwen3-VL's
 * merger and deepstack mergers and by Kimi's patchmerger projector.
 */
export function mergerNode(o: {
  name: string;
  tokens: number;
  normWidth: number;
  normKind: "LayerNorm" | "RMSNorm";
  inF: number;
  mid: number;
  out: number;
}): StructureNode {
  const params = normParams(o.normKind, o.normWidth) + o.inF * o.mid + o.mid + o.mid * o.out + o.out;
  // Per merged token: normed input, fc1 output, activation output.
  const act = o.inF + 2 * o.mid;
  const n = node(o.name, "Patch Merger", [o.tokens, o.out], params, act);
  n.linears = [
    { in: o.inF, out: o.mid, count: 1 },
    { in: o.mid, out: o.out, count: 1 },
  ];
  return n;
}

/** Conv/linear patch embedding from in-values per patch to hidden (with bias). */
export function patchEmbedNode(
  name: string,
  seq: number,
  perPatch: number,
  hidden: number,
  bias = true,
): StructureNode {
  return node(name, "Patch Embed", [seq, hidden], perPatch * hidden + (bias ? hidden : 0), hidden);
}
