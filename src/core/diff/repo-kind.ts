/**
 * What kind of model repo a revision's files make, by the files each library loads from: a PEFT adapter
 * (adapter_config.json), sentence-transformers (modules.json), a diffusers pipeline (model_index.json),
 * GGUF quantizations (*.gguf and no safetensors), transformers (config.json); "none" without any of them
 * (an initial commit, a dataset-like repo).
 */
const REPO_KINDS = ["gguf", "peft", "sentence-transformers", "diffusers", "transformers", "none"] as const;
type RepoKind = (typeof REPO_KINDS)[number];

export function repoKind(paths: string[]): RepoKind {
  const has = new Set(paths);
  if (has.has("adapter_config.json")) return "peft";
  if (has.has("modules.json")) return "sentence-transformers";
  if (has.has("model_index.json")) return "diffusers";
  if (paths.some((p) => p.endsWith(".gguf")) && !paths.some((p) => p.endsWith(".safetensors"))) return "gguf";
  if (has.has("config.json")) return "transformers";
  return "none";
}
