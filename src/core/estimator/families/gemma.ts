/**
 * gemma2 (modeling_gemma2.py), gemma3_text (modeling_gemma3.py Gemma3ForCausalLM) and gemma3
 * (Gemma3ForConditionalGeneration: the gemma3_text decoder, a SigLIP vision tower and
 * Gemma3MultiModalProjector).
 * Decoder: token embedding scaled by sqrt(h) (a non-persistent buffer, no parameter), per layer four
 * RMSNorms (input, post_attention, pre_feedforward, post_feedforward: the sandwich), q/k/v/o with
 * attention_bias, head_dim from the config (class default 256, not h / heads), GeGLU MLP (gate, up,
 * down; no bias), final RMSNorm, LM head tied by default. gemma3 adds per-head q_norm / k_norm
 * (head_dim each). Attention and final logit soft-capping have no parameters.
 * Layers alternate sliding-window and full attention per layer_types; without it gemma2 makes every
 * second layer full ((i+1) % 2) and gemma3 every sliding_window_pattern-th (default 6); sliding layers
 * cache at most sliding_window tokens. RoPE per layer kind (local / global theta) has no parameters.
 * Projector: mm_input_projection_weight (vision h x text h, no bias) and mm_soft_emb_norm (RMSNorm over
 * vision h) after an average pool to mm_tokens_per_image tokens.
 * Keys the Hub configs leave out (gemma3's text_config carries only the sizes that differ) are read at
 * the Gemma2Config / Gemma3TextConfig defaults and named in a warning.
 */
import { type ConfigView, divisible } from "../config-view.ts";
import type { KvLayer, ModelReading, TowerReading } from "../types.ts";
import {
  type DefaultsUsed,
  defaultsWarning,
  intOr,
  kvByKind,
  repeatLayer,
  textFrameTower,
  textModel,
} from "./decoder-kit.ts";
import { layerTypesOf, textSeq } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, lin, node } from "./moe-parts.ts";
import { siglipVisionTower } from "./siglip.ts";

type Version = {
  family: string;
  className: string;
  vocab: number;
  context: number;
  /** Every n-th layer is full attention when the config has no layer_types. */
  every: number;
  qkNorm: boolean;
};

const GEMMA2: Version = {
  family: "gemma2",
  className: "Gemma2Config",
  vocab: 256000,
  context: 8192,
  every: 2,
  qkNorm: false,
};

const GEMMA3: Version = {
  family: "gemma3_text",
  className: "Gemma3TextConfig",
  vocab: 262208,
  context: 131072,
  every: 6,
  qkNorm: true,
};

type GemmaText = { hidden: number; vocab: number; context: number; layers: LayerSpec[]; kvLayers: KvLayer[] };

function gemmaText(t: ConfigView, v: Version, used: DefaultsUsed): GemmaText {
  const hidden = t.int("hidden_size");
  const n = t.int("num_hidden_layers", { max: 10_000 });
  const heads = intOr(t, "num_attention_heads", 8, used, { max: 100_000 });
  const kvHeads = intOr(t, "num_key_value_heads", Math.min(4, heads), used, { max: heads });
  divisible(t, "num_key_value_heads", heads, kvHeads, "num_key_value_heads");
  const headDim = intOr(t, "head_dim", 256, used, { max: 100_000 });
  const bias = t.bool("attention_bias", false);
  const attn = gqaAttention({
    hidden,
    heads,
    kvHeads,
    headDim,
    bias,
    oBias: bias,
    qkNorm: v.qkNorm ? [headDim, headDim] : undefined,
  });
  attn.actElems += hidden; // post_attention_layernorm output
  const mlp = gatedMlp(hidden, t.int("intermediate_size"));
  mlp.type = "GeGLU";
  mlp.actElems += hidden; // post_feedforward_layernorm output
  const every = t.optInt("sliding_window_pattern", v.every);
  const kinds = layerTypesOf(t, n, (i) => ((i + 1) % every === 0 ? "full_attention" : "sliding_attention"));
  const window = intOr(t, "sliding_window", 4096, used);
  return {
    hidden,
    vocab: intOr(t, "vocab_size", v.vocab, used),
    context: intOr(t, "max_position_embeddings", v.context, used),
    layers: repeatLayer(n, { mixer: attn, ffn: mlp, norm1: 2 * hidden, norm2: 2 * hidden }),
    kvLayers: kvByKind(kinds, kvHeads, headDim, window),
  };
}

