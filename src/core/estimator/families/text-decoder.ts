/**
 * The dense text decoder a multimodal model mounts (`language_model` + `lm_head`): LlamaForCausalLM-shaped
 * (modeling_llama.py, modeling_mistral.py, modeling_qwen2.py), read from `text_config` with its class defaults.
 * Biases follow the text family: Qwen2 has q/k/v biases, Llama has attention_bias / mlp_bias, Mistral none.
 */
import type { ConfigView } from "../config-view.ts";
import type { KvLayer, TowerReading } from "../types.ts";
import { place } from "./blocks.ts";
import {
  type DecoderDims,
  type DenseOptions,
  decoderDims,
  denseDecoderNodes,
  layerKv,
} from "./dense-decoder.ts";
import { TEXT_DEFAULTS, withDefaults } from "./sub-config.ts";

type TextPart = { tower: TowerReading; kvLayers: KvLayer[]; dims: DecoderDims; warnings: string[] };

function optionsFor(t: ConfigView, type: string): DenseOptions {
  const qwen2 = type === "qwen2";
  const attnBias = t.bool("attention_bias", false);
  return {
    family: type,
    qkvBias: qwen2 || attnBias,
    oBias: !qwen2 && attnBias,
    qkNorm: false,
    mlpBias: t.bool("mlp_bias", false),
    tieDefault: false,
    slidingByDefault: type === "mistral",
  };
}

/** The text config view with the defaults of its model_type's config class (`fallbackType` when it names none). */
export function textConfig(
  sub: ConfigView,
  fallbackType: string,
  warnings: string[],
): { view: ConfigView; type: string } {
  const type = sub.optStr("model_type") ?? fallbackType;
  const defaults = TEXT_DEFAULTS[type];
  if (!defaults) {
    warnings.push(
      `${sub.keyName("model_type")} ${type}: read as a Llama-shaped decoder (no class defaults known for it)`,
    );
    return { view: sub, type };
  }
  return { view: withDefaults(sub, defaults), type };
}

/** Embedding, RoPE, pre-norm GQA + SwiGLU layers, final RMSNorm and LM head (tied to the embedding or not). */
export function denseTextPart(t: ConfigView, type: string, tied: boolean, warnings: string[]): TextPart {
  const dims = decoderDims(t);
  const opts = optionsFor(t, type);
  const seq = dims.context ?? 2048;
  const { body, head } = denseDecoderNodes(place(seq), dims, opts, tied);
  for (const n of head) body.push(n);
  if (dims.context === null)
    warnings.push(`${t.keyName("max_position_embeddings")} missing: structure shown at 2048 tokens`);
  return {
    tower: { name: "text", role: "decoder", seqLen: seq, nodes: body },
    kvLayers: layerKv(t, dims, opts.slidingByDefault),
    dims,
    warnings,
  };
}
