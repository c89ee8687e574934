/** Parameter totals from a ModelReading: a tied head's matrix is counted once (with the embedding). */
import type { ModelReading, StructureNode } from "./types.ts";

/** Parameters a node owns (0 for a head tied to the input embedding). */
export function ownParams(n: StructureNode): number {
  return n.tiedTo ? 0 : n.params;
}

type ParamTotals = { total: number; towers: Record<string, number> };

/** Total and per-tower parameter counts (scalars). */
export function countParams(r: ModelReading): ParamTotals {
  const towers: Record<string, number> = {};
  let total = 0;
  for (const t of r.towers) {
    let sum = 0;
    for (const n of t.nodes) sum += ownParams(n);
    towers[t.name] = (towers[t.name] ?? 0) + sum;
    total += sum;
  }
  return { total, towers };
}

/** LoRA adapter parameters: r x (in + out) over every adapted linear (heads carry no `linears`). */
export function loraParams(r: ModelReading, rank: number): number {
  let sum = 0;
  for (const t of r.towers) {
    for (const n of t.nodes) {
      const ls = n.linears;
      if (ls) for (const l of ls) sum += rank * (l.in + l.out) * l.count;
    }
  }
  return sum;
}
