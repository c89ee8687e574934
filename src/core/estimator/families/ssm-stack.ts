/**
 * Towers of state-space / hybrid decoders whose layers are not the usual six-node pre-norm block:
 * a pure mixer stack (norm, mixer, add per layer: Mamba, Mamba2) and the frame around it.
 */
import type { StructureNode, TowerReading } from "../types.ts";
import { outputHead } from "./moe-frame.ts";
import { node, type Piece, pieceNode } from "./moe-parts.ts";

/** Three nodes per layer: RMSNorm, the mixer, the residual add. */
function mixerLayer(l: number, shape: number[], hidden: number, p: Piece, name: string): StructureNode[] {
  return [
    node(`RMSNorm_${l}`, "RMSNorm", shape, hidden, hidden, l),
    pieceNode(`${name}_${l}`, p, shape, l),
    node(`Add_${l}`, "Add", shape, 0, hidden, l),
  ];
}

/** Embedding (no positions: state-space models carry order in their recurrence), layers, final norm, LM head. */
export function mixerTower(o: {
  seq: number;
  hidden: number;
  vocab: number;
  tied: boolean;
  layers: number;
  piece: Piece;
  name: string;
}): TowerReading {
  const shape = [o.seq, o.hidden];
  const nodes: StructureNode[] = [node("Embedding", "Embedding", shape, o.vocab * o.hidden, 0)];
  for (let l = 1; l <= o.layers; l++) {
    for (const n of mixerLayer(l, shape, o.hidden, o.piece, o.name)) nodes.push(n);
  }
  const head = outputHead({
    seq: o.seq,
    hidden: o.hidden,
    vocab: o.vocab,
    tied: o.tied,
    finalNorm: o.hidden,
  });
  for (const n of head) nodes.push(n);
  return { name: "text", role: "decoder", seqLen: o.seq, nodes };
}
