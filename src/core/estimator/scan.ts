/**
 * One pass over every structure node for what estimate() needs from them: parameter totals per tower (tied
 * head once), active parameters, LoRA adapter parameters, activation bytes per sample, the per-node full
 * fine-tune costs for a two-card split, and a finiteness check. Same numbers as params.ts / memory.ts /
 * fit.ts, computed once.
 */
import { EstimatorInputError } from "./config-view.ts";
import { layerUnit, type NodeCosts } from "./fit.ts";
import { FULL_BYTES_PER_PARAM, LORA_RANK, towerTokens } from "./memory.ts";
import type { ModelReading } from "./types.ts";

export type NodeScan = {
  total: number;
  /**
   * Parameters one token runs through: the total less the routed experts it is not sent to ((experts - top-k)
   * x expert parameters per MoE node) and less the towers that do not run per token (MTP modules).
   */
  active: number;
  towers: Record<string, number>;
  loraParams: number;
  /** Activation bytes of one sample at trainTokens. */
  activations: number;
  costs: NodeCosts;
};

/** Scans a reading at `trainTokens`; throws EstimatorInputError naming the first node with a non-finite number. */
export function scanNodes(r: ModelReading, trainTokens: number): NodeScan {
  let count = 0;
  for (const t of r.towers) count += t.nodes.length;
  // Sized once: grown by push, these arrays would be copied several times per estimate.
  const costs: NodeCosts = { bytes: new Array<number>(count), units: new Array<number>(count) };
  let at = 0;
  // Imported bindings read once: a module's exports may be accessors, too dear to call per node.
  const rank = LORA_RANK;
  const perParam = FULL_BYTES_PER_PARAM;
  const unitOf = layerUnit;
  const towers: Record<string, number> = {};
  let total = 0;
  let idle = 0;
  let lora = 0;
  let activations = 0;
  for (let ti = 0; ti < r.towers.length; ti++) {
    const t = r.towers[ti]!;
    const tokens = towerTokens(t, trainTokens);
    const nodes = t.nodes;
    let sum = 0;
    for (let k = 0; k < nodes.length; k++) {
      const n = nodes[k]!;
      const own = n.tiedTo ? 0 : n.params;
      const act = tokens * n.actBytesPerToken + (n.actBytesPerSample ?? 0);
      const shape = n.shape;
      let ok = Number.isFinite(n.params) && Number.isFinite(act);
      for (let j = 0; j < shape.length; j++) ok &&= Number.isFinite(shape[j]);
      if (!ok) throw new EstimatorInputError(`(structure).${n.name}`, "derived a non-finite number");
      sum += own;
      activations += act;
      const ls = n.linears;
      if (ls) for (let j = 0; j < ls.length; j++) lora += rank * (ls[j]!.in + ls[j]!.out) * ls[j]!.count;
      costs.bytes[at] = perParam * own + act;
      costs.units[at++] = unitOf(ti, n.layer, n.outputHead);
      const m = n.moe;
      if (m) idle += (m.experts - m.topK) * m.expertParams;
    }
    towers[t.name] = (towers[t.name] ?? 0) + sum;
    total += sum;
    if (t.role === "head") idle += sum;
  }
  return { total, active: total - idle, towers, loraParams: lora, activations, costs };
}
