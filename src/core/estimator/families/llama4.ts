/**
 * llama4 (modeling_llama4.py). Text: GQA (no bias; the optional q/k L2 norm has no weights), MoE on
 * every interleave_moe_layer_step-th layer (router, experts with fused gate_up h -> 2I and down,
 * plus a shared SwiGLU expert), SwiGLU of intermediate_size_mlp on the others; chunked attention
 * (attention_chunk_size) on the RoPE layers, global attention every 4th (no_rope_layers).
 * Vision: unfold-conv patch embedding (no bias), class token, learned positions over
 * (image/patch)^2 + 1, pre/post LayerNorm, LayerNorm blocks with biased attention and GELU MLP,
 * a pixel-shuffle adapter MLP (fc1 I -> projector_input_dim, fc2 out -> out, no bias) and the
 * multi_modal_projector (vision_output_dim -> text hidden, no bias).
 */
import { type ConfigView, configView } from "../config-view.ts";
import type { KvLayer, ModelReading, StructureNode } from "../types.ts";
import { fullKv, textReading, textTower } from "./moe-frame.ts";
import { gatedMlp, gqaAttention, type LayerSpec, moeBlock, node } from "./moe-parts.ts";
import { type TextDims, textDims } from "./qwen3-moe.ts";
import { encoderTower, imagePatches, patchEmbedNode } from "./vision-parts.ts";

/** Pixel-shuffle adapter MLP and the multi-modal projector, per output token. */
function llama4Projection(v: ConfigView, textHidden: number, tokens: number): StructureNode[] {
  const pIn = v.int("projector_input_dim");
  const pOut = v.int("projector_output_dim");
  const inter = v.int("intermediate_size");
  const adapter = node(
    "vision.PixelShuffleMLP",
    "Pixel Shuffle MLP",
    [tokens, pOut],
    inter * pIn + pOut * pOut,
    0,
  );
  // Per output token: the shuffled input (I wide), fc1 output + GELU, fc2 output + GELU.
  adapter.actBytesPerToken = 2 * (inter + 2 * pIn + 2 * pOut);
  adapter.linears = [
    { in: inter, out: pIn, count: 1 },
    { in: pOut, out: pOut, count: 1 },
  ];
  const vOut = v.int("vision_output_dim");
  const projector = node("vision.Projector", "Linear", [tokens, textHidden], vOut * textHidden, textHidden);
  projector.linears = [{ in: vOut, out: textHidden, count: 1 }];
  return [adapter, projector];
}

function llama4Vision(v: ConfigView, textHidden: number) {
  const hidden = v.int("hidden_size");
  const patch = v.int("patch_size");
  const side = v.optInt("image_size", 336);
  const channels = v.optInt("num_channels", 3);
  const seq = imagePatches(side, patch) + 1;
  const ratio = v.optNum("pixel_shuffle_ratio", 0.5);
  const front = [
    node("vision.Input", "Input", [channels, side, side], 0, 0),
    patchEmbedNode("vision.PatchEmbed", seq, channels * patch * patch, hidden, false),
    // class embedding + positional_embedding_vlm + layernorm_pre
    node("vision.Positions", "Learned Pos Embed", [seq, hidden], hidden + seq * hidden + 2 * hidden, hidden),
  ];
  return encoderTower({
    name: "vision",
    role: "vision",
    seq,
    hidden,
    inter: v.int("intermediate_size"),
    heads: v.int("num_attention_heads"),
    layers: v.int("num_hidden_layers"),
    bias: true,
    mlpBias: true,
    norm: "LayerNorm",
    front,
    finalNorm: true,
    back: llama4Projection(v, textHidden, Math.floor((seq - 1) * ratio * ratio)),
  });
}

/** The vision_config Llama-4-Scout and Llama-4-Maverick publish (architecture keys only). */
const PUBLISHED_VISION = {
  hidden_size: 1408,
  image_size: 336,
  intermediate_size: 5632,
  num_attention_heads: 16,
  num_channels: 3,
  num_hidden_layers: 34,
  patch_size: 14,
  pixel_shuffle_ratio: 0.5,
  projector_input_dim: 4096,
  projector_output_dim: 4096,
  vision_output_dim: 4096,
};

function llama4Layers(t: ConfigView, d: TextDims): LayerSpec[] {
  const bias = t.bool("attention_bias", false);
  const attn = gqaAttention({
    hidden: d.hidden,
    heads: d.heads,
    kvHeads: d.kvHeads,
    headDim: d.headDim,
    bias,
    oBias: bias,
  });
  const inter = t.int("intermediate_size");
  const moe = moeBlock({
    hidden: d.hidden,
    experts: t.int("num_local_experts"),
    topK: t.optInt("num_experts_per_tok", 1),
    expertInter: inter,
    sharedInter: inter,
    fusedGateUp: true,
  });
  const dense = gatedMlp(d.hidden, t.optInt("intermediate_size_mlp", inter));
  const step = t.optInt("interleave_moe_layer_step", 1);
  const listed = t.optArray("moe_layers");
  const isMoe = (i: number) => (listed ? listed.includes(i) : (i + 1) % step === 0);
  return Array.from({ length: d.layers }, (_, i) => ({
    mixer: attn,
    ffn: isMoe(i) ? moe : dense,
    norm1: d.hidden,
    norm2: d.hidden,
  }));
}

/** RoPE layers attend within attention_chunk_size tokens; every 4th layer (NoPE, no_rope_layers 0) is global. */
function llama4Kv(t: ConfigView, d: TextDims): KvLayer[] {
  const chunk = t.optInt("attention_chunk_size", 0, { min: 0 });
  const noRope = t.optArray("no_rope_layers");
  return Array.from({ length: d.layers }, (_, i) => {
    const global = noRope ? noRope[i] === 0 : (i + 1) % 4 === 0;
    return fullKv(d.kvHeads, d.headDim, !global && chunk > 0 ? chunk : undefined);
  });
}

/** llama4: interleaved dense / MoE text decoder (+ vision tower and projector when declared). */
export function readLlama4(cfg: ConfigView): ModelReading {
  const t = cfg.sub("text_config");
  const d = textDims(t);
  const tied = cfg.bool("tie_word_embeddings", t.bool("tie_word_embeddings", false));
  const text = textTower(d, llama4Layers(t, d), tied);
  const warnings = [
    "llama4: chunked-attention layers are entered as sliding windows of attention_chunk_size",
  ];
  let v = cfg.optSub("vision_config");
  const arch = cfg.optArray("architectures") ?? [];
  if (!v && arch.some((a) => typeof a === "string" && a.includes("ConditionalGeneration"))) {
    // A Llama4ForConditionalGeneration checkpoint always carries the vision tower; Scout and
    // Maverick publish the same one (transformers' own defaults differ from it, so not those).
    v = configView(PUBLISHED_VISION, "vision_config(assumed)");
    warnings.push(
      "llama4: multimodal architecture without vision_config: assumed the vision tower Llama 4 Scout and Maverick publish (1408 wide, 34 layers, patch 14 at 336 px, projector 4096)",
    );
  }
  const towers = v ? [llama4Vision(v, d.hidden), text] : [text];
  return textReading({ cfg, family: "llama4", ...d, tied, towers, kvLayers: llama4Kv(t, d), warnings });
}
