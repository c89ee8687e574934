/**
 * Linear-attention / state-space mixers for hybrid decoders: Qwen3.5's Gated DeltaNet and the
 * Mamba2 mixer of nemotron_h. Their caches are a constant state per sequence (KvLayer "linear_state").
 */
import type { KvLayer } from "../types.ts";
import { lin, linParams, type Piece } from "./moe-parts.ts";

export type GdnSpec = {
  hidden: number;
  kHeads: number;
  vHeads: number;
  kDim: number;
  vDim: number;
  kernel: number;
  /** Bytes per element of the recurrent state (config mamba_ssm_dtype; float32 -> 4). */
  stateBytes: number;
};

/**
 * Gated DeltaNet (modeling_qwen3_5.py): in_proj_qkv (h -> 2 nk dk + nv dv), in_proj_z (h -> nv dv),
 * in_proj_b and in_proj_a (h -> nv), depthwise conv1d over the qkv channels (no bias), dt_bias and
 * A_log (nv), a gated RMSNorm over dv, out_proj (nv dv -> h).
 */
export function gatedDeltaNet(s: GdnSpec): Piece {
  const keyDim = s.kHeads * s.kDim;
  const valueDim = s.vHeads * s.vDim;
  const convDim = 2 * keyDim + valueDim;
  const linears = [
    lin(s.hidden, convDim),
    lin(s.hidden, valueDim),
    lin(s.hidden, s.vHeads, 2),
    lin(valueDim, s.hidden),
  ];
  const params = linParams(linears) + convDim * s.kernel + 2 * s.vHeads + s.vDim;
  // Saved: projections, conv output and its activation, core output, norm and gate outputs.
  const actElems = convDim + valueDim + 2 * s.vHeads + 2 * convDim + 3 * valueDim;
  return { type: "Gated DeltaNet", params, actElems, linears };
}

/** The constant per-sequence state of a Gated DeltaNet layer: recurrent state + conv window. */
export function gdnState(s: GdnSpec): KvLayer {
  const convDim = 2 * s.kHeads * s.kDim + s.vHeads * s.vDim;
  const fixedBytes = s.vHeads * s.kDim * s.vDim * s.stateBytes + convDim * (s.kernel - 1) * 2;
  return { kind: "linear_state", bytesPerToken: 0, fixedBytes };
}

export type MambaSpec = {
  hidden: number;
  heads: number;
  headDim: number;
  groups: number;
  state: number;
  kernel: number;
  convBias: boolean;
  projBias: boolean;
  stateBytes: number;
};

/**
 * Mamba2 mixer (modeling_nemotron_h.py): in_proj (h -> 2 I + 2 groups state + heads) with
 * I = heads x head_dim, depthwise conv1d over I + 2 groups state channels (bias), dt_bias, A_log, D
 * (heads each), gated RMSNorm over I, out_proj (I -> h).
 */
export function mamba2(s: MambaSpec): Piece {
  const inner = s.heads * s.headDim;
  const convDim = inner + 2 * s.groups * s.state;
  const projOut = 2 * inner + 2 * s.groups * s.state + s.heads;
  const linears = [lin(s.hidden, projOut), lin(inner, s.hidden)];
  let params = linParams(linears) + convDim * s.kernel + 3 * s.heads + inner;
  if (s.convBias) params += convDim;
  if (s.projBias) params += projOut + s.hidden;
  const actElems = projOut + 2 * convDim + 3 * inner;
  return { type: "Mamba2", params, actElems, linears };
}

/** The constant per-sequence state of a Mamba2 layer: SSM state + conv window. */
export function mambaState(s: MambaSpec): KvLayer {
  const convDim = s.heads * s.headDim + 2 * s.groups * s.state;
  const fixedBytes = s.heads * s.headDim * s.state * s.stateBytes + convDim * (s.kernel - 1) * 2;
  return { kind: "linear_state", bytesPerToken: 0, fixedBytes };
}