function readGemmaText(cfg: ConfigView, v: Version): ModelReading {
  const used: DefaultsUsed = [];
  const g = gemmaText(cfg, v, used);
  const tied = cfg.bool("tie_word_embeddings", true);
  const tower = textFrameTower({
    seq: textSeq(g.context),
    hidden: g.hidden,
    vocab: g.vocab,
    layers: g.layers,
    shape: "pre",
    tied,
    finalNorm: g.hidden,
    normType: "RMSNorm",
    rope: true,
  });
  return textModel({
    cfg,
    family: v.family,
    hidden: g.hidden,
    vocab: g.vocab,
    context: g.context,
    kvLayers: g.kvLayers,
    tied,
    towers: [tower],
    warnings: defaultsWarning(v.className, used),
  });
}

/** gemma2: alternating sliding / full attention, sandwich norms, soft-capping. */
export function readGemma2(cfg: ConfigView): ModelReading {
  return readGemmaText(cfg, GEMMA2);
}

/** gemma3_text: gemma2's layout with per-head q/k norms and a 5:1 sliding / full pattern. */
export function readGemma3Text(cfg: ConfigView): ModelReading {
  return readGemmaText(cfg, GEMMA3);
}

/** The SigLIP tower of Gemma3ForConditionalGeneration followed by Gemma3MultiModalProjector. */
function gemma3Vision(cfg: ConfigView, textHidden: number, used: DefaultsUsed): TowerReading {
  const v = cfg.sub("vision_config");
  const vh = intOr(v, "hidden_size", 768, used);
  const tokens = cfg.optInt("mm_tokens_per_image", 256);
  const shape = [tokens, textHidden];
  const projector = node("vision.Projector", "AvgPool + RMSNorm + Linear", shape, vh * textHidden + vh, 0);
  projector.linears = [lin(vh, textHidden)];
  const vision = siglipVisionTower(v, 1, used, [projector]);
  // Pooled and normed vision states and the projected tokens, per patch of the tower.
  projector.actBytesPerToken = (2 * (2 * vh + textHidden) * tokens) / vision.seqLen;
  return vision;
}

/** gemma3: SigLIP vision tower + projector + the gemma3_text decoder. */
export function readGemma3(cfg: ConfigView): ModelReading {
  const used: DefaultsUsed = [];
  const t = cfg.sub("text_config");
  const g = gemmaText(t, GEMMA3, used);
  const vision = gemma3Vision(cfg, g.hidden, used);
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", true));
  const text = textFrameTower({
    seq: textSeq(g.context),
    hidden: g.hidden,
    vocab: g.vocab,
    layers: g.layers,
    shape: "pre",
    tied,
    finalNorm: g.hidden,
    normType: "RMSNorm",
    rope: true,
  });
  const side = Math.round(Math.sqrt(vision.seqLen));
  const tokens = cfg.optInt("mm_tokens_per_image", 256);
  return textModel({
    cfg,
    family: "gemma3",
    hidden: g.hidden,
    vocab: g.vocab,
    context: g.context,
    kvLayers: g.kvLayers,
    tied,
    towers: [vision, text],
    warnings: [
      `gemma3: vision tower sized for one image (${side}x${side} patches -> ${tokens} tokens)`,
      ...defaultsWarning("Gemma3TextConfig / SiglipVisionConfig", used),
    ],
  });
}
