/**
 * Sub-configs (`text_config`, `vision_config`) as transformers reads them: keys a published config omits take
 * the sub-config class's defaults (configuration_<type>.py), exactly as `PreTrainedConfig(**dict)` would. These
 * are not guesses, so no warning is raised for them; readers warn only where they must assume something the
 * class does not define.
 */
import { type ConfigView, configView } from "../config-view.ts";

export type ClassDefaults = Readonly<Record<string, unknown>>;

/** `view` with every key of `defaults` it does not set filled in (the view itself when none is missing). */
export function withDefaults(view: ConfigView, defaults: ClassDefaults): ConfigView {
  let missing = false;
  for (const key in defaults) {
    if (!view.has(key)) {
      missing = true;
      break;
    }
  }
  if (!missing) return view;
  const merged: Record<string, unknown> = {};
  for (const key in defaults) merged[key] = defaults[key];
  const raw = view.raw;
  // An explicit null stays null: transformers passes None through (num_key_value_heads: null -> heads).
  for (const key in raw) merged[key] = raw[key];
  return configView(merged, view.path);
}

/** LlamaConfig (configuration_llama.py). */
const LLAMA_DEFAULTS: ClassDefaults = {
  model_type: "llama",
  vocab_size: 32000,
  hidden_size: 4096,
  intermediate_size: 11008,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  max_position_embeddings: 2048,
  tie_word_embeddings: false,
};

/** MistralConfig (configuration_mistral.py). */
const MISTRAL_DEFAULTS: ClassDefaults = {
  model_type: "mistral",
  vocab_size: 32000,
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  max_position_embeddings: 4096 * 32,
  sliding_window: 4096,
  tie_word_embeddings: false,
};

/** Qwen2Config (configuration_qwen2.py). */
export const QWEN2_DEFAULTS: ClassDefaults = {
  model_type: "qwen2",
  vocab_size: 151936,
  hidden_size: 4096,
  intermediate_size: 22016,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 32,
  max_position_embeddings: 32768,
  tie_word_embeddings: false,
};

/** Class defaults of the text configs the multimodal readers build a dense decoder from, by model_type. */
export const TEXT_DEFAULTS: Readonly<Record<string, ClassDefaults>> = {
  llama: LLAMA_DEFAULTS,
  mistral: MISTRAL_DEFAULTS,
  qwen2: QWEN2_DEFAULTS,
};
