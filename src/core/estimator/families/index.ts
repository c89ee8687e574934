/**
 * Family registry: config model_type -> reader. Readers live one per file in this folder and share
 * blocks.ts (attention, MLPs, norms, embeddings, heads, KV entries) and dense-decoder.ts.
 * Resolution (model_type, then architectures, then the generic fallback) is in ../resolve.ts.
 */
import type { FamilyReader } from "../types.ts";
import { readBart } from "./bart.ts";
import { readBert } from "./bert.ts";
import { readClip } from "./clip.ts";
import { readDebertaV2 } from "./deberta-v2.ts";
// ---- E2's family reader imports go here (deepseek_v3, qwen3_moe, qwen3_vl, llama4, gemma4, ...) ----
import { readDeepseekV3, readDeepseekV32, readKimiK2 } from "./deepseek.ts";
import { readGemma4 } from "./gemma4.ts";
import { readGlmMoeDsa } from "./glm-moe-dsa.ts";
import { readGptOss } from "./gpt-oss.ts";
import { readGpt2 } from "./gpt2.ts";
import { readKimiK25 } from "./kimi-k25.ts";
import { readLlama } from "./llama.ts";
import { readLlama4 } from "./llama4.ts";
import { readLlava, readLlavaNext } from "./llava.ts";
import { readMimo } from "./mimo.ts";
import { readMistral } from "./mistral.ts";
import { readMistral3 } from "./mistral3.ts";
import { readModernBert } from "./modernbert.ts";
import { readNemotronH } from "./nemotron-h.ts";
import { readNemotronNas } from "./nemotron-nas.ts";
import { readPhi } from "./phi.ts";
import { readQwen2 } from "./qwen2.ts";
import { readQwen2Vl, readQwen25Vl } from "./qwen2-vl.ts";
import { readQwen3 } from "./qwen3.ts";
import { readQwen35, readQwen35Moe } from "./qwen3-5.ts";
import { readQwen3Asr } from "./qwen3-asr.ts";
import { readMinimaxM2, readMixtral, readQwen3Moe } from "./qwen3-moe.ts";
import { readQwen3Vl, readQwen3VlMoe } from "./qwen3-vl.ts";
import { readRoberta } from "./roberta.ts";
import { readStep3p7 } from "./step3p7.ts";
import { readMt5, readT5, readUmt5 } from "./t5.ts";
import { readHubert, readWav2Vec2 } from "./wav2vec2.ts";
import { readWhisper } from "./whisper.ts";
import { readXlmRoberta, readXlmRobertaXl } from "./xlm-roberta.ts";
// ---- end of E2's imports ----

/** model_type -> reader. */
export const FAMILY_READERS: Record<string, FamilyReader> = {
  llama: readLlama,
  mistral: readMistral,
  qwen2: readQwen2,
  qwen3: readQwen3,
  mimo: readMimo,
  phi: readPhi,
  gpt2: readGpt2,
  bert: readBert,
  roberta: readRoberta,
  bart: readBart,
  whisper: readWhisper,
  clip: readClip,
  "nemotron-nas": readNemotronNas,
  // ---- E2's registrations go here, one line each: model_type: reader ----
  qwen3_moe: readQwen3Moe,
  mixtral: readMixtral,
  minimax_m2: readMinimaxM2,
  deepseek_v3: readDeepseekV3,
  deepseek_v32: readDeepseekV32,
  kimi_k2: readKimiK2,
  glm_moe_dsa: readGlmMoeDsa,
  qwen3_vl: readQwen3Vl,
  qwen3_vl_moe: readQwen3VlMoe,
  gpt_oss: readGptOss,
  qwen3_asr: readQwen3Asr,
  qwen3_5: readQwen35,
  qwen3_5_moe: readQwen35Moe,
  kimi_k25: readKimiK25,
  llama4: readLlama4,
  gemma4: readGemma4,
  nemotron_h: readNemotronH,
  step3p7: readStep3p7,
  // ---- end of E2's registrations ----
  t5: readT5,
  mt5: readMt5,
  umt5: readUmt5,
  modernbert: readModernBert,
  "xlm-roberta": readXlmRoberta,
  "xlm-roberta-xl": readXlmRobertaXl,
  "deberta-v2": readDebertaV2,
  wav2vec2: readWav2Vec2,
  hubert: readHubert,
  qwen2_vl: readQwen2Vl,
  qwen2_5_vl: readQwen25Vl,
  llava: readLlava,
  llava_next: readLlavaNext,
  mistral3: readMistral3,
};

/** The reader for a model_type, or undefined. */
export function readerFor(modelType: string): FamilyReader | undefined {
  return Object.hasOwn(FAMILY_READERS, modelType) ? FAMILY_READERS[modelType] : undefined;
}
