/**
 * llava and llava_next (modeling_llava.py, modeling_llava_next.py; defaults from configuration_llava.py,
 * configuration_llava_next.py): `vision_tower` = AutoModel of vision_config (CLIPVisionModel by default, or
 * SiglipVisionModel), `multi_modal_projector` = linear_1 (vision hidden x number of vision_feature_layer entries ->
 * text hidden) + act + linear_2 (text hidden -> text hidden), both with bias per multimodal_projector_bias
 * (default true), `language_model` + `lm_head` from text_config (LlamaConfig by default). LlavaNext adds
 * `image_newline` (text hidden scalars) and reads anyres images as a base crop plus image_grid_pinpoints tiles.
 * tie_word_embeddings: the root flag, or text_config's when the root one is false (LlavaConfig.__init__).
 */
import { type ConfigView, configView } from "../config-view.ts";
import type { ModelReading, StructureNode, TowerReading } from "../types.ts";
import { linear, node, place } from "./blocks.ts";
import { withDefaults } from "./sub-config.ts";
import { denseTextPart, textConfig } from "./text-decoder.ts";
import {
  CLIP_VISION_DEFAULTS,
  clipVisionTower,
  SIGLIP_VISION_DEFAULTS,
  siglipVisionTower,
} from "./vision-towers.ts";

/** LlavaConfig's vision_config when none is given (CLIP ViT-L/14 at 336). */
const LLAVA_VISION: Record<string, unknown> = {
  model_type: "clip_vision_model",
  intermediate_size: 4096,
  hidden_size: 1024,
  patch_size: 14,
  image_size: 336,
  num_hidden_layers: 24,
  num_attention_heads: 16,
};

/** LlavaNextConfig's image_grid_pinpoints default. */
const PINPOINTS = [
  [336, 672],
  [672, 336],
  [672, 672],
  [1008, 336],
  [336, 1008],
];

/** Hidden states the projector concatenates: one per vision_feature_layer entry (an int selects one). */
export function featureLayerCount(cfg: ConfigView): number {
  const raw = cfg.raw.vision_feature_layer;
  return Array.isArray(raw) ? Math.max(1, raw.length) : 1;
}

/** Base crop plus the most tiles any pinpoint resolution cuts an image into. */
function anyresCrops(cfg: ConfigView, side: number): number {
  const points = (cfg.optArray("image_grid_pinpoints") ?? PINPOINTS) as unknown[];
  let tiles = 1;
  for (const pt of points) {
    const ok =
      Array.isArray(pt) && pt.length === 2 && pt.every((x) => Number.isInteger(x) && x > 0 && x <= 1e6);
    if (!ok) cfg.fail("image_grid_pinpoints", "expected [height, width] pairs of pixel counts");
    const [h, w] = pt as [number, number];
    tiles = Math.max(tiles, Math.ceil(h / side) * Math.ceil(w / side));
  }
  return 1 + tiles;
}

function visionTower(cfg: ConfigView, next: boolean, warnings: string[]): TowerReading {
  const sub = cfg.optSub("vision_config") ?? configView(LLAVA_VISION, cfg.keyName("vision_config"));
  const type = sub.optStr("model_type") ?? "clip_vision_model";
  const siglip = type === "siglip_vision_model";
  if (!siglip && type !== "clip_vision_model")
    warnings.push(`vision_config.model_type ${type}: read as a CLIP vision tower`);
  const v = withDefaults(sub, siglip ? SIGLIP_VISION_DEFAULTS : CLIP_VISION_DEFAULTS);
  const crops = next ? anyresCrops(cfg, v.int("image_size")) : 1;
  if (crops > 1)
    warnings.push(`vision tower sized for one anyres image: ${crops} crops of ${v.int("image_size")} px`);
  return siglip ? siglipVisionTower(v, crops) : clipVisionTower(v, crops);
}

/** The projector runs over every image token the vision tower emits. */
function projector(
  tokens: number,
  vision: number,
  features: number,
  text: number,
  bias: boolean,
  next: boolean,
): TowerReading {
  const p = place(tokens, "projector");
  const nodes: StructureNode[] = [
    linear(p, "Linear_1", "Linear + GELU", vision * features, text, bias),
    linear(p, "Linear_2", "Linear", text, text, bias),
  ];
  if (next) nodes.push(node(p, "ImageNewline", "Learned token", text, text, 0));
  return { name: "projector", role: "projector", seqLen: tokens, nodes, fixedSeq: true };
}

function readLlavaFamily(cfg: ConfigView, next: boolean): ModelReading {
  const warnings: string[] = [];
  const vision = visionTower(cfg, next, warnings);
  const { view: t, type } = textConfig(
    cfg.optSub("text_config") ?? configView({}, cfg.keyName("text_config")),
    "llama",
    warnings,
  );
  const tied = cfg.bool("tie_word_embeddings", false) || t.bool("tie_word_embeddings", false);
  const text = denseTextPart(t, type, tied, warnings);
  const visionHidden = vision.nodes[0]!.shape[1]!;
  const bias = cfg.bool("multimodal_projector_bias", true);
  const proj = projector(vision.seqLen, visionHidden, featureLayerCount(cfg), text.dims.hidden, bias, next);
  const family = next ? "llava_next" : "llava";
  return {
    family,
    modelType: family,
    towers: [vision, proj, text.tower],
    contextLength: text.dims.context,
    lmHead: { vocab: text.dims.vocab, hidden: text.dims.hidden },
    tiedEmbedding: tied,
    embeddingParams: text.dims.vocab * text.dims.hidden,
    kvLayers: text.kvLayers,
    warnings,
  };
}

export function readLlava(cfg: ConfigView): ModelReading {
  return readLlavaFamily(cfg, false);
}

export function readLlavaNext(cfg: ConfigView): ModelReading {
  return readLlavaFamily(cfg, true);
}
