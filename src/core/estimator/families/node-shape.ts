/**
 * The one object shape of a structure node. Every reader builds nodes here (or copies them with
 * `renamed`), every key present from the start: one hidden class keeps the scans over nodes
 * (scan.ts, fit.ts, estimate.ts) monomorphic, which roughly halves their time.
 */
import type { Linear, StructureNode } from "../types.ts";

/** A node with all optional keys present (undefined); `actBytes` is activation bytes per token. */
export function makeNode(
  name: string,
  type: string,
  shape: number[],
  params: number,
  actBytes: number,
  layer: number | undefined,
  linears: Linear[] | undefined,
): StructureNode {
  return {
    name,
    type,
    shape,
    params,
    actBytesPerToken: actBytes,
    layer,
    linears,
    tiedTo: undefined,
    actBytesPerSample: undefined,
    outputHead: undefined,
  };
}

/** A copy of `n` under another name, in the same shape (instead of `{ ...n, name }`). */
export function renamed(n: StructureNode, name: string): StructureNode {
  return {
    name,
    type: n.type,
    shape: n.shape,
    params: n.params,
    actBytesPerToken: n.actBytesPerToken,
    layer: n.layer,
    linears: n.linears,
    tiedTo: n.tiedTo,
    actBytesPerSample: n.actBytesPerSample,
    outputHead: n.outputHead,
  };
}
