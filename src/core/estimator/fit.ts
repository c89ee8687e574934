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
export const HEADROOM = 1.15;
export const PEAK_FACTOR = 1.43;
export const FIT_MODES: readonly FitMode[] = ["full_finetune", "lora", "serve"];

/** A mode's estimate as fixed + b * perSample bytes. */
export type ModeCost = { fixed: number; perSample: number };

/** Fixed and per-sample bytes per mode. Training excludes logits unless `withLogits` (the seed rules). */
export function modeCosts(m: MemoryPlan, withLogits: boolean): Record<FitMode, ModeCost> {
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
 * Greedy two-card cut of a full fine-tune at batch 1: [layers on card 1, layers on card 2], output-head
 * nodes not counted; null when the rest does not fit the second card either.
 */
export function twoCardSplit(r: ModelReading, trainTokens: number, usable: number): number[] | null {
  const costs: { bytes: number; counts: boolean }[] = [];
  for (const t of r.towers) {
    const tokens = towerTokens(t, trainTokens);
    for (const n of t.nodes) {
      const bytes =
        FULL_BYTES_PER_PARAM * ownParams(n) + tokens * n.actBytesPerToken + (n.actBytesPerSample ?? 0);
      costs.push({ bytes, counts: !n.outputHead });
    }
  }
  let used = 0;
  let i = 0;
  while (i < costs.length && used + costs[i]!.bytes <= usable) used += costs[i++]!.bytes;
  if (i === 0) return null;
  let rest = 0;
  for (let j = i; j < costs.length; j++) rest += costs[j]!.bytes;
  if (rest > usable) return null;
  const first = costs.slice(0, i).filter((c) => c.counts).length;
  const second = costs.slice(i).filter((c) => c.counts).length;
  return [first, second];
}

function cell(
  card: string,
  capacityGb: number,
  mode: FitMode,
  c: ModeCost,
  split: () => number[] | null,
): FitRow {
  const usable = (capacityGb * 1e9) / HEADROOM;
  const one = c.fixed + c.perSample;
  const base = { card, capacityGb, mode };
  if (one <= usable) {
    const batch = c.perSample > 0 ? Math.floor((usable - c.fixed) / c.perSample) : 1;
    const borderline = one * PEAK_FACTOR > usable;
    const verdict = borderline ? "borderline" : "fits";
    return {
      ...base,
      verdict,
      batch,
      split: null,
      text: borderline ? `batch ${batch}, borderline` : `batch ${batch}`,
    };
  }
  const cut = mode === "full_finetune" ? split() : null;
  if (cut) {
    return {
      ...base,
      verdict: "cards",
      batch: 0,
      split: cut,
      text: `2 cards at batch 1 (${cut[0]} + ${cut[1]} layers)`,
    };
  }
  return { ...base, verdict: "does_not_fit", batch: 0, split: null, text: "does not fit at batch 1" };
}

/** The card table: one row per (card, mode). */
export function fitTable(r: ModelReading, m: MemoryPlan, withLogits = false): FitRow[] {
  const costs = modeCosts(m, withLogits);
  const rows: FitRow[] = [];
  for (const { card, capacityGb } of CARDS) {
    const usable = (capacityGb * 1e9) / HEADROOM;
    for (const mode of FIT_MODES) {
      rows.push(cell(card, capacityGb, mode, costs[mode], () => twoCardSplit(r, m.trainTokens, usable)));
    }
  }
  return rows;
}
