/**
 * Weight bytes from the structure and the declared quantization, when no safetensors header is known:
 * each quantized linear at its format's bytes (packed weights, scales, zero points, indices; see
 * quantization.ts), every other parameter at the checkpoint's float dtype. `served` counts floats wider
 * than 16 bits at 2 bytes (a float32 checkpoint is served in half precision, as vLLM's dtype "auto" does).
 */
import { DTYPE_SIZE } from "./dtypes.ts";
import type { QuantSpec } from "./quantization.ts";
import type { Linear, ModelReading, StructureNode, TowerReading } from "./types.ts";

export type WeightBytes = {
  /** Bytes as served (quantized parts as stored, other floats at 2 bytes when stored wider). */
  served: number;
  /** Bytes as stored in the checkpoint's files. */
  stored: number;
  /** Stored bytes per safetensors dtype. */
  byDtype: Record<string, number>;
  /** Weight scalars stored quantized (logical count, unpacked). */
  quantizedWeights: number;
  /** Elements of the scale, zero-point, index and shape tensors beside them. */
  auxElements: number;
  /** The same elements with packed-integer ones counted at their unpacked width (32 / bits per I32). */
  auxElementsUnpacked: number;
};

/**
 * The running tally: stored bytes per dtype in two parallel arrays (a handful of dtypes, first-seen order,
 * which is the key order of `byDtype`), cheaper to update per matrix than a string-keyed record. `tape`, while
 * set, records every addition (see quantLinears).
 */
type Acc = Omit<WeightBytes, "byDtype"> & { dtypes: string[]; bytes: number[]; tape: Op[] | null };

/** One addition to the tally: `bytes` stored in dtype slot `slot` (slot >= 0), else weights and aux elements. */
type Op = { slot: number; bytes: number; weights: number; elements: number; unpacked: number };

function put(acc: Acc, dtype: string, bytes: number): void {
  let i = acc.dtypes.indexOf(dtype);
  if (i < 0) i = acc.dtypes.push(dtype) - 1;
  acc.bytes[i] = (acc.bytes[i] ?? 0) + bytes;
  acc.stored += bytes;
  acc.served += bytes;
  acc.tape?.push({ slot: i, bytes, weights: 0, elements: 0, unpacked: 0 });
}

function tally(acc: Acc, weights: number, elements: number, unpacked: number): void {
  acc.quantizedWeights += weights;
  acc.auxElements += elements;
  acc.auxElementsUnpacked += unpacked;
  acc.tape?.push({ slot: -1, bytes: 0, weights, elements, unpacked });
}

/** Makes the recorded additions again, in order: every sum comes out bit for bit the same (slots never move). */
function replay(acc: Acc, ops: Op[]): void {
  for (const op of ops) {
    if (op.slot >= 0) {
      acc.bytes[op.slot] = acc.bytes[op.slot]! + op.bytes;
      acc.stored += op.bytes;
      acc.served += op.bytes;
    } else {
      acc.quantizedWeights += op.weights;
      acc.auxElements += op.elements;
      acc.auxElementsUnpacked += op.unpacked;
    }
  }
}

function aux(acc: Acc, q: QuantSpec, dtype: string, elements: number): void {
  if (elements <= 0) return;
  put(acc, dtype, elements * (DTYPE_SIZE[dtype] ?? 1));
  tally(acc, 0, elements, dtype === "I32" && q.bits < 32 ? (elements * 32) / q.bits : elements);
}

/** Scale elements of one in x out matrix. */
function scaleCount(q: QuantSpec, inF: number, outF: number): number {
  if (q.scalePer === "block" && q.block) return Math.ceil(outF / q.block[0]) * Math.ceil(inF / q.block[1]);
  if (q.scalePer === "group" && q.groupSize) return outF * Math.ceil(inF / q.groupSize);
  if (q.scalePer === "channel") return outF;
  return 1;
}

/** Adds `count` quantized matrices of in x out. */
function quantMatrices(acc: Acc, q: QuantSpec, inF: number, outF: number, count: number): void {
  const weights = inF * outF * count;
  tally(acc, weights, 0, 0);
  put(acc, q.weightDtype, (weights * q.bits) / 8);
  if (q.method.startsWith("bitsandbytes-") && q.bits === 4) {
    const blocks = Math.ceil((inF * outF) / 64) * count;
    aux(acc, q, q.scaleDtype, blocks);
    aux(acc, q, "F32", (q.doubleQuant ? Math.ceil(blocks / count / 256) + 256 + 16 : 16) * count);
    return;
  }
  const scales = scaleCount(q, inF, outF) * count;
  aux(acc, q, q.scaleDtype, scales);
  if (q.zeros) aux(acc, q, "I32", (scales * q.bits) / 32);
  if (q.gIdx) aux(acc, q, "I32", inF * count);
  if (q.perMatrixBytes > 0) aux(acc, q, "I32", (q.perMatrixBytes / 4) * count);
}

