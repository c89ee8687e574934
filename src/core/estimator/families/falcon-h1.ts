/**
 * falcon_h1 (transformers modeling_falcon_h1.py / configuration_falcon_h1.py; Falcon-H1 0.5B to 34B):
 * every layer runs a FalconH1Attention (Llama attention: q/k/v/o, bias per `attention_bias`, head_dim
 * from the config) and a FalconH1Mixer (Mamba2: in_proj h -> 2I + 2 groups state + heads with
 * `mamba_proj_bias`, conv1d with `mamba_conv_bias`, dt_bias, A_log, D, a gated RMSNorm only when
 * `mamba_rms_norm`, out_proj with `projectors_bias`; I = `mamba_d_ssm`, or `mamba_expand` x hidden when
 * that key is null) in parallel on the same normed input, then a SwiGLU FalconH1MLP (bias per
 * `mlp_bias`). RMSNorms (input_layernorm, pre_ff_layernorm, final_layernorm). The muP multipliers scale
 * activations only; `mup_vector` is a non-persistent buffer, never stored. Each layer keeps both a KV
 * cache and a constant Mamba state.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, ModelReading } from "../types.ts";
import { type MambaSpec, mamba2, mambaState } from "./hybrid-parts.ts";
import { fullKv, readQuantization, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, type Piece } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";

function mambaSpec(cfg: ConfigView, hidden: number): MambaSpec {
  const heads = cfg.optInt("mamba_n_heads", 128);
  const dHead = typeof cfg.raw.mamba_d_head === "number" ? cfg.int("mamba_d_head") : undefined;
  const inner = mambaWidth(cfg, hidden, heads, dHead);
  const headDim = dHead ?? inner / heads;
  if (heads * headDim !== inner)
    cfg.fail("mamba_n_heads", `${heads} heads x ${headDim} head dim do not make the mamba width ${inner}`);
  return {
    hidden,
    heads,
    headDim,
    groups: cfg.optInt("mamba_n_groups", 1),
    state: cfg.optInt("mamba_d_state", 256),
    kernel: cfg.optInt("mamba_d_conv", 4),
    convBias: cfg.bool("mamba_conv_bias", true),
    projBias: cfg.bool("mamba_proj_bias", false),
    outBias: cfg.bool("projectors_bias", false),
    gatedNorm: cfg.bool("mamba_rms_norm", false),
    stateBytes: 2,
  };
}

/**
 * The Mamba2 width I (configuration_falcon_h1.py): `mamba_d_ssm`, or `mamba_expand` x hidden when it is null.
 * When the key is absent the class default is 1024, unless heads x `mamba_d_head` is given: that is then
 * the only width the config's own check (d_head x n_heads == I) accepts.
 */
function mambaWidth(cfg: ConfigView, hidden: number, heads: number, dHead: number | undefined): number {
  if ("mamba_d_ssm" in cfg.raw) {
    return cfg.raw.mamba_d_ssm === null ? cfg.optInt("mamba_expand", 2) * hidden : cfg.int("mamba_d_ssm");
  }
  return dHead === undefined ? 1024 : heads * dHead;
}

/** Attention and Mamba2 side by side on one input: one mixer node holding both. */
function parallelMixer(attn: Piece, mamba: Piece): Piece {
  return {
    type: "Attention + Mamba2 (parallel)",
    params: attn.params + mamba.params,
    actElems: attn.actElems + mamba.actElems,
    linears: [...attn.linears, ...mamba.linears],
  };
}

/** falcon_h1: parallel attention + Mamba2 in every layer, SwiGLU MLP. */
export function readFalconH1(cfg: ConfigView): ModelReading {
  const d = textDims(cfg);
  const bias = cfg.bool("attention_bias", false);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias,
    oBias: bias,
  });
  const spec = mambaSpec(cfg, d.hidden);
  const layer: LayerSpec = {
    mixer: parallelMixer(attn, mamba2(spec)),
    mixerName: "HybridMixer",
    ffn: gatedMlp(d.hidden, cfg.int("intermediate_size"), cfg.bool("mlp_bias", false)),
    norm1: d.hidden,
    norm2: d.hidden,
  };
  const kv = fullKv(d.kvHeads, d.headDim);
  const state = mambaState(spec);
  const kvLayers: KvLayer[] = [];
  for (let i = 0; i < d.layers; i++) kvLayers.push(kv, state);
  const tied = cfg.bool("tie_word_embeddings", false);
  return textReading({
    cfg,
    family: "falcon_h1",
    hidden: d.hidden,
    vocab: d.vocab,
    context: d.context,
    tied,
    towers: [
      textTower(
        d,
        Array.from({ length: d.layers }, () => layer),
        tied,
      ),
    ],
    kvLayers,
    quantization: readQuantization(cfg),
  });
}
