/**
 * Safetensors tensors of the CLIP components a Stable Diffusion pipeline ships: the text encoder
 * (transformers models/clip/modeling_clip.py, CLIPTextModel) and the safety checker (diffusers
 * pipelines/stable_diffusion/safety_checker.py: a CLIPVisionModel plus projection and concept embeddings).
 */
import { linear, norm, num, type Tensor, w } from "./diffusers-gen.ts";

type Config = Record<string, unknown>;

/** CLIPEncoder layers (modeling_clip.py): biased q/k/v/out projections, two LayerNorms, fc1/fc2 MLP. */
function clipLayers(prefix: string, c: Config): Tensor[] {
  const h = num(c, "hidden_size");
  const inter = num(c, "intermediate_size");
  const out: Tensor[] = [];
  for (let i = 0; i < num(c, "num_hidden_layers"); i++) {
    const p = `${prefix}.encoder.layers.${i}`;
    for (const x of ["q", "k", "v", "out"]) out.push(...linear(`${p}.self_attn.${x}_proj`, h, h));
    out.push(
      ...norm(`${p}.layer_norm1`, h),
      ...linear(`${p}.mlp.fc1`, inter, h),
      ...linear(`${p}.mlp.fc2`, h, inter),
    );
    out.push(...norm(`${p}.layer_norm2`, h));
  }
  return out;
}

/** CLIPTextModel: token and position embeddings (+ the position_ids buffer older exports store), encoder, final norm. */
export function clipTextTensors(c: Config): Tensor[] {
  const h = num(c, "hidden_size");
  const pos = num(c, "max_position_embeddings");
  const e = "text_model.embeddings";
  return [
    w(`${e}.token_embedding.weight`, num(c, "vocab_size"), h),
    w(`${e}.position_embedding.weight`, pos, h),
    { name: `${e}.position_ids`, shape: [1, pos], dtype: "I64" },
    ...clipLayers("text_model", c),
    ...norm("text_model.final_layer_norm", h),
  ];
}

/**
 * StableDiffusionSafetyChecker (diffusers pipelines/stable_diffusion/safety_checker.py): a CLIPVisionModel
 * (class token, patch conv without bias, (image / patch)^2 + 1 positions, pre/post LayerNorm), a visual projection
 * without bias, and the 17 concept and 3 special-care embeddings with their weights.
 */
export function safetyCheckerTensors(c: Config): Tensor[] {
  const v = (c.vision_config ?? {}) as Config;
  const h = num(v, "hidden_size");
  const patch = num(v, "patch_size");
  const positions = (num(v, "image_size", 224) / patch) ** 2 + 1;
  const proj = num(c, "projection_dim");
  const e = "vision_model.vision_model.embeddings";
  return [
    w(`${e}.class_embedding`, h),
    w(`${e}.patch_embedding.weight`, h, num(v, "num_channels", 3), patch, patch),
    w(`${e}.position_embedding.weight`, positions, h),
    { name: `${e}.position_ids`, shape: [1, positions], dtype: "I64" },
    ...norm("vision_model.vision_model.pre_layrnorm", h),
    ...clipLayers("vision_model.vision_model", v),
    ...norm("vision_model.vision_model.post_layernorm", h),
    w("visual_projection.weight", proj, h),
    w("concept_embeds", 17, proj),
    w("special_care_embeds", 3, proj),
    w("concept_embeds_weights", 17),
    w("special_care_embeds_weights", 3),
  ];
}
