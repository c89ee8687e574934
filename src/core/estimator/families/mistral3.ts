/**
 * mistral3 (modeling_mistral3.py / modular_mistral3.py, defaults from configuration_mistral3.py): a Pixtral
 * vision tower (PixtralVisionModel), Mistral3MultiModalProjector = RMSNorm over the vision hidden size,
 * Mistral3PatchMerger (merging_layer: vision hidden x spatial_merge_size^2 -> vision hidden, no bias), linear_1
 * (vision hidden x vision_feature_layer count -> text hidden) + act + linear_2 (text -> text), both with bias per
 * multimodal_projector_bias (default false); then the Mistral text decoder under text_config and lm_head.
 * Pixtral reads images at their own resolution: the tower is sized for one 224 x 224 image.
 */
import { type ConfigView, configView } from "../config-view.ts";
import type { ModelReading, TowerReading } from "../types.ts";
import { linear, node, place } from "./blocks.ts";
import { featureLayerCount } from "./llava.ts";
import { withDefaults } from "./sub-config.ts";
import { denseTextPart, textConfig } from "./text-decoder.ts";
import { PIXTRAL_VISION_DEFAULTS, pixtralVisionTower } from "./vision-towers.ts";

const IMAGE_SIDE = 224;

/** Mistral3Config's vision_config and text_config when none is given (Mistral-Small-3.1). */
const MISTRAL3_VISION: Record<string, unknown> = {
  model_type: "pixtral",
  intermediate_size: 4096,
  hidden_size: 1024,
  patch_size: 14,
  image_size: 1540,
  num_hidden_layers: 24,
  num_attention_heads: 16,
  head_dim: 64,
};
const MISTRAL3_TEXT: Record<string, unknown> = {
  model_type: "mistral",
  head_dim: 128,
  hidden_size: 5120,
  intermediate_size: 32768,
  max_position_embeddings: 131072,
  num_attention_heads: 32,
  num_hidden_layers: 40,
  num_key_value_heads: 8,
  sliding_window: null,
  vocab_size: 131072,
};

function projector(cfg: ConfigView, patches: number, vision: number, text: number): TowerReading {
  const merge = cfg.optInt("spatial_merge_size", 2);
  const tokens = Math.max(1, Math.floor(patches / (merge * merge)));
  const bias = cfg.bool("multimodal_projector_bias", false);
  const p = place(tokens, "projector");
  // The norm runs over every patch before the merge: its output is stored per sample, not per merged token.
  const norm = node(p, "RMSNorm", "RMSNorm", vision, vision, 0);
  norm.shape = [patches, vision];
  norm.actBytesPerSample = 2 * vision * patches;
  const nodes = [
    norm,
    linear(p, "PatchMerger", `Patch Merger (${merge}x${merge})`, vision * merge * merge, vision, false),
    linear(p, "Linear_1", "Linear + GELU", vision * featureLayerCount(cfg), text, bias),
    linear(p, "Linear_2", "Linear", text, text, bias),
  ];
  return { name: "projector", role: "projector", seqLen: tokens, nodes, fixedSeq: true };
}

export function readMistral3(cfg: ConfigView): ModelReading {
  const warnings = [`vision tower sized for one ${IMAGE_SIDE}x${IMAGE_SIDE} image`];
  const vsub = cfg.optSub("vision_config") ?? configView(MISTRAL3_VISION, cfg.keyName("vision_config"));
  const vision = pixtralVisionTower(withDefaults(vsub, PIXTRAL_VISION_DEFAULTS), IMAGE_SIDE);
  const tsub = cfg.optSub("text_config") ?? configView(MISTRAL3_TEXT, cfg.keyName("text_config"));
  const { view: t, type } = textConfig(tsub, "mistral", warnings);
  const tied = cfg.bool("tie_word_embeddings", false);
  const text = denseTextPart(t, type, tied, warnings);
  const visionHidden = vision.nodes[0]!.shape[1]!;
  return {
    family: "mistral3",
    modelType: "mistral3",
    towers: [vision, projector(cfg, vision.seqLen, visionHidden, text.dims.hidden), text.tower],
    contextLength: text.dims.context,
    lmHead: { vocab: text.dims.vocab, hidden: text.dims.hidden },
    tiedEmbedding: tied,
    embeddingParams: text.dims.vocab * text.dims.hidden,
    kvLayers: text.kvLayers,
    warnings,
  };
}
