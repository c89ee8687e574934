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

/**
 * The same Gated DeltaNet as Qwen3-Next stores it (modeling_qwen3_next.py): q, k, v and z in one
 * in_proj_qkvz (h -> 2 nk dk + 2 nv dv) and b, a in one in_proj_ba (h -> 2 nv). Same parameters as
 * gatedDeltaNet; LoRA sees the fused linears.
 */
export function gatedDeltaNetFused(s: GdnSpec): Piece {
  const p = gatedDeltaNet(s);
  const valueDim = s.vHeads * s.vDim;
  const qkvz = 2 * s.kHeads * s.kDim + 2 * valueDim;
  p.linears = [lin(s.hidden, qkvz), lin(s.hidden, 2 * s.vHeads), lin(valueDim, s.hidden)];
  return p;
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
  /** Gated RMSNorm over I before out_proj (absent: true; Falcon-H1's mamba_rms_norm may turn it off). */
  gatedNorm?: boolean;
  /** Bias on out_proj when it differs from in_proj's (Falcon-H1: projectors_bias). Absent: projBias. */
  outBias?: boolean;
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
  const norm = s.gatedNorm === false ? 0 : inner;
  let params = linParams(linears) + convDim * s.kernel + 3 * s.heads + norm;
  if (s.convBias) params += convDim;
  if (s.projBias) params += projOut;
  if (s.outBias ?? s.projBias) params += s.hidden;
  const actElems = projOut + 2 * convDim + 3 * inner;
  return { type: "Mamba2", params, actElems, linears };
}

/** The constant per-sequence state of a Mamba2 layer: SSM state + conv window. */
export function mambaState(s: MambaSpec): KvLayer {
  const convDim = s.heads * s.headDim + 2 * s.groups * s.state;
  const fixedBytes = s.heads * s.headDim * s.state * s.stateBytes + convDim * (s.kernel - 1) * 2;
  return { kind: "linear_state", bytesPerToken: 0, fixedBytes };
}

export type Mamba1Spec = {
  hidden: number;
  /** d_inner = expand x hidden. */
  inner: number;
  state: number;
  kernel: number;
  dtRank: number;
  convBias: boolean;
  projBias: boolean;
  /** Jamba's dt_layernorm (dt_rank), b_layernorm and c_layernorm (state each). */
  innerNorms: boolean;
  stateBytes: number;
};

/**
 * Mamba (v1) selective-scan mixer (modeling_mamba.py MambaMixer, modeling_jamba.py JambaMambaMixer):
 * in_proj (h -> 2 I), depthwise conv1d over I, x_proj (I -> dt_rank + 2 state, no bias), dt_proj
 * (dt_rank -> I, with bias), A_log (I x state), D (I), out_proj (I -> h).
 */
export function mamba1(s: Mamba1Spec): Piece {
  const I = s.inner;
  const xOut = s.dtRank + 2 * s.state;
  const linears = [lin(s.hidden, 2 * I), lin(I, xOut), lin(s.dtRank, I), lin(I, s.hidden)];
  let params = linParams(linears) + I + I * s.kernel + I * s.state + I;
  if (s.convBias) params += I;
  if (s.projBias) params += 2 * I + s.hidden;
  if (s.innerNorms) params += s.dtRank + 2 * s.state;
  // Saved: in_proj output, conv output and its activation, x_proj output, dt, scan output, gated output.
  const actElems = 2 * I + 2 * I + xOut + I + 2 * I;
  return { type: "Mamba", params, actElems, linears };
}

/** The constant per-sequence state of a Mamba (v1) layer: SSM state (I x state) + conv window. */
export function mamba1State(s: Mamba1Spec): KvLayer {
  const fixedBytes = s.inner * s.state * s.stateBytes + s.inner * (s.kernel - 1) * 2;
  return { kind: "linear_state", bytesPerToken: 0, fixedBytes };
}
