/**
 * Memory per the spec (docs/reference/estimator-spec.md section 3), in bytes:
 *   full fine-tune  1.2 * 16 * P + b * A(s)            (+ LM-head logits, a separate breakdown part)
 *   LoRA r=16       W_base + 1.2 * 16 * P_lora + b * A(s) (+ logits)
 *   serve           W, plus b * KV(s) per sequence
 * W is the weights' real bytes (weights.ts / the headers): 2 * P for a bf16 checkpoint, the packed bytes
 * and scales for a quantized one. W_base = W for a quantized checkpoint (QLoRA keeps the frozen base
 * quantized), else 2 * P. A full fine-tune of a quantized checkpoint is costed dequantized (P in fp32
 * AdamW, as any other).
 * A(s) sums activation bytes over every tower at its own tokens; logits are s * vocab * 4 bytes (fp32)
 * and as much again for their gradient. The seed pages leave the logits out: `bytesWithoutLogits`.
 */
import { loraParams } from "./params.ts";
import type { MemoryFigure, ModelReading, TowerReading } from "./types.ts";

export const TRAIN_TOKENS = 2048;
export const SERVE_TOKENS = 4096;
export const LORA_RANK = 16;
/** Weights, gradients and AdamW state in fp32 (16 bytes per parameter) with 1.2x overhead. */
export const FULL_BYTES_PER_PARAM = 1.2 * 16;
const BF16 = 2;

export type MemoryPlan = {
  trainTokens: number;
  serveTokens: number;
  loraParams: number;
  /** Activation bytes of one sample at trainTokens (all towers). */
  activations: number;
  logits: number;
  full: MemoryFigure;
  lora: MemoryFigure;
  /** Weights only (real bytes): the part of serving that does not grow with batch. */
  serve: MemoryFigure;
  /** KV cache (or the forward working set, for models without a cache) of one sequence at serveTokens. */
  kvCache: MemoryFigure;
};

/** Tokens a tower runs on when the text runs at `text` tokens. */
export function towerTokens(t: TowerReading, text: number): number {
  const fixed = t.fixedSeq ?? (t.role === "vision" || t.role === "audio");
  return fixed ? t.seqLen : Math.min(text, t.seqLen);
}

/** Activation bytes of one sample with the text at `text` tokens. */
function activationBytes(r: ModelReading, text: number): number {
  let sum = 0;
  for (const t of r.towers) {
    const tokens = towerTokens(t, text);
    for (const n of t.nodes) sum += tokens * n.actBytesPerToken + (n.actBytesPerSample ?? 0);
  }
  return sum;
}

/**
 * KV cache bytes of one sequence of `tokens`, by layer kind (keys in first-seen order). Summed in a short
 * array, not the record: one keyed store per layer costs more than the layer's arithmetic.
 */
function kvBreakdown(r: ModelReading, tokens: number): Record<string, number> {
  const kinds: string[] = [];
  const sums: number[] = [];
  for (const l of r.kvLayers) {
    const span = l.kind === "sliding" && l.window !== undefined ? Math.min(tokens, l.window) : tokens;
    const bytes = l.kind === "linear_state" || l.kind === "cross" ? 0 : span * l.bytesPerToken;
    let i = kinds.indexOf(l.kind);
    if (i < 0) i = kinds.push(l.kind) - 1;
    sums[i] = (sums[i] ?? 0) + bytes + (l.fixedBytes ?? 0);
  }
  const out: Record<string, number> = {};
  for (let i = 0; i < kinds.length; i++) out[kinds[i]!] = sums[i]!;
  return out;
}

/** Largest single-node activation at `text` tokens: the forward working set of a model with no cache. */
function workingSet(r: ModelReading, text: number): number {
  let max = 0;
  for (const t of r.towers) {
    const tokens = towerTokens(t, text);
    for (const n of t.nodes) max = Math.max(max, tokens * n.actBytesPerToken);
  }
  return max;
}

function figure(tokens: number, batch: number, breakdown: Record<string, number>): MemoryFigure {
  let bytes = 0;
  for (const part in breakdown) bytes += breakdown[part]!;
  return { bytes, tokens, batch, breakdown };
}

function decoderTokens(r: ModelReading, cap: number): number {
  return r.contextLength === null ? cap : Math.min(cap, r.contextLength);
}

/** Training tokens per sample: 2048, or the decoder's context when shorter. */
export function trainTokensOf(r: ModelReading): number {
  return decoderTokens(r, TRAIN_TOKENS);
}

/** The weights as loaded: bytes served, and whether they are quantized (then LoRA keeps them so). */
type LoadedWeights = { bytes: number; quantized: boolean };

/**
 * The memory plan of a reading whose total parameter count is `params`. `pre`: LoRA parameters and
 * activations already computed in one pass (scan.ts); computed here when absent. `weights`: the real
 * weight bytes (default: bf16, 2 bytes per parameter).
 */
export function planMemory(
  r: ModelReading,
  params: number,
  pre?: { loraParams: number; activations: number },
  weights: LoadedWeights = { bytes: BF16 * params, quantized: false },
): MemoryPlan {
  const trainTokens = decoderTokens(r, TRAIN_TOKENS);
  const serveTokens = decoderTokens(r, SERVE_TOKENS);
  const pLora = pre ? pre.loraParams : loraParams(r, LORA_RANK);
  const activations = pre ? pre.activations : activationBytes(r, trainTokens);
  const logits = r.lmHead ? trainTokens * r.lmHead.vocab * 4 * 2 : 0;
  const full = figure(trainTokens, 1, {
    weights_grads_optimizer: FULL_BYTES_PER_PARAM * params,
    activations,
    logits,
  });
  full.bytesWithoutLogits = full.bytes - logits;
  const lora = figure(trainTokens, 1, {
    base_weights: weights.quantized ? weights.bytes : BF16 * params,
    adapters: FULL_BYTES_PER_PARAM * pLora,
    activations,
    logits,
  });
  lora.bytesWithoutLogits = lora.bytes - logits;
  const serve = figure(serveTokens, 0, { weights: weights.bytes });
  const kv = kvBreakdown(r, serveTokens);
  const kvCache =
    r.kvLayers.length > 0
      ? figure(serveTokens, 1, kv)
      : figure(serveTokens, 1, { working_set: workingSet(r, serveTokens) });
  return { trainTokens, serveTokens, loraParams: pLora, activations, logits, full, lora, serve, kvCache };
}
