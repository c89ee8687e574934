/**
 * qwen2_vl and qwen2_5_vl (modeling_qwen2_vl.py, modeling_qwen2_5_vl.py; defaults from
 * configuration_qwen2_vl.py, configuration_qwen2_5_vl.py). Vision tower: PatchEmbed Conv3d (in_channels x
 * temporal_patch_size x patch x patch -> width, no bias), 2D rotary (no parameters), `depth` blocks with a fused qkv
 * (bias) and proj (bias), and a merger (ln_q over the block width, fc 4w -> 4w, GELU, fc 4w -> text width).
 * Qwen2-VL blocks: LayerNorm, fc1/fc2 MLP of embed_dim x mlp_ratio (quick_gelu), merger width `hidden_size`.
 * Qwen2.5-VL blocks: RMSNorm, gate/up/down MLP with bias (intermediate_size), merger width `out_hidden_size`,
 * window attention (window_size px) except the fullatt_block_indexes blocks. Text: the Qwen2 decoder (q/k/v bias,
 * M-RoPE, no parameters of its own), keys flat on the root config or under text_config. Sized for one 224x224 image.
 */
import { type ConfigView, configView } from "../config-view.ts";
import type { ModelReading, TowerReading } from "../types.ts";
import { node } from "./moe-parts.ts";
import { QWEN2_DEFAULTS, withDefaults } from "./sub-config.ts";
import { denseTextPart } from "./text-decoder.ts";
import { encoderTower, imagePatches, mergerNode, patchEmbedNode } from "./vision-parts.ts";

const IMAGE_SIDE = 224;

/** Qwen2VLVisionConfig and Qwen2_5_VLVisionConfig defaults. */
const QWEN2_VL_VISION = {
  depth: 32,
  embed_dim: 1280,
  hidden_size: 3584,
  mlp_ratio: 4,
  num_heads: 16,
  in_channels: 3,
  patch_size: 14,
  spatial_merge_size: 2,
  temporal_patch_size: 2,
};
const QWEN2_5_VL_VISION = {
  depth: 32,
  hidden_size: 3584,
  intermediate_size: 3420,
  num_heads: 16,
  in_channels: 3,
  patch_size: 14,
  spatial_merge_size: 2,
  temporal_patch_size: 2,
  window_size: 112,
  out_hidden_size: 3584,
  fullatt_block_indexes: [7, 15, 23, 31],
};

type VisionShape = { width: number; out: number; inter: number; v25: boolean };

function visionTower(v: ConfigView, s: VisionShape): TowerReading {
  const patch = v.int("patch_size");
  const merge = v.int("spatial_merge_size");
  const seq = imagePatches(IMAGE_SIDE, patch);
  const merged = Math.floor(seq / (merge * merge));
  const channels = v.has("in_channels") ? v.int("in_channels") : v.optInt("in_chans", 3);
  const perPatch = channels * v.int("temporal_patch_size") * patch * patch;
  const wide = s.width * merge * merge;
  const norm = s.v25 ? "RMSNorm" : "LayerNorm";
  const tower = encoderTower({
    name: "vision",
    role: "vision",
    seq,
    hidden: s.width,
    inter: s.inter,
    heads: v.int("num_heads", { max: 100_000 }),
    layers: v.int("depth", { max: 10_000 }),
    bias: true,
    mlpBias: true,
    gatedMlp: s.v25,
    fusedQkv: true,
    norm,
    front: [
      node("vision.Input", "Input", [3, IMAGE_SIDE, IMAGE_SIDE], 0, 0),
      patchEmbedNode("vision.PatchEmbed", seq, perPatch, s.width, false),
    ],
    finalNorm: false,
    back: [
      mergerNode({
        name: "vision.Merger",
        tokens: merged,
        normWidth: s.width,
        normKind: norm,
        inF: wide,
        mid: wide,
        out: s.out,
      }),
    ],
  });
  if (s.v25) markWindowAttention(v, tower);
  return tower;
}

/** Qwen2.5-VL: every block not in fullatt_block_indexes attends within window_size-pixel windows. */
function markWindowAttention(v: ConfigView, tower: TowerReading): void {
  const full = new Set((v.optArray("fullatt_block_indexes") ?? []) as number[]);
  const window = v.optInt("window_size", 112);
  for (const n of tower.nodes) {
    if (n.type !== "Self Attention" || n.layer === undefined) continue;
    n.type = full.has(n.layer - 1) ? "Full Attn" : `Window Attn (${window} px)`;
  }
}

function readQwenVl(cfg: ConfigView, v25: boolean): ModelReading {
  const warnings = [
    `${v25 ? "qwen2_5_vl" : "qwen2_vl"}: vision tower sized for one ${IMAGE_SIDE}x${IMAGE_SIDE} image`,
  ];
  const textSub = cfg.optSub("text_config");
  const t = textSub ? withDefaults(textSub, QWEN2_DEFAULTS) : cfg;
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", false));
  const text = denseTextPart(t, "qwen2", tied, warnings);
  const rope = text.tower.nodes[1];
  if (rope?.type === "RoPE") rope.type = "M-RoPE";
  const vsub = cfg.optSub("vision_config") ?? configView({}, cfg.keyName("vision_config"));
  const v = withDefaults(vsub, v25 ? QWEN2_5_VL_VISION : QWEN2_VL_VISION);
  const shape: VisionShape = v25
    ? { width: v.int("hidden_size"), out: v.int("out_hidden_size"), inter: v.int("intermediate_size"), v25 }
    : {
        width: v.int("embed_dim"),
        out: v.int("hidden_size"),
        inter: Math.floor(v.int("embed_dim") * v.num("mlp_ratio")),
        v25,
      };
  const family = v25 ? "qwen2_5_vl" : "qwen2_vl";
  return {
    family,
    modelType: family,
    towers: [visionTower(v, shape), text.tower],
    contextLength: text.dims.context,
    lmHead: { vocab: text.dims.vocab, hidden: text.dims.hidden },
    tiedEmbedding: tied,
    embeddingParams: text.dims.vocab * text.dims.hidden,
    kvLayers: text.kvLayers,
    warnings,
  };
}

export function readQwen2Vl(cfg: ConfigView): ModelReading {
  return readQwenVl(cfg, false);
}

export function readQwen25Vl(cfg: ConfigView): ModelReading {
  return readQwenVl(cfg, true);
}