/** Routed experts as a whole (formats that quantize only them): scales per group of the input dim. */
function quantExperts(acc: Acc, q: QuantSpec, n: StructureNode): number {
  const m = n.moe!;
  tally(acc, m.expertWeights, 0, 0);
  put(acc, q.weightDtype, (m.expertWeights * q.bits) / 8);
  const per = q.groupSize ?? (q.block ? q.block[0] * q.block[1] : 0);
  const scales = per > 0 ? m.expertWeights / per : m.expertMatrices;
  aux(acc, q, q.scaleDtype, scales);
  if (q.zeros) aux(acc, q, "I32", (scales * q.bits) / 32);
  if (q.perMatrixBytes > 0) aux(acc, q, "I32", (q.perMatrixBytes / 4) * m.expertMatrices);
  return m.expertWeights;
}

/** Node types seen so far and their part (types repeat across layers and models: one regex test each). */
const PART_OF_TYPE = new Map<string, "attention" | "mlp">();

function partOf(n: StructureNode): "attention" | "mlp" | "moe" {
  if (n.moe) return "moe";
  let part = PART_OF_TYPE.get(n.type);
  if (part === undefined) {
    part = /attn|attention|MLA/i.test(n.type) ? "attention" : "mlp";
    PART_OF_TYPE.set(n.type, part);
  }
  return part;
}

/** Recorded additions of a list of linears, and its quantized weight scalars. */
type Tape = { ops: Op[]; weights: number };

/**
 * Adds a list of linears; returns its quantized weight scalars. Layers share their lists: the first time a
 * list is seen its additions are recorded in `tapes`, later times replayed.
 */
function quantLinears(acc: Acc, q: QuantSpec, ls: Linear[] | undefined, tapes: Map<Linear[], Tape>): number {
  if (!ls) return 0;
  const seen = tapes.get(ls);
  if (seen) {
    replay(acc, seen.ops);
    return seen.weights;
  }
  const ops: Op[] = [];
  acc.tape = ops;
  let weights = 0;
  for (const l of ls) {
    if (l.unquantized) continue;
    quantMatrices(acc, q, l.in, l.out, l.count);
    weights += l.in * l.out * l.count;
  }
  acc.tape = null;
  tapes.set(ls, { ops, weights });
  return weights;
}

/** Weight scalars of `n` stored quantized (their bytes added to `acc`). */
function quantizedPart(acc: Acc, q: QuantSpec, n: StructureNode, tapes: Map<Linear[], Tape>): number {
  if (n.tiedTo || (!n.linears && !n.storedLinears && !n.moe)) return 0;
  const part = partOf(n);
  if (part === "moe" && (q.expertsOnly || q.exclude.has("shared"))) return quantExperts(acc, q, n);
  if (q.expertsOnly || (part !== "moe" && q.exclude.has(part))) return 0;
  return quantLinears(acc, q, n.linears, tapes) + quantLinears(acc, q, n.storedLinears, tapes);
}

function towerQuantized(t: TowerReading, q: QuantSpec): boolean {
  const side = t.role === "vision" || t.role === "audio" || t.role === "projector";
  // Only bitsandbytes quantizes every nn.Linear; the other formats quantize the language model.
  return !side || (q.method.startsWith("bitsandbytes") && !q.exclude.has("towers"));
}

/**
 * Weight bytes of a reading whose parameter total is `total` (tied head once), at `dtype` (the checkpoint's
 * float dtype), quantized per `q` when given.
 */
export function weightBytes(r: ModelReading, q: QuantSpec | null, dtype: string, total: number): WeightBytes {
  const acc: Acc = {
    served: 0,
    stored: 0,
    dtypes: [],
    bytes: [],
    quantizedWeights: 0,
    auxElements: 0,
    auxElementsUnpacked: 0,
    tape: null,
  };
  let plain = total;
  if (q !== null) {
    const tapes = new Map<Linear[], Tape>();
    for (const t of r.towers) {
      if (!towerQuantized(t, q)) continue;
      for (const n of t.nodes) plain -= quantizedPart(acc, q, n, tapes);
    }
  }
  const size = DTYPE_SIZE[dtype] ?? 2;
  const byDtype: Record<string, number> = {};
  for (let i = 0; i < acc.dtypes.length; i++) byDtype[acc.dtypes[i]!] = acc.bytes[i]!;
  byDtype[dtype] = (byDtype[dtype] ?? 0) + plain * size;
  const { dtypes: _d, bytes: _b, tape: _t, ...sums } = acc;
  return {
    ...sums,
    byDtype,
    stored: acc.stored + plain * size,
    served: acc.served + plain * Math.min(size, 2),
  };
}
