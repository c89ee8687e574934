/**
 * granitemoe, granitemoeshared and granitemoehybrid (transformers modeling_granitemoe.py,
 * modeling_granitemoeshared.py, modeling_granitemoehybrid.py and their configuration files; Granite 3.x
 * MoE, PowerMoE, Granite 4.0 H). Every layer: RMSNorm, a mixer, RMSNorm, a feed-forward.
 * - Attention (GraniteMoeAttention): q/k/v/o of width heads x (hidden / heads), bias per `attention_bias`.
 * - MoE (GraniteMoeMoE): router `layer` (h -> E, no bias) and ParallelExperts input_linear (E x h -> 2I,
 *   gate and up fused) and output_linear (E x I -> h), I = `intermediate_size`.
 * - Shared MLP (GraniteMoeSharedMLP, when `shared_intermediate_size` > 0): input_linear (h -> 2S) and
 *   output_linear (S -> h), beside the experts; granitemoehybrid always builds it, and it is the whole
 *   feed-forward when `num_local_experts` is 0.
 * - Mamba2 mixer (granitemoehybrid's GraniteMoeHybridMambaLayer = BambaMixer) on layers whose
 *   `layer_types` entry is "mamba": in_proj, conv1d, dt_bias, A_log, D, gated RMSNorm, out_proj.
 * The multipliers (embedding, residual, attention, logits) do not change counts.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { type MambaSpec, mamba2, mambaState } from "./hybrid-parts.ts";
import { fullKv, layerTypesOf, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, lin, moeBlock, type Piece } from "./moe-parts.ts";
import { type TextDims, textDims } from "./qwen3-moe.ts";

/** Granite's fused shared MLP: one input_linear h -> 2S for gate and up. */
function sharedMlp(hidden: number, inter: number): Piece {
  const p = gatedMlp(hidden, inter);
  p.linears = [lin(hidden, 2 * inter), lin(inter, hidden)];
  return p;
}

/** The feed-forward of a Granite MoE layer: experts (+ shared MLP), or the shared MLP alone. */
function graniteFfn(cfg: ConfigView, hidden: number, sharedDefault: number): Piece {
  const experts = cfg.int("num_local_experts", { min: 0 });
  const shared = cfg.optInt("shared_intermediate_size", sharedDefault, { min: 0 });
  if (experts === 0) return sharedMlp(hidden, cfg.int("shared_intermediate_size"));
  const moe = moeBlock({
    hidden,
    experts,
    topK: cfg.int("num_experts_per_tok"),
    expertInter: cfg.int("intermediate_size"),
    sharedInter: shared,
    fusedGateUp: true,
  });
  if (shared > 0) moe.linears.splice(moe.linears.length - 2, 2, ...sharedMlp(hidden, shared).linears);
  return moe;
}

function graniteAttention(cfg: ConfigView, d: TextDims): Piece {
  const bias = cfg.bool("attention_bias", false);
  // GraniteMoeAttention's head_dim is hidden_size / num_attention_heads.
  const headDim = d.hidden / d.heads;
  return gqaAttention({ hidden: d.hidden, heads: d.heads, kvHeads: d.kvHeads, headDim, bias, oBias: bias });
}

function assemble(
  cfg: ConfigView,
  family: string,
  d: TextDims,
  layers: LayerSpec[],
  kvLayers: KvLayer[],
): ModelReading {
  const tied = cfg.bool("tie_word_embeddings", false);
  return textReading({
    cfg,
    family,
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [textTower(d, layers, tied)],
    kvLayers,
    quantization: readQuantization(cfg),
  });
}

function attentionOnly(cfg: ConfigView, family: string, sharedDefault: number): ModelReading {
  const d = textDims(cfg);
  if (d.hidden % d.heads !== 0)
    cfg.fail("hidden_size", `${d.hidden} is not divisible by num_attention_heads`);
  const layer: LayerSpec = {
    mixer: graniteAttention(cfg, d),
    ffn: graniteFfn(cfg, d.hidden, sharedDefault),
    norm1: d.hidden,
    norm2: d.hidden,
  };
  const kv = fullKv(d.kvHeads, d.hidden / d.heads);
  return assemble(
    cfg,
    family,
    d,
    Array.from({ length: d.layers }, () => layer),
    Array.from({ length: d.layers }, () => kv),
  );
}

/** granitemoe: GQA attention + fused routed experts on every layer (Granite 3.x MoE, PowerMoE). */
export function readGraniteMoe(cfg: ConfigView): ModelReading {
  return attentionOnly(cfg, "granitemoe", 0);
}

/** granitemoeshared: granitemoe with a shared MLP beside the experts. */
export function readGraniteMoeShared(cfg: ConfigView): ModelReading {
  return attentionOnly(cfg, "granitemoeshared", 0);
}

/** The Mamba2 mixer keys of Bamba / Granite 4.0 H (mamba_*), d_inner = mamba_expand x hidden. */
export function bambaMambaSpec(cfg: ConfigView, hidden: number): MambaSpec {
  const inner = cfg.optInt("mamba_expand", 2) * hidden;
  const heads = cfg.optInt("mamba_n_heads", 128);
  const headDim = typeof cfg.raw.mamba_d_head === "number" ? cfg.int("mamba_d_head") : inner / heads;
  if (heads * headDim !== inner)
    cfg.fail(
      "mamba_n_heads",
      `${heads} heads x ${headDim} head dim do not make mamba_expand x hidden ${inner}`,
    );
  return {
    hidden,
    heads,
    headDim,
    groups: cfg.optInt("mamba_n_groups", 1),
    state: cfg.optInt("mamba_d_state", 256),
    kernel: cfg.optInt("mamba_d_conv", 4),
    convBias: cfg.bool("mamba_conv_bias", true),
    projBias: cfg.bool("mamba_proj_bias", false),
    stateBytes: 2,
  };
}

/** granitemoehybrid: Mamba2 and attention layers per `layer_types`, experts + shared MLP (Granite 4.0 H). */
export function readGraniteMoeHybrid(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const types = layerTypesOf(cfg, d.layers, () => "mamba");
  const odd = types.find((t) => t !== "mamba" && t !== "attention");
  if (odd !== undefined) cfg.fail("layer_types", `"${odd}" is neither "mamba" nor "attention"`);
  const spec = bambaMambaSpec(cfg, d.hidden);
  const mamba = mamba2(spec);
  const attn = graniteAttention(cfg, d);
  const ffn = graniteFfn(cfg, d.hidden, 1024);
  const layers: LayerSpec[] = types.map((t) => ({
    mixer: t === "mamba" ? mamba : attn,
    mixerName: t === "mamba" ? "Mamba2" : "Attention",
    ffn,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
  const kv = fullKv(d.kvHeads, d.hidden / d.heads);
  const state = mambaState(spec);
  const kvLayers = types.map((t) => (t === "mamba" ? state : kv));
  return assemble(cfg, "granitemoehybrid", d, layers, kvLayers);
}
