/**
 * The one object shape of a structure node. Every reader builds its nodes here, every key present
 * from the start: one hidden class keeps the passes over nodes (scan.ts, fit.ts, estimate.ts)
 * monomorphic. Build nodes with their final name: a `{ ...n, name }` copy leaves that shape.
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
    moe: undefined,
    storedLinears: undefined,
  };
}
