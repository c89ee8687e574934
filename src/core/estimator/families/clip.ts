import type { ConfigView } from "../config-view.ts";
import { divisible } from "../config-view.ts";
import type { ModelReading, StructureNode, TowerReading } from "../types.ts";
import {
  add,
  append,
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

/** Text tower: token + learned positions, layers, final LayerNorm, text_projection (when `proj` is not null). */
function textTower(t: ConfigView, proj: number | null): TowerReading {
  const th = t.int("hidden_size");
  const tpos = t.optInt("max_position_embeddings", 77);
  const tp = place(tpos, "text");
  const nodes: StructureNode[] = [embedding(tp, t.int("vocab_size"), th), positionEmbedding(tp, tpos, th)];
  append(nodes, layers(tp, t, th));
  const final = norm(tp, "LayerNorm_out", "LayerNorm", th);
  const projection =
    proj === null ? [] : [linear(tp, "Projection", "Linear (text_projection)", th, proj, false, false)];
  append(nodes, asHead([final, ...projection]));
  return { name: "text", role: "encoder", seqLen: tpos, nodes };
}

/** Vision tower: patch Conv2d (no bias) + class token, (image / patch)^2 + 1 positions, pre/post LayerNorm, projection. */
function visionTower(v: ConfigView, proj: number): TowerReading {
  const vh = v.int("hidden_size");
  const image = v.optInt("image_size", 224);
  const patch = v.int("patch_size", { max: image });
  const channels = v.optInt("num_channels", 3);
  const side = Math.floor(image / patch);
  const positions = side * side + 1;
  const vp = place(positions, "vision");
  const patchParams = channels * patch * patch * vh + vh;
  const nodes: StructureNode[] = [
    node(vp, "PatchEmbedding", `Conv2d ${patch}x${patch} + class token`, vh, patchParams, 0),
    positionEmbedding(vp, positions, vh),
    norm(vp, "LayerNorm_pre", "LayerNorm", vh),
  ];
  append(nodes, layers(vp, v, vh));
  const projection = linear(vp, "Projection", "Linear (visual_projection)", vh, proj, false, false);
  const logitScale = node(vp, "LogitScale", "Scalar", 1, 1, 0);
  append(nodes, asHead([norm(vp, "LayerNorm_post", "LayerNorm", vh), projection, logitScale]));
  return { name: "vision", role: "vision", seqLen: positions, nodes, fixedSeq: true };
}

/**
 * CLIP (modeling_clip.py): text and vision encoder towers joined by their projections and logit_scale.
 * Both towers are encoders; no KV cache.
 */
export function readClip(cfg: ConfigView): ModelReading {
  const proj = cfg.optInt("projection_dim", 512);
  const text = textTower(cfg.sub("text_config"), proj);
  const vision = visionTower(cfg.sub("vision_config"), proj);
  const first = text.nodes[0]!;
  return {
    family: "clip",
    modelType: "clip",
    towers: [text, vision],
    contextLength: text.seqLen,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: first.params,
    kvLayers: [],
    warnings: [],
  };
}

/**
 * A CLIP text encoder alone (model_type clip_text_model): CLIPTextModel, or CLIPTextModelWithProjection (its
 * architectures say so) with text_projection, as diffusers pipelines ship their text encoders.
 */
export function readClipText(cfg: ConfigView): ModelReading {
  const arch = cfg.raw.architectures;
  const withProjection = Array.isArray(arch) && arch.includes("CLIPTextModelWithProjection");
  const text = textTower(cfg, withProjection ? cfg.optInt("projection_dim", 512) : null);
  return {
    family: "clip_text_model",
    modelType: "clip_text_model",
    towers: [text],
    contextLength: text.seqLen,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: text.nodes[0]!.params,
    kvLayers: [],
    warnings: [],
  };
}
