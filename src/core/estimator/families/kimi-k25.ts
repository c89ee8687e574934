/**
 * kimi_k25 (Kimi-K2.5, remote modeling_kimi_k25.py): a kimi_k2 (DeepSeek-V3 layout) text_config plus
 * a MoonViT3d vision tower and a patch-merger projector. Shapes of the vision side were taken from
 * published tensor listings of the checkpoint (transformers has no kimi_k25): patch_embed.proj
 * Conv2d(3 -> vt_hidden, patch, bias), pos_emb (init_pos_emb_height x width x vt_hidden; the
 * temporal embedding is fixed sin-cos, not stored), vt_num_hidden_layers LayerNorm blocks with fused
 * wqkv (bias), wo (bias), mlp fc0/fc1 (bias), final_layernorm, then mm_projector: pre_norm
 * LayerNorm(mm_hidden), proj.0 (4 mm_hidden -> 4 mm_hidden, bias), GELU, proj.2 (-> text hidden, bias).
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading, StructureNode, TowerReading } from "../types.ts";
import { readKimiK2 } from "./deepseek.ts";
import { node } from "./moe-parts.ts";
import { encoderTower, imagePatches, mergerNode, patchEmbedNode } from "./vision-parts.ts";

const IMAGE_SIDE = 224;

function moonVit(v: ConfigView, textHidden: number): TowerReading {
  const hidden = v.int("vt_hidden_size");
  const patch = v.optInt("patch_size", 14);
  const seq = imagePatches(IMAGE_SIDE, patch);
  const kernel = (v.optArray("merge_kernel_size") as number[] | undefined) ?? [2, 2];
  const merge = (kernel[0] ?? 2) * (kernel[1] ?? 2);
  const mm = v.optInt("mm_hidden_size", hidden);
  const front: StructureNode[] = [
    node("vision.Input", "Input", [3, IMAGE_SIDE, IMAGE_SIDE], 0, 0),
    patchEmbedNode("vision.PatchEmbed", seq, 3 * patch * patch, hidden),
    node(
      "vision.PosEmbed",
      "Learned Pos Embed",
      [seq, hidden],
      v.optInt("init_pos_emb_height", 64) * v.optInt("init_pos_emb_width", 64) * hidden,
      0,
    ),
  ];
  const projector = mergerNode({
    name: "vision.Projector",
    tokens: Math.floor(seq / merge),
    normWidth: mm,
    normKind: "LayerNorm",
    inF: mm * merge,
    mid: mm * merge,
    out: textHidden,
  });
  return encoderTower({
    name: "vision",
    role: "vision",
    seq,
    hidden,
    inter: v.int("vt_intermediate_size"),
    heads: v.int("vt_num_attention_heads"),
    layers: v.int("vt_num_hidden_layers"),
    bias: true,
    mlpBias: true,
    fusedQkv: true,
    norm: "LayerNorm",
    front,
    finalNorm: true,
    back: [projector],
  });
}

/** kimi_k25: the kimi_k2 text reading plus the MoonViT vision tower and projector. */
export function readKimiK25(cfg: ConfigView): ModelReading {
  const t = cfg.sub("text_config");
  const text = readKimiK2(t);
  const v = cfg.optSub("vision_config");
  const towers = v ? [moonVit(v, t.int("hidden_size")), ...text.towers] : text.towers;
  return {
    ...text,
    family: "kimi_k25",
    modelType: cfg.str("model_type"),
    towers,
    warnings: [
      ...text.warnings,
      "kimi_k25: vision tower shapes inferred from published checkpoint tensor listings (no transformers modeling file); sized for one 224x224 image",
    ],
  };
}
