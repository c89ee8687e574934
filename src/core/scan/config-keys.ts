/**
 * Names that say "this value is a model on the Hub" in configs, CLI flags and dataclass fields, as the
 * Hugging Face training scripts, PEFT, Axolotl and model cards spell them. Deliberately narrow: a bare
 * `model:` also names OpenAI or Ollama models, and `hub_model_id` is where a run pushes, not what it loads.
 */
const MODEL_KEY =
  /^(?:(?:teacher|reward|ref|draft|student)_)?(?:model_name_or_path|pretrained_model_name_or_path|base_model|base_model_name_or_path|model_id|tokenizer_name|tokenizer_name_or_path)$/;

/** Names of the revision that goes with such a model key. */
const REVISION_KEY = /^(?:revision|model_revision|revision_of_model|base_model_revision|tokenizer_revision)$/;

/** `--model-name-or-path`, `model_name_or_path` and `MODEL_NAME_OR_PATH` are the same key. */
function normalize(key: string): string {
  return key
    .replace(/^-+/, "")
    .replace(/-/g, "_")
    .replace(/^([A-Z0-9_]+)$/, (k) => k.toLowerCase());
}

export function isModelKey(key: string): boolean {
  return MODEL_KEY.test(normalize(key));
}

export function isRevisionKey(key: string): boolean {
  return REVISION_KEY.test(normalize(key));
}

/**
 * Environment variables that name a model: `MODEL_ID` (Text Generation Inference), `MODEL`,
 * `MODEL_NAME`, `HF_MODEL_ID`, `EMBEDDING_MODEL`, `BASE_MODEL_NAME_OR_PATH` ... in upper case, as env
 * files, compose files and Dockerfiles write them.
 */
const ENV_MODEL = /^(?:[A-Z0-9]+_)*MODEL(?:_ID|_NAME|_REPO|_REPO_ID|_NAME_OR_PATH)?$/;
const ENV_SKIP = /(?:^|_)(?:OPENAI|ANTHROPIC|AZURE|OLLAMA|GEMINI|BEDROCK|COHERE|MISTRAL|OUTPUT|PUSH|HUB)_/;

export function isEnvModelKey(key: string): boolean {
  return ENV_MODEL.test(key) && !ENV_SKIP.test(key);
}

/** `MODEL_ID` pairs with `REVISION` or `MODEL_REVISION`; `EMBEDDING_MODEL` with `EMBEDDING_MODEL_REVISION`. */
export function envRevisionKeys(modelKey: string): string[] {
  const stem = modelKey.replace(/_(?:ID|NAME|REPO|REPO_ID|NAME_OR_PATH)$/, "");
  const prefix = stem.replace(/MODEL$/, "");
  return [`${stem}_REVISION`, `${prefix}REVISION`, "REVISION"];
}
