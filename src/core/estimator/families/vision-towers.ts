/**
 * Vision towers the multimodal readers mount under `vision_config`, each with its config class's defaults:
 * - CLIPVisionModel (modeling_clip.py): class_embedding, patch Conv2d without bias, position_embedding over
 *   patches + 1, pre_layrnorm, LayerNorm blocks (q/k/v/out and fc1/fc2 with bias), post_layernorm.
 * - SiglipVisionModel (modeling_siglip.py): patch Conv2d with bias, position_embedding over the patches, LayerNorm
 *   blocks, post_layernorm, and the attention-pooling head (probe, nn.MultiheadAttention, LayerNorm, MLP) unless
 *   vision_use_head is false.
 * - PixtralVisionModel (modeling_pixtral.py): patch_conv without bias, ln_pre (RMSNorm), RMSNorm blocks with
 *   q/k/v/o and a gated gate/up/down MLP, all without bias, 2D RoPE, no final norm.
 */
import type { ConfigView } from "../config-view.ts";
import type { StructureNode, TowerReading } from "../types.ts";
import { node } from "./moe-parts.ts";
import type { ClassDefaults } from "./sub-config.ts";
import { encoderTower, imagePatches, patchEmbedNode } from "./vision-parts.ts";

/** CLIPVisionConfig (configuration_clip.py). */
export const CLIP_VISION_DEFAULTS: ClassDefaults = {
  hidden_size: 768,
  intermediate_size: 3072,
  num_hidden_layers: 12,
  num_attention_heads: 12,
  num_channels: 3,
  image_size: 224,
  patch_size: 32,
};

/** SiglipVisionConfig (configuration_siglip.py). */
export const SIGLIP_VISION_DEFAULTS: ClassDefaults = {
  hidden_size: 768,
  intermediate_size: 3072,
  num_hidden_layers: 12,
  num_attention_heads: 12,
  num_channels: 3,
  image_size: 224,
  patch_size: 16,
};

/** PixtralVisionConfig (configuration_pixtral.py). */
export const PIXTRAL_VISION_DEFAULTS: ClassDefaults = {
  hidden_size: 1024,
  intermediate_size: 4096,
  num_hidden_layers: 24,
  num_attention_heads: 16,
  num_channels: 3,
  image_size: 1024,
  patch_size: 16,
};

type Geometry = { hidden: number; patch: number; perPatch: number; patches: number };

function geometry(v: ConfigView, side: number): Geometry {
  const hidden = v.int("hidden_size");
  const patch = v.int("patch_size", { max: side });
  return {
    hidden,
    patch,
    perPatch: v.int("num_channels") * patch * patch,
    patches: imagePatches(side, patch),
  };
}

type Blocks = { inter: number; heads: number; layers: number };

function blocks(v: ConfigView): Blocks {
  return {
    inter: v.int("intermediate_size"),
    heads: v.int("num_attention_heads", { max: 100_000 }),
    layers: v.int("num_hidden_layers", { max: 10_000 }),
  };
}

/** CLIP's vision tower at its image_size; `crops` images per sample (anyres tiles) multiply its tokens. */
export function clipVisionTower(v: ConfigView, crops = 1, name = "vision"): TowerReading {
  const side = v.int("image_size");
  const g = geometry(v, side);
  const positions = g.patches + 1;
  const seq = positions * crops;
  const patchEmbed = patchEmbedNode(`${name}.PatchEmbed`, seq, g.perPatch, g.hidden, false);
  patchEmbed.params += g.hidden;
  patchEmbed.type = "Patch Embed + class token";
  const front: StructureNode[] = [
    patchEmbed,
    node(`${name}.PosEmbed`, "Learned Pos Embed", [seq, g.hidden], positions * g.hidden, 0),
    node(`${name}.LayerNorm_pre`, "LayerNorm", [seq, g.hidden], 2 * g.hidden, g.hidden),
  ];
  const l = blocks(v);
  return encoderTower({
    name,
    role: "vision",
    seq,
    hidden: g.hidden,
    inter: l.inter,
    heads: l.heads,
    layers: l.layers,
    bias: true,
    mlpBias: true,
    norm: "LayerNorm",
    front,
    finalNorm: true,
    back: [],
  });
}

/** SigLIP's vision tower at its image_size, with the attention-pooling head unless vision_use_head is false. */
export function siglipVisionTower(v: ConfigView, crops = 1, name = "vision"): TowerReading {
  const side = v.int("image_size");
  const g = geometry(v, side);
  const seq = g.patches * crops;
  const l = blocks(v);
  const front = [
    patchEmbedNode(`${name}.PatchEmbed`, seq, g.perPatch, g.hidden, true),
    node(`${name}.PosEmbed`, "Learned Pos Embed", [seq, g.hidden], g.patches * g.hidden, 0),
  ];
  const back: StructureNode[] = [];
  if (v.bool("vision_use_head", true)) {
    const h = g.hidden;
    const params = h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + (h * l.inter + l.inter + l.inter * h + h);
    back.push(node(`${name}.PoolingHead`, "Attention pooling head", [1, h], params, 0));
  }
  return encoderTower({
    name,
    role: "vision",
    seq,
    hidden: g.hidden,
    inter: l.inter,
    heads: l.heads,
    layers: l.layers,
    bias: true,
    mlpBias: true,
    norm: "LayerNorm",
    front,
    finalNorm: true,
    back,
  });
}

/** Pixtral's vision tower for one side x side image (it reads images at their own resolution). */
export function pixtralVisionTower(v: ConfigView, side: number, name = "vision"): TowerReading {
  const g = geometry(v, side);
  const l = blocks(v);
  const headDim = v.has("head_dim") ? v.int("head_dim") : g.hidden / l.heads;
  const front = [
    patchEmbedNode(`${name}.PatchEmbed`, g.patches, g.perPatch, g.hidden, false),
    node(`${name}.RMSNorm_pre`, "RMSNorm", [g.patches, g.hidden], g.hidden, g.hidden),
  ];
  return encoderTower({
    name,
    role: "vision",
    seq: g.patches,
    hidden: g.hidden,
    inter: l.inter,
    heads: l.heads,
    layers: l.layers,
    headDim,
    bias: false,
    mlpBias: false,
    gatedMlp: true,
    norm: "RMSNorm",
    front,
    finalNorm: false,
    back: [],
  });
}
