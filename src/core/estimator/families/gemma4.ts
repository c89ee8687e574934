/**
 * gemma4 (modeling_gemma4.py): the text decoder of gemma4-text.ts plus the vision tower: linear
 * patch embedder (no bias) + a 2 x position_embedding_size x h table, RMSNorm sandwich blocks with
 * q/k norms and GeGLU MLP, and embed_vision (h_vision -> h_text, no bias).
 * Buffers (layer_scalar per layer, the vision std_bias/std_scale) are not parameters and are not
 * counted: gemma-4-26B-A4B's stored total equals this count plus exactly one vocab x hidden matrix
 * (the tied embedding stored a second time), which only holds if those buffers are absent.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode, TowerReading } from "../types.ts";
import { gemma4AudioTower } from "./gemma4-audio.ts";
import { gemma4Text } from "./gemma4-text.ts";
import { textReading, textSeq, textTower } from "./moe-frame.ts";
import { node } from "./moe-parts.ts";
import { encoderTower, patchEmbedNode } from "./vision-parts.ts";

function gemma4Vision(v: ConfigView, textHidden: number): TowerReading {
  const hidden = v.int("hidden_size");
  const patch = v.int("patch_size");
  const pool = v.optInt("pooling_kernel_size", 1);
  const outTokens = v.optInt("default_output_length", 256);
  const seq = outTokens * pool * pool;
  const headDim = v.optInt("head_dim", hidden / v.int("num_attention_heads"));
  const front: StructureNode[] = [
    node("vision.Input", "Input", [seq, 3 * patch * patch], 0, 0),
    patchEmbedNode("vision.PatchEmbed", seq, 3 * patch * patch, hidden, false),
    node(
      "vision.PosEmbed",
      "Learned Pos Embed (x, y)",
      [seq, hidden],
      2 * v.int("position_embedding_size") * hidden,
      0,
    ),
  ];
  const embed = node("vision.EmbedVision", "Linear", [outTokens, textHidden], hidden * textHidden, hidden);
  embed.linears = [{ in: hidden, out: textHidden, count: 1 }];
  const tower = encoderTower({
    name: "vision",
    role: "vision",
    seq,
    hidden,
    inter: v.int("intermediate_size"),
    heads: v.int("num_attention_heads"),
    kvHeads: v.optInt("num_key_value_heads", v.int("num_attention_heads")),
    headDim,
    layers: v.int("num_hidden_layers"),
    bias: v.bool("attention_bias", false),
    mlpBias: false,
    gatedMlp: true,
    norm: "RMSNorm",
    // q/k norms (head_dim each) and the post-attention / post-feed-forward norms.
    extraPerLayer: 2 * headDim + 2 * hidden,
    front,
    finalNorm: false,
    back: [node("vision.Pooler", "Avg Pool", [outTokens, hidden], 0, 0), embed],
  });
  return tower;
}

/** gemma4: sliding/global text decoder with a parallel MoE block, and its vision tower. */
export function readGemma4(cfg: ConfigView): ModelReading {
  const t = cfg.sub("text_config");
  const hidden = t.int("hidden_size");
  const vocab = t.int("vocab_size");
  const context = t.has("max_position_embeddings") ? t.int("max_position_embeddings") : null;
  const d = { hidden, vocab, context };
  const { layers, kvLayers, perLayerEmbedding } = gemma4Text(t, hidden, textSeq(context));
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", true));
  const text = textTower(d, layers, tied);
  // The per-layer embedding sits beside the token embedding (before RoPE).
  if (perLayerEmbedding) text.nodes.splice(1, 0, perLayerEmbedding);
  const v = cfg.optSub("vision_config");
  const a = cfg.optSub("audio_config");
  const towers = [...(v ? [gemma4Vision(v, hidden)] : []), ...(a ? [gemma4AudioTower(a, hidden)] : []), text];
  const warnings = a ? ["gemma4: audio tower sized at 30 s (3000 mel frames -> 750 positions)"] : [];
  return textReading({ cfg, family: "gemma4", ...d, tied, towers, kvLayers, warnings });
}
