/**
 * Which reader reads a config: its model_type; else its architectures; else (old configs with neither)
 * a signature of keys; else the generic fallback, which names every key it guessed in a warning.
 */
import type { ConfigView } from "./config-view.ts";
import { readerFor } from "./families/index.ts";
import { readGeneric } from "./generic.ts";
import type { ModelReading } from "./types.ts";

/** Architecture class-name prefixes -> model_type, for configs without model_type. */
const ARCH_PREFIXES: [string, string][] = [
  ["DistilRoberta", "roberta"],
  ["XLMRoberta", "roberta"],
  ["Roberta", "roberta"],
  ["Bert", "bert"],
  ["GPT2", "gpt2"],
  ["Llama", "llama"],
  ["Mistral", "mistral"],
  ["Qwen2", "qwen2"],
  ["Qwen3", "qwen3"],
  ["Phi", "phi"],
  ["Whisper", "whisper"],
  ["Bart", "bart"],
  ["CLIP", "clip"],
];

function typeFromArchitectures(cfg: ConfigView): string | undefined {
  const archs = cfg.optArray("architectures") ?? [];
  for (const a of archs) {
    if (typeof a !== "string") continue;
    const hit = ARCH_PREFIXES.find(([prefix]) => a.startsWith(prefix));
    if (hit) return hit[1];
  }
  return undefined;
}

/** Old BERT-style configs carry only sizes: 514 positions (512 + RoBERTa's padding offset of 2) means RoBERTa. */
function typeFromSignature(cfg: ConfigView): string | undefined {
  if (!cfg.has("type_vocab_size") || !cfg.has("max_position_embeddings")) return undefined;
  return cfg.raw.max_position_embeddings === 514 ? "roberta" : "bert";
}

/** Reads a config into a ModelReading with the best reader available. */
export function readModel(cfg: ConfigView): ModelReading {
  const modelType = cfg.optStr("model_type");
  const direct = modelType ? readerFor(modelType) : undefined;
  if (direct) return direct(cfg);
  const warnings: string[] = [];
  let inferred = typeFromArchitectures(cfg);
  if (inferred) {
    warnings.push(`model_type ${modelType ?? "missing"}: read as ${inferred} from architectures`);
  } else if (!modelType) {
    inferred = typeFromSignature(cfg);
    if (inferred) {
      warnings.push(
        `model_type and architectures missing: read as ${inferred} (type_vocab_size, max_position_embeddings ${String(cfg.raw.max_position_embeddings)})`,
      );
    }
  }
  const reader = inferred ? readerFor(inferred) : undefined;
  const reading = reader ? reader(cfg) : readGeneric(cfg);
  reading.warnings.unshift(...warnings);
  if (!modelType && reading.modelType === "") reading.modelType = inferred ?? "unknown";
  return reading;
}
