/**
 * Which reader reads a config: its model_type; else its architectures (class-name prefix), accepted only when
 * the config's keys fit that reader; else (old configs with neither) a signature of keys; else the generic
 * fallback, which names every key it guessed in a warning. The confidence says which: "known" for a family
 * reader, "generic" for the fallback.
 */
import { type ConfigView, EstimatorInputError } from "./config-view.ts";
import { readerFor } from "./families/index.ts";
import { readGeneric } from "./generic.ts";
import type { ModelReading } from "./types.ts";

export type ReaderConfidence = "known" | "generic";
export type Resolved = { reading: ModelReading; confidence: ReaderConfidence };

/**
 * Architecture class names (or their prefixes) -> model_type, longest first. Types without a reader fall
 * through to the generic reading: a Phi3ForCausalLM is never read by the phi-2 reader.
 */
const ARCH_TYPES: [string, string][] = (
  [
    ["DistilRoberta", "roberta"],
    ["XLMRoberta", "xlm-roberta"],
    ["Roberta", "roberta"],
    ["ModernBert", "modernbert"],
    ["DebertaV2", "deberta-v2"],
    ["Deberta", "deberta"],
    ["Bert", "bert"],
    ["GPT2", "gpt2"],
    ["GPTBigCode", "gpt_bigcode"],
    ["GptOss", "gpt_oss"],
    ["Llama4", "llama4"],
    ["LlavaNext", "llava_next"],
    ["Llava", "llava"],
    ["Llama", "llama"],
    ["Mistral3", "mistral3"],
    ["Mistral", "mistral"],
    ["Mixtral", "mixtral"],
    ["MiniMaxM2", "minimax_m2"],
    ["Qwen2_5_VL", "qwen2_5_vl"],
    ["Qwen2VL", "qwen2_vl"],
    ["Qwen2Moe", "qwen2_moe"],
    ["Qwen2Audio", "qwen2_audio"],
    ["Qwen2", "qwen2"],
    ["Qwen3Next", "qwen3_next"],
    ["Qwen3VLMoe", "qwen3_vl_moe"],
    ["Qwen3VL", "qwen3_vl"],
    ["Qwen3Moe", "qwen3_moe"],
    ["Qwen3_5Moe", "qwen3_5_moe"],
    ["Qwen3_5", "qwen3_5"],
    ["Qwen3ASR", "qwen3_asr"],
    ["Qwen3", "qwen3"],
    ["PhiMoE", "phimoe"],
    ["Phi3", "phi3"],
    ["Phi4MM", "phi4_multimodal"],
    ["Phi", "phi"],
    ["Whisper", "whisper"],
    ["Bart", "bart"],
    ["CLIP", "clip"],
    ["Siglip2", "siglip2"],
    ["Siglip", "siglip"],
    ["Gemma3nForCausalLM", "gemma3n_text"],
    ["Gemma3n", "gemma3n"],
    ["Gemma3ForCausalLM", "gemma3_text"],
    ["Gemma3", "gemma3"],
    ["Gemma2", "gemma2"],
    ["Gemma4", "gemma4"],
    ["Gemma", "gemma"],
    ["Starcoder2", "starcoder2"],
    ["FalconH1", "falcon_h1"],
    ["FalconMamba", "falcon_mamba"],
    ["Falcon", "falcon"],
    ["RWForCausalLM", "falcon"],
    ["Mamba2", "mamba2"],
    ["Mamba", "mamba"],
    ["Jamba", "jamba"],
    ["Bamba", "bamba"],
    ["Olmo3", "olmo3"],
    ["Olmo2", "olmo2"],
    ["OlmoE", "olmoe"],
    ["Olmo", "olmo"],
    ["Cohere2", "cohere2"],
    ["Cohere", "cohere"],
    ["GraniteMoe", "granitemoe"],
    ["Granite", "granite"],
    ["InternLM3", "internlm3"],
    ["InternLM2", "internlm2"],
    ["UMT5", "umt5"],
    ["MT5", "mt5"],
    ["T5", "t5"],
    ["Wav2Vec2", "wav2vec2"],
    ["Hubert", "hubert"],
    ["DeepseekV32", "deepseek_v32"],
    ["DeepseekV3", "deepseek_v3"],
    ["NemotronH", "nemotron_h"],
    ["DeciLM", "nemotron-nas"],
    ["MiMo", "mimo"],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

/** The model_type an architecture class name stands for, or undefined. */
export function typeOfArchitecture(arch: string): string | undefined {
  return ARCH_TYPES.find(([prefix]) => arch.startsWith(prefix))?.[1];
}

function typeFromArchitectures(cfg: ConfigView): string | undefined {
  for (const a of cfg.optArray("architectures") ?? []) {
    if (typeof a !== "string") continue;
    const t = typeOfArchitecture(a);
    if (t) return t;
  }
  return undefined;
}

/** Keys that change the structure in ways a reader of another kind would silently ignore. */
const SIGNATURES: { keys: string[]; types: RegExp }[] = [
  {
    keys: ["num_experts", "num_local_experts", "n_routed_experts", "moe_intermediate_size"],
    types: /moe|mixtral|deepseek|kimi|gpt_oss|minimax|llama4|glm|step|nemotron_h|jamba|granitemoe|phimoe/,
  },
  {
    keys: ["vision_config", "audio_config", "thinker_config", "text_config"],
    types: /vl|asr|llava|mistral3|gemma3$|gemma4|clip|whisper|siglip|kimi_k25|llama4|qwen3_5/,
  },
  {
    keys: ["ssm_cfg", "state_size", "mamba_d_state", "linear_num_value_heads"],
    types: /mamba|jamba|bamba|falcon_h1|nemotron_h|qwen3_next|qwen3_5/,
  },
  { keys: ["parallel_attn", "alibi", "new_decoder_architecture", "multi_query"], types: /^falcon$/ },
];

/** The first key of `cfg` that `type`'s reader would not read although it changes the structure, or null. */
function foreignKey(cfg: ConfigView, type: string): string | null {
  for (const s of SIGNATURES) {
    if (s.types.test(type)) continue;
    const hit = s.keys.find((k) => cfg.has(k));
    if (hit) return hit;
  }
  return null;
}

/** Old BERT-style configs carry only sizes: 514 positions (512 + RoBERTa's padding offset of 2) means RoBERTa. */
function typeFromSignature(cfg: ConfigView): string | undefined {
  if (!cfg.has("type_vocab_size") || !cfg.has("max_position_embeddings")) return undefined;
  return cfg.raw.max_position_embeddings === 514 ? "roberta" : "bert";
}

function byArchitecture(cfg: ConfigView, modelType: string | undefined): Resolved | null {
  const inferred = typeFromArchitectures(cfg);
  const reader = inferred ? readerFor(inferred) : undefined;
  if (!inferred || !reader) return null;
  const foreign = foreignKey(cfg, inferred);
  if (foreign) return null;
  let reading: ModelReading;
  try {
    reading = reader(cfg);
  } catch (err) {
    // A prefix match whose reader lacks its keys is not a fit; the generic reading names what is missing.
    if (err instanceof EstimatorInputError) return null;
    throw err;
  }
  reading.warnings.unshift(
    `model_type ${modelType ?? "missing"}: read as ${inferred} from architectures (the config's keys fit that reader)`,
  );
  if (!modelType && reading.modelType === "") reading.modelType = inferred;
  return { reading, confidence: "known" };
}

function bySignature(cfg: ConfigView): Resolved | null {
  const inferred = typeFromSignature(cfg);
  const reader = inferred ? readerFor(inferred) : undefined;
  if (!inferred || !reader) return null;
  const reading = reader(cfg);
  reading.warnings.unshift(
    `model_type and architectures missing: read as ${inferred} (type_vocab_size, max_position_embeddings ${String(cfg.raw.max_position_embeddings)})`,
  );
  if (reading.modelType === "") reading.modelType = inferred;
  return { reading, confidence: "known" };
}

/** Reads a config with the best reader available, saying how sure the reading is. */
export function resolveModel(cfg: ConfigView): Resolved {
  const modelType = cfg.optStr("model_type");
  const direct = modelType ? readerFor(modelType) : undefined;
  if (direct) return { reading: direct(cfg), confidence: "known" };
  const arch = byArchitecture(cfg, modelType);
  if (arch) return arch;
  const sig = modelType ? null : bySignature(cfg);
  if (sig) return sig;
  return { reading: readGeneric(cfg), confidence: "generic" };
}

/** Reads a config into a ModelReading with the best reader available. */
export function readModel(cfg: ConfigView): ModelReading {
  return resolveModel(cfg).reading;
}
