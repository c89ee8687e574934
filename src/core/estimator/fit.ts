/**
 * Fit verdicts per card (spec section 4). Usable = capacity / 1.15; batch = floor((usable - fixed) / per_sample);
 * "borderline" when estimate(b=1) * 1.43 > usable; a full fine-tune that one card cannot hold at batch 1 is cut
 * contiguously over the node list, filling the first card greedily (pipeline parallel); LoRA and serving are
 * not split (as on the seed pages).
 */
import { FULL_BYTES_PER_PARAM, type MemoryPlan, towerTokens } from "./memory.ts";
import { ownParams } from "./params.ts";
import type { FitMode, FitRow, ModelReading } from "./types.ts";

export const CARDS = [
  { card: "T4 16 GB", capacityGb: 16 },
  { card: "L4 24 GB", capacityGb: 24 },
  { card: "A100 40 GB", capacityGb: 40 },
  { card: "A100 / H100 80 GB", capacityGb: 80 },
  { card: "H200 141 GB", capacityGb: 141 },
] as const;
const HEADROOM = 1.15;
const PEAK_FACTOR = 1.43;
const FIT_MODES: readonly FitMode[] = ["full_finetune", "lora", "serve"];

/** A mode's estimate as fixed + b * perSample bytes. */
type ModeCost = { fixed: number; perSample: number };

/** Fixed and per-sample bytes per mode. Training excludes logits unless `withLogits` (the seed rules). */
function modeCosts(m: MemoryPlan, withLogits: boolean): Record<FitMode, ModeCost> {
  const logits = withLogits ? m.logits : 0;
  return {
    full_finetune: {
      fixed: m.full.breakdown.weights_grads_optimizer ?? 0,
      perSample: m.activations + logits,
    },
    lora: {
      fixed: (m.lora.breakdown.base_weights ?? 0) + (m.lora.breakdown.adapters ?? 0),
      perSample: m.activations + logits,
    },
    serve: { fixed: m.serve.bytes, perSample: m.kvCache.bytes },
  };
}

/**
 * Full fine-tune bytes of each node at batch 1 (seed rules: no logits), in node order, and the layer each
 * belongs to (`units`: one id per tower and layer; -1 for nodes outside the repeated blocks: embeddings,
 * the output head). Plain arrays: typed arrays of this size cost more to allocate than they save here.
 */
export type NodeCosts = { bytes: number[]; units: number[] };

/** The layer id of a node: tower and layer index, or -1 outside the repeated blocks. */
export function layerUnit(tower: number, layer: number | undefined, outputHead: boolean | undefined): number {
  return layer === undefined || outputHead ? -1 : tower * 1_000_000 + layer;
}

export function nodeCosts(r: ModelReading, trainTokens: number): NodeCosts {
  const bytes: number[] = [];
  const units: number[] = [];
  r.towers.forEach((t, ti) => {
    const tokens = towerTokens(t, trainTokens);
    for (const n of t.nodes) {
      bytes.push(
        FULL_BYTES_PER_PARAM * ownParams(n) + tokens * n.actBytesPerToken + (n.actBytesPerSample ?? 0),
      );
      units.push(layerUnit(ti, n.layer, n.outputHead));
    }
  });
  return { bytes, units };
}

/** Distinct layers among nodes [from, to) (a layer's nodes are contiguous). */
function layersIn(units: number[], from: number, to: number): number {
  let n = 0;
  for (let j = from; j < to; j++) if (units[j]! !== -1 && (j === from || units[j] !== units[j - 1])) n++;
  return n;
}

/**
 * Greedy two-card cut of a full fine-tune at batch 1, between layers (pipeline stages hold whole layers):
 * [layers on card 1, layers on card 2], null when the rest does not fit the second card either.
 */
export function twoCardSplit(c: NodeCosts, usable: number): number[] | null {
  const n = c.bytes.length;
  const u = c.units;
  let used = 0;
  let i = 0;
  while (i < n && used + c.bytes[i]! <= usable) used += c.bytes[i++]!;
  // Back off to the start of the layer the cut fell in.
  while (i > 0 && i < n && u[i]! !== -1 && u[i] === u[i - 1]) i--;
  if (i === 0) return null;
  let rest = 0;
  for (let j = i; j < n; j++) rest += c.bytes[j]!;
  return rest > usable ? null : [layersIn(u, 0, i), layersIn(u, i, n)];
}

function row(
  card: string,
  capacityGb: number,
  mode: FitMode,
  verdict: FitRow["verdict"],
  batch: number,
  split: number[] | null,
  text: string,
): FitRow {
  return { card, capacityGb, mode, verdict, batch, split, text };
}

/** Where a full fine-tune's two-card cut reads its per-node costs: computed once, on the first cut asked for. */
type SplitSource = { r: ModelReading | null; trainTokens: number; costs: NodeCosts | undefined };

/** No structure, so no split (weights-only and GGUF rows). */
export const NO_SPLIT: SplitSource = { r: null, trainTokens: 0, costs: undefined };

function splitOf(s: SplitSource, usable: number): number[] | null {
  if (s.r === null) return null;
  s.costs ??= nodeCosts(s.r, s.trainTokens);
  return twoCardSplit(s.costs, usable);
}

/** One card's verdict for one mode's cost (a full fine-tune may split over two cards when `split` has a structure). */
export function cell(
  card: string,
  capacityGb: number,
  mode: FitMode,
  c: ModeCost,
  split: SplitSource,
): FitRow {
  const usable = (capacityGb * 1e9) / HEADROOM;
  const one = c.fixed + c.perSample;
  if (one <= usable) {
    const batch = c.perSample > 0 ? Math.floor((usable - c.fixed) / c.perSample) : 1;
    if (one * PEAK_FACTOR > usable)
      return row(card, capacityGb, mode, "borderline", batch, null, `batch ${batch}, borderline`);
    return row(card, capacityGb, mode, "fits", batch, null, `batch ${batch}`);
  }
  const cut = mode === "full_finetune" ? splitOf(split, usable) : null;
  if (cut)
    return row(card, capacityGb, mode, "cards", 0, cut, `2 cards at batch 1 (${cut[0]} + ${cut[1]} layers)`);
  return row(card, capacityGb, mode, "does_not_fit", 0, null, "does not fit at batch 1");
}

/**
 * The serving rows when only the weights are known (no structure: no KV cache): the verdict of the weights
 * alone on each card, saying so.
 */
export function weightsOnlyServeRows(weightBytes: number): FitRow[] {
  return CARDS.map(({ card, capacityGb }) => {
    const r = cell(card, capacityGb, "serve", { fixed: weightBytes, perSample: 0 }, NO_SPLIT);
    if (r.verdict === "does_not_fit") return r;
    const borderline = r.verdict === "borderline" ? ", borderline" : "";
    return { ...r, text: `weights fit${borderline} (KV cache unknown)` };
  });
}

/** The card table: one row per (card, mode). `costs`: per-node split costs when already computed (scan.ts). */
export function fitTable(r: ModelReading, m: MemoryPlan, withLogits = false, costs?: NodeCosts): FitRow[] {
  const modes = modeCosts(m, withLogits);
  const rows: FitRow[] = [];
  const split: SplitSource = { r, trainTokens: m.trainTokens, costs };
  for (const { card, capacityGb } of CARDS) {
    for (const mode of FIT_MODES) rows.push(cell(card, capacityGb, mode, modes[mode], split));
  }
  return rows;
}
