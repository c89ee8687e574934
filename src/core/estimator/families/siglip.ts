/**
 * siglip and siglip2 (modeling_siglip.py, modeling_siglip2.py), and their vision tower alone
 * (siglip_vision_model / siglip2_vision_model, and Gemma 3's vision_config).
 * Vision: patch embedding (SigLIP: Conv2d C -> h, kernel = stride = patch, bias; SigLIP2: Linear
 * C*p*p -> h, bias: the same count) plus a learned position table ((image/patch)^2 rows; SigLIP2:
 * num_patches rows), pre-norm encoder layers (LayerNorm with bias, q/k/v/out_proj with bias, fc1/fc2
 * GELU MLP with bias), post_layernorm, and unless vision_use_head is false the attention-pooling head
 * (probe, nn.MultiheadAttention in_proj 3h x h + out_proj, LayerNorm, MLP).
 * Text: token + position tables, the same layers, final_layer_norm and `head` (h -> projection_size,
 * default h, bias). SiglipModel adds logit_scale and logit_bias (one scalar each).
 * position_ids buffers are registered non-persistent: nothing extra is stored. Configs routinely leave
 * sizes to the SiglipTextConfig / SiglipVisionConfig defaults; those are applied and named in a warning.
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode, TowerReading } from "../types.ts";
import { type DefaultsUsed, defaultsWarning, intOr } from "./decoder-kit.ts";
import { lin, node } from "./moe-parts.ts";
import { encoderTower, patchEmbedNode } from "./vision-parts.ts";

type Version = 1 | 2;

/** Vision tower of one image at the config's image size (SigLIP2: its num_patches). */
export function siglipVisionTower(
  v: ConfigView,
  version: Version,
  used: DefaultsUsed,
  back: StructureNode[] = [],
): TowerReading {
  const hidden = intOr(v, "hidden_size", 768, used);
  const heads = intOr(v, "num_attention_heads", 12, used, { max: 100_000 });
  const inter = intOr(v, "intermediate_size", 3072, used);
  const patch = intOr(v, "patch_size", 16, used);
  const channels = intOr(v, "num_channels", 3, used);
  const seq = version === 2 ? intOr(v, "num_patches", 256, used) : visionPatches(v, patch, used);
  const front: StructureNode[] = [
    patchEmbedNode("vision.PatchEmbed", seq, channels * patch * patch, hidden),
    node("vision.PosEmbed", "Learned Positions", [seq, hidden], seq * hidden, 0),
  ];
  const head = v.bool("vision_use_head", true) ? [poolingHead(hidden, inter)] : [];
  const tower = encoderTower({
    name: "vision",
    role: "vision",
    seq,
    hidden,
    inter,
    heads,
    layers: intOr(v, "num_hidden_layers", 12, used, { max: 10_000 }),
    bias: true,
    mlpBias: true,
    norm: "LayerNorm",
    front,
    finalNorm: true,
    back: head.concat(back),
  });
  tower.fixedSeq = true;
  return tower;
}

function visionPatches(v: ConfigView, patch: number, used: DefaultsUsed): number {
  const side = Math.floor(intOr(v, "image_size", 224, used) / patch);
  if (side < 1) v.fail("patch_size", `${patch} is larger than image_size`);
  return side * side;
}

/** probe (h), MultiheadAttention (in_proj 3h x h + 3h, out_proj h x h + h), LayerNorm, fc1/fc2. */
function poolingHead(hidden: number, inter: number): StructureNode {
  const params = hidden + 4 * hidden * hidden + 4 * hidden + 2 * hidden + 2 * hidden * inter + inter + hidden;
  // k and v of every patch for the probe's attention.
  const n = node("vision.Head", "Attention Pooling", [1, hidden], params, 2 * hidden);
  n.linears = [lin(hidden, 3 * hidden), lin(hidden, hidden), lin(hidden, inter), lin(inter, hidden)];
  n.outputHead = true;
  return n;
}

function textTower(t: ConfigView, used: DefaultsUsed): TowerReading {
  const hidden = intOr(t, "hidden_size", 768, used);
  const inter = intOr(t, "intermediate_size", 3072, used);
  const positions = intOr(t, "max_position_embeddings", 64, used);
  const vocab = intOr(t, "vocab_size", 32000, used);
  const proj = t.has("projection_size") ? t.int("projection_size") : hidden;
  const head = node("text.Head", "Linear (head)", [1, proj], hidden * proj + proj, 0);
  head.outputHead = true;
  return encoderTower({
    name: "text",
    role: "encoder",
    seq: positions,
    hidden,
    inter,
    heads: intOr(t, "num_attention_heads", 12, used, { max: 100_000 }),
    layers: intOr(t, "num_hidden_layers", 12, used, { max: 10_000 }),
    bias: true,
    mlpBias: true,
    norm: "LayerNorm",
    front: [
      node("text.Embedding", "Embedding", [positions, hidden], vocab * hidden, 0),
      node("text.PosEmbed", "Learned Positions", [positions, hidden], positions * hidden, 0),
    ],
    finalNorm: true,
    back: [head],
  });
}

function classNames(version: Version): string {
  return version === 2 ? "Siglip2TextConfig / Siglip2VisionConfig" : "SiglipTextConfig / SiglipVisionConfig";
}

function readSiglipModel(cfg: ConfigView, version: Version): ModelReading {
  const used: DefaultsUsed = [];
  const family = version === 2 ? "siglip2" : "siglip";
  const scale = node("vision.LogitScaleBias", "Scalars", [1, 2], 2, 0);
  scale.outputHead = true;
  const text = textTower(cfg.sub("text_config"), used);
  const vision = siglipVisionTower(cfg.sub("vision_config"), version, used, [scale]);
  return {
    family,
    modelType: cfg.optStr("model_type") ?? family,
    towers: [text, vision],
    contextLength: text.seqLen,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: text.nodes[0]!.params,
    kvLayers: [],
    warnings: defaultsWarning(classNames(version), used),
  };
}

function readVisionOnly(cfg: ConfigView, version: Version): ModelReading {
  const used: DefaultsUsed = [];
  const family = version === 2 ? "siglip2" : "siglip";
  const vision = siglipVisionTower(cfg, version, used);
  return {
    family,
    modelType: cfg.optStr("model_type") ?? family,
    towers: [vision],
    contextLength: vision.seqLen,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: 0,
    kvLayers: [],
    warnings: defaultsWarning(classNames(version), used),
  };
}

/** siglip: SiglipModel (text and vision towers, sigmoid-loss scale and bias). */
export function readSiglip(cfg: ConfigView): ModelReading {
  return readSiglipModel(cfg, 1);
}

/** siglip2: Siglip2Model (linear patch embedding over num_patches positions). */
export function readSiglip2(cfg: ConfigView): ModelReading {
  return readSiglipModel(cfg, 2);
}

/** siglip_vision_model: SiglipVisionModel alone. */
export function readSiglipVision(cfg: ConfigView): ModelReading {
  return readVisionOnly(cfg, 1);
}

/** siglip2_vision_model: Siglip2VisionModel alone. */
export function readSiglip2Vision(cfg: ConfigView): ModelReading {
  return readVisionOnly(cfg, 2);
}
