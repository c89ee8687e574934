/**
 * mamba and mamba2 (transformers modeling_mamba.py / configuration_mamba.py, modeling_mamba2.py /
 * configuration_mamba2.py; state-spaces/mamba-*-hf, Mamba-Codestral): embedding, per layer an RMSNorm
 * and a mixer with a residual add, final RMSNorm (norm_f), LM head (tied by default for mamba, not for
 * mamba2). No attention and no positions: every layer keeps a constant state (SSM state + conv window).
 * falcon_mamba (modeling_falcon_mamba.py) has the same parameters as mamba (its extra B/C/dt RMSNorms
 * carry no weights). MambaMixer: in_proj h -> 2I, conv1d, x_proj, dt_proj, A_log, D, out_proj with
 * I = expand x hidden and dt_rank `time_step_rank` ("auto": ceil(hidden / 16)). Mamba2Mixer: in_proj
 * h -> 2I + 2 n_groups state + num_heads, conv1d over I + 2 n_groups state, dt_bias, A_log, D, gated
 * RMSNorm over I, out_proj.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { type Mamba1Spec, type MambaSpec, mamba1, mamba1State, mamba2, mambaState } from "./hybrid-parts.ts";
import { readQuantization, textReading, textSeq } from "./moe-frame.ts";
import { mixerTower } from "./ssm-stack.ts";

/**
 * The mamba (v1) mixer keys shared by mamba and falcon_mamba. `use_bias` defaults to false as in the current
 * configuration_mamba.py (older releases defaulted to true; published configs state it). An
 * `intermediate_size` key in the file overrides expand x hidden, as PretrainedConfig sets it last.
 */
function mamba1Spec(cfg: ConfigView, hidden: number): Mamba1Spec {
  const rank = cfg.raw.time_step_rank;
  return {
    hidden,
    inner: cfg.has("intermediate_size")
      ? cfg.int("intermediate_size")
      : Math.floor(cfg.optNum("expand", 2) * hidden),
    state: cfg.optInt("state_size", 16),
    kernel: cfg.optInt("conv_kernel", 4),
    dtRank: typeof rank === "number" ? cfg.int("time_step_rank") : Math.ceil(hidden / 16),
    convBias: cfg.bool("use_conv_bias", true),
    projBias: cfg.bool("use_bias", false),
    innerNorms: false,
    stateBytes: 2,
  };
}

function contextOf(cfg: ConfigView): number | null {
  return cfg.has("max_position_embeddings") ? cfg.int("max_position_embeddings") : null;
}

function read(
  cfg: ConfigView,
  family: string,
  tiedDefault: boolean,
  mixer: "mamba" | "mamba2",
): ModelReading {
  const hidden = cfg.int("hidden_size");
  const layers = cfg.int("num_hidden_layers", { max: 10_000 });
  const vocab = cfg.int("vocab_size");
  const context = contextOf(cfg);
  const tied = cfg.bool("tie_word_embeddings", tiedDefault);
  let piece: ReturnType<typeof mamba2>;
  let state: ReturnType<typeof mambaState>;
  if (mixer === "mamba") {
    const s = mamba1Spec(cfg, hidden);
    piece = mamba1(s);
    state = mamba1State(s);
  } else {
    const s = mamba2Spec(cfg, hidden);
    piece = mamba2(s);
    state = mambaState(s);
  }
  const towers = [
    mixerTower({ seq: textSeq(context), hidden, vocab, tied, layers, piece, name: piece.type }),
  ];
  const warnings =
    context === null
      ? [`${family}: no context limit (state-space model); structure shown at 2048 tokens`]
      : [];
  return textReading({
    cfg,
    family,
    hidden,
    vocab,
    context,
    tied,
    towers,
    kvLayers: Array.from({ length: layers }, () => state),
    quantization: readQuantization(cfg),
    warnings,
  });
}

function mamba2Spec(cfg: ConfigView, hidden: number): MambaSpec {
  const inner = Math.floor(cfg.optNum("expand", 2) * hidden);
  const heads = cfg.optInt("num_heads", 128);
  const headDim = cfg.optInt("head_dim", 64);
  if (heads * headDim !== inner)
    cfg.fail("num_heads", `${heads} heads x head_dim ${headDim} do not make expand x hidden_size ${inner}`);
  return {
    hidden,
    heads,
    headDim,
    groups: cfg.optInt("n_groups", 8),
    state: cfg.optInt("state_size", 128),
    kernel: cfg.optInt("conv_kernel", 4),
    convBias: cfg.bool("use_conv_bias", true),
    projBias: cfg.bool("use_bias", false),
    stateBytes: 2,
  };
}

/** mamba: a stack of Mamba (v1) mixers, LM head tied by default. */
export function readMamba(cfg: ConfigView): ModelReading {
  return read(cfg, cfg.optStr("model_type") === "falcon_mamba" ? "falcon_mamba" : "mamba", true, "mamba");
}

/** mamba2: a stack of Mamba2 mixers, LM head untied by default. */
export function readMamba2(cfg: ConfigView): ModelReading {
  return read(cfg, "mamba2", false, "mamba2");
}
