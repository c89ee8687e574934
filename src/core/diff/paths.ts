import { isComponentConfig, MODEL_INDEX_PATH } from "./diffusers.ts";

type PathCategory = "config" | "generation_config" | "tokenizer" | "chat_template" | "weights" | "other";

const ST_FILES = new Set(["modules.json", "sentence_bert_config.json", "config_sentence_transformers.json"]);
const TOKENIZER_FILES = new Set(["tokenizer_config.json", "special_tokens_map.json", "tokenizer.json"]);

/**
 * What kind of repo file a path is (path relative to the repo root, "/"-separated).
 * Only root-level files count: a config.json in a subfolder (e.g. `onnx/config.json`) is "other",
 * except safetensors shards, which may sit in subfolders, and, in a diffusers pipeline (`pipeline`: the revision
 * has a model_index.json), each component folder's config (`unet/config.json`, `scheduler/scheduler_config.json`).
 */
export function classifyPath(path: string, pipeline = false): PathCategory {
  if (path === "config.json" || path === MODEL_INDEX_PATH) return "config";
  if (pipeline && isComponentConfig(path)) return "config";
  // sentence-transformers: the module list, its settings and each module's config (1_Pooling/config.json...).
  if (ST_FILES.has(path) || /^\d+_[A-Za-z]+\/config\.json$/.test(path)) return "config";
  // PEFT: the adapter's config (base model, rank, targets).
  if (path === "adapter_config.json") return "config";
  if (path === "generation_config.json") return "generation_config";
  if (TOKENIZER_FILES.has(path)) return "tokenizer";
  if (path === "chat_template.jinja" || path === "chat_template.json") return "chat_template";
  if (/^additional_chat_templates\/[^/]+\.jinja$/.test(path)) return "chat_template";
  if (path === "model.safetensors.index.json" || path.endsWith(".safetensors")) return "weights";
  // GGUF files (llama.cpp quantizations) are read by header, like safetensors, wherever they sit.
  if (path.endsWith(".gguf")) return "weights";
  return "other";
}

/** True for the files whose content we download, snapshot and diff; others only enter the manifest. */
export function isTrackedPath(path: string, pipeline = false): boolean {
  return classifyPath(path, pipeline) !== "other";
}
