/**
 * One pass over every structure node for what estimate() needs from them: parameter totals per tower (tied
 * head once), active parameters, LoRA adapter parameters, activation bytes per sample, the per-node full
 * fine-tune costs for a two-card split, the structure rows of the JSON, and a finiteness check. Same numbers
 * as params.ts / memory.ts / fit.ts, computed once.
 */
import { EstimatorInputError } from "./config-view.ts";
import type { StructureJson } from "./estimate-json.ts";
import { layerUnit, type NodeCosts } from "./fit.ts";
import { FULL_BYTES_PER_PARAM, LORA_RANK, towerTokens } from "./memory.ts";
import type { ModelReading, StructureNode, TowerReading } from "./types.ts";

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
  /** The estimate's `structure`: one row per node, in order. */
  rows: StructureJson[];
};

/** The running sums of a scan, and the next free slot of its cost arrays. */
type ScanState = {
  lora: number;
  activations: number;
  idle: number;
  at: number;
  costs: NodeCosts;
  rows: StructureJson[];
};

/** A node's row in the JSON `structure`: every key present (undefined ones vanish from the JSON), one shape. */
function rowOf(n: StructureNode, params: number, tower: string): StructureJson {
  return { name: n.name, type: n.type, shape: n.shape, params, tower, tied_to: n.tiedTo, layer: n.layer };
}

/** Scans tower `ti` at `tokens` into `s` (its sums kept in locals meanwhile); returns its parameters (tied head once). */
function scanTower(s: ScanState, t: TowerReading, ti: number, tokens: number): number {
  const nodes = t.nodes;
  const { bytes, units } = s.costs;
  const rows = s.rows;
  let { lora, activations, idle, at } = s;
  let sum = 0;
  let checked: number[] | null = null;
  for (let k = 0; k < nodes.length; k++) {
    const n = nodes[k]!;
    const own = n.tiedTo ? 0 : n.params;
    const act = tokens * n.actBytesPerToken + (n.actBytesPerSample ?? 0);
    let ok = Number.isFinite(n.params) && Number.isFinite(act);
    // Layers share shape arrays: each array is checked once.
    const shape = n.shape;
    if (shape !== checked) for (let j = 0; j < shape.length; j++) ok &&= Number.isFinite(shape[j]);
    if (!ok) throw new EstimatorInputError(`(structure).${n.name}`, "derived a non-finite number");
    checked = shape;
    sum += own;
    activations += act;
    const ls = n.linears;
    if (ls) for (let j = 0; j < ls.length; j++) lora += LORA_RANK * (ls[j]!.in + ls[j]!.out) * ls[j]!.count;
    rows[at] = rowOf(n, own, t.name);
    bytes[at] = FULL_BYTES_PER_PARAM * own + act;
    units[at++] = layerUnit(ti, n.layer, n.outputHead);
    const m = n.moe;
    if (m) idle += (m.experts - m.topK) * m.expertParams;
  }
  s.lora = lora;
  s.activations = activations;
  s.idle = idle;
  s.at = at;
  return sum;
}

/** Scans a reading at `trainTokens`; throws EstimatorInputError naming the first node with a non-finite number. */
export function scanNodes(r: ModelReading, trainTokens: number): NodeScan {
  let count = 0;
  for (const t of r.towers) count += t.nodes.length;
  // Sized once: grown by push, these arrays would be copied several times per estimate.
  const costs: NodeCosts = { bytes: new Array<number>(count), units: new Array<number>(count) };
  const rows = new Array<StructureJson>(count);
  const s: ScanState = { lora: 0, activations: 0, idle: 0, at: 0, costs, rows };
  const towers: Record<string, number> = {};
  let total = 0;
  for (let ti = 0; ti < r.towers.length; ti++) {
    const t = r.towers[ti]!;
    const sum = scanTower(s, t, ti, towerTokens(t, trainTokens));
    towers[t.name] = (towers[t.name] ?? 0) + sum;
    total += sum;
    if (t.role === "head") s.idle += sum;
  }
  const active = total - s.idle;
  return { total, active, towers, loraParams: s.lora, activations: s.activations, costs, rows };
}
