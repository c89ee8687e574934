import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import {
  add,
  asHead,
  at,
  attention,
  embedding,
  geluMlp,
  linear,
  node,
  norm,
  type Place,
  place,
  positionEmbedding,
} from "./blocks.ts";

function layers(p: Place, v: ConfigView, hidden: number): StructureNode[] {
  const heads = v.int("num_attention_heads", { max: 100_000 });
  const spec = {
    hidden,
    heads,
    kvHeads: heads,
    headDim: divisible(v, "hidden_size", hidden, heads, "num_attention_heads"),
    qkvBias: true,
    oBias: true,
  };
  const inter = v.int("intermediate_size");
  const out: StructureNode[] = [];
  for (let i = 1, n = v.int("num_hidden_layers", { max: 10_000 }); i <= n; i++) {
    const q: Place = at(p, i);
    out.push(
      norm(q, `LayerNorm_${i}_1`, "LayerNorm", hidden),
      attention(q, `Attention_${i}`, spec),
      add(q, `Add_${i}_attn`, hidden),
      norm(q, `LayerNorm_${i}_2`, "LayerNorm", hidden),
      geluMlp(q, `FFN_${i}`, hidden, inter),
      add(q, `Add_${i}_ffn`, hidden),
    );
  }
  return out;
}

/**
 * CLIP (modeling_clip.py): text tower (token + 77 positions, pre-norm layers, final LayerNorm, text_projection)
 * and vision tower (class embedding, patch Conv2d without bias, (image/patch)^2 + 1 positions, pre_layrnorm,
 * layers, post_layernorm, visual_projection), plus logit_scale. Both towers are encoders; no KV cache.
 */
export function readClip(cfg: ConfigView): ModelReading {
  const t = cfg.sub("text_config");
  const v = cfg.sub("vision_config");
  const proj = cfg.optInt("projection_dim", 512);
  const th = t.int("hidden_size");
  const vocab = t.int("vocab_size");
  const tpos = t.optInt("max_position_embeddings", 77);
  const tp: Place = place(tpos, "text");
  const text: StructureNode[] = [
    embedding(tp, vocab, th),
    positionEmbedding(tp, tpos, th),
    ...layers(tp, t, th),
  ];
  text.push(
    ...asHead([
      norm(tp, "LayerNorm_out", "LayerNorm", th),
      linear(tp, "Projection", "Linear (text_projection)", th, proj, false, false),
    ]),
  );
  const vh = v.int("hidden_size");
  const image = v.optInt("image_size", 224);
  const patch = v.int("patch_size", { max: image });
  const channels = v.optInt("num_channels", 3);
  const side = Math.floor(image / patch);
  const positions = side * side + 1;
  const vp: Place = place(positions, "vision");
  const patchEmb = node(
    vp,
    "PatchEmbedding",
    `Conv2d ${patch}x${patch} + class token`,
    vh,
    channels * patch * patch * vh + vh,
    0,
  );
  const vision: StructureNode[] = [
    patchEmb,
    positionEmbedding(vp, positions, vh),
    norm(vp, "LayerNorm_pre", "LayerNorm", vh),
    ...layers(vp, v, vh),
  ];
  vision.push(
    ...asHead([
      norm(vp, "LayerNorm_post", "LayerNorm", vh),
      linear(vp, "Projection", "Linear (visual_projection)", vh, proj, false, false),
    ]),
  );
  vision.push({ ...node(vp, "LogitScale", "Scalar", 1, 1, 0), outputHead: true });
  return {
    family: "clip",
    modelType: "clip",
    towers: [
      { name: "text", role: "encoder", seqLen: tpos, nodes: text },
      { name: "vision", role: "vision", seqLen: positions, nodes: vision, fixedSeq: true },
    ],
    contextLength: tpos,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: vocab * th,
    kvLayers: [],
    warnings: [],
  };
}
