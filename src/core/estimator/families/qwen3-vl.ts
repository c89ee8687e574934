/**
 * qwen3_vl and qwen3_vl_moe: a Qwen3 (dense or MoE) text decoder plus the Qwen3-VL vision tower
 * (modeling_qwen3_vl.py): Conv3d patch embed (in_channels x temporal_patch x patch x patch, bias),
 * a learned position table (num_position_embeddings x hidden), `depth` LayerNorm blocks with a fused
 * qkv (bias) and a GELU MLP (linear_fc1/linear_fc2, bias), a merger (LayerNorm(hidden), fc1 4h->4h,
 * fc2 4h->out_hidden) and one deepstack merger per deepstack_visual_indexes entry (same, but the
 * norm is over the merged 4h).
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode, TowerReading } from "../types.ts";
import { fullKv, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, node } from "./moe-parts.ts";
import { qwen3MoeLayers, type TextDims, textDims } from "./qwen3-moe.ts";
import { encoderTower, imagePatches, mergerNode, patchEmbedNode } from "./vision-parts.ts";

/** Side of the default image the vision tower is sized at (no image size in these configs). */
const IMAGE_SIDE = 224;

/** The Qwen3-VL / Qwen3.5 vision tower, sized for one 224x224 image. */
export function qwenVisionTower(v: ConfigView, name = "vision"): TowerReading {
  const hidden = v.int("hidden_size");
  const patch = v.int("patch_size");
  const temporal = v.optInt("temporal_patch_size", 2);
  const merge = v.optInt("spatial_merge_size", 2);
  const out = v.int("out_hidden_size");
  const seq = imagePatches(IMAGE_SIDE, patch);
  const merged = Math.floor(seq / (merge * merge));
  const wide = hidden * merge * merge;
  const perPatch = v.optInt("in_channels", 3) * temporal * patch * patch;
  const front: StructureNode[] = [
    node(`${name}.Input`, "Input", [3, IMAGE_SIDE, IMAGE_SIDE], 0, 0),
    patchEmbedNode(`${name}.PatchEmbed`, seq, perPatch, hidden),
    node(
      `${name}.PosEmbed`,
      "Learned Pos Embed",
      [seq, hidden],
      v.optInt("num_position_embeddings", 0, { min: 0 }) * hidden,
      0,
    ),
  ];
  const mergerOf = (n: string, normWidth: number) =>
    mergerNode({ name: n, tokens: merged, normWidth, normKind: "LayerNorm", inF: wide, mid: wide, out });
  const back = [mergerOf(`${name}.Merger`, hidden)];
  const deepstack = (v.optArray("deepstack_visual_indexes") ?? []) as number[];
  deepstack.forEach((idx, i) => {
    back.push(mergerOf(`${name}.DeepstackMerger_${i + 1}(layer ${idx})`, wide));
  });
  return encoderTower({
    name,
    role: "vision",
    seq,
    hidden,
    inter: v.int("intermediate_size"),
    heads: v.int("num_heads"),
    layers: v.int("depth"),
    bias: true,
    mlpBias: true,
    fusedQkv: true,
    norm: "LayerNorm",
    front,
    finalNorm: false,
    back,
  });
}

/** Dense Qwen3 layers (GQA with per-head q/k RMSNorm, SwiGLU). */
export function qwen3DenseLayers(t: ConfigView, d: TextDims): LayerSpec[] {
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias: t.bool("attention_bias", false),
    qkNorm: [d.headDim, d.headDim],
  });
  const mlp = gatedMlp(d.hidden, t.int("intermediate_size"));
  return Array.from({ length: d.layers }, () => ({
    mixer: attn,
    ffn: mlp,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
}

function readQwenVl(cfg: ConfigView, moe: boolean): ModelReading {
  const t = cfg.sub("text_config");
  const d = textDims(t);
  const layers = moe ? qwen3MoeLayers(t, d) : qwen3DenseLayers(t, d);
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", false));
  const v = cfg.optSub("vision_config");
  return textReading({
    cfg,
    family: moe ? "qwen3_vl_moe" : "qwen3_vl",
    ...d,
    tied,
    towers: [...(v ? [qwenVisionTower(v)] : []), textTower(d, layers, tied)],
    kvLayers: layers.map(() => fullKv(d.kvHeads, d.headDim)),
    warnings: [
      v
        ? `${cfg.str("model_type")}: vision tower sized for one ${IMAGE_SIDE}x${IMAGE_SIDE} image`
        : `${cfg.str("model_type")}: no vision_config, text only`,
    ],
  });
}

/** qwen3_vl: dense Qwen3 text decoder + vision tower with deepstack mergers. */
export function readQwen3Vl(cfg: ConfigView): ModelReading {
  return readQwenVl(cfg, false);
}

/** qwen3_vl_moe: Qwen3-MoE text decoder + the same vision tower. */
export function readQwen3VlMoe(cfg: ConfigView): ModelReading {
  return readQwenVl(cfg, true);
}
