/**
 * Family registry: config model_type -> reader. Readers live one per file in this folder and share
 * blocks.ts (attention, MLPs, norms, embeddings, heads, KV entries) and dense-decoder.ts.
 * Resolution (model_type, then architectures, then the generic fallback) is in ../resolve.ts.
 */
import type { FamilyReader } from "../types.ts";
import { readBamba } from "./bamba.ts";
import { readBart } from "./bart.ts";
import { readBert } from "./bert.ts";
import { readClip, readClipText } from "./clip.ts";
import { readCohere, readCohere2 } from "./cohere.ts";
import { readDebertaV2 } from "./deberta-v2.ts";
import { readDeepseekV3, readDeepseekV32, readKimiK2 } from "./deepseek.ts";
import { readFalcon } from "./falcon.ts";
import { readFalconH1 } from "./falcon-h1.ts";
import { readGemma2, readGemma3, readGemma3Text } from "./gemma.ts";
import { readGemma4 } from "./gemma4.ts";
import { readGlmMoeDsa } from "./glm-moe-dsa.ts";
import { readGptOss } from "./gpt-oss.ts";
import { readGpt2 } from "./gpt2.ts";
import { readGranite } from "./granite.ts";
import { readGraniteMoe, readGraniteMoeHybrid, readGraniteMoeShared } from "./granite-moe.ts";
import { readInternlm, readInternlm2, readInternlm3 } from "./internlm.ts";
import { readJamba } from "./jamba.ts";
import { readKimiK25 } from "./kimi-k25.ts";
import { readLlama } from "./llama.ts";
import { readLlama4 } from "./llama4.ts";
import { readLlava, readLlavaNext } from "./llava.ts";
import { readMamba, readMamba2 } from "./mamba.ts";
import { readMimo } from "./mimo.ts";
import { readMistral } from "./mistral.ts";
import { readMistral3 } from "./mistral3.ts";
import { readModernBert } from "./modernbert.ts";
import { readNemotronH } from "./nemotron-h.ts";
import { readNemotronNas } from "./nemotron-nas.ts";
import { readOlmo2, readOlmo3 } from "./olmo.ts";
import { readPhi } from "./phi.ts";
import { readPhi3 } from "./phi3.ts";
import { readPhimoe } from "./phimoe.ts";
import { readQwen2 } from "./qwen2.ts";
import { readQwen2Moe } from "./qwen2-moe.ts";
import { readQwen2Vl, readQwen25Vl } from "./qwen2-vl.ts";
import { readQwen3 } from "./qwen3.ts";
import { readQwen35, readQwen35Moe } from "./qwen3-5.ts";
import { readQwen3Asr } from "./qwen3-asr.ts";
import { readMinimaxM2, readMixtral, readQwen3Moe } from "./qwen3-moe.ts";
import { readQwen3Next } from "./qwen3-next.ts";
import { readQwen3Vl, readQwen3VlMoe } from "./qwen3-vl.ts";
import { readRoberta } from "./roberta.ts";
import { readSiglip, readSiglip2, readSiglip2Vision, readSiglipVision } from "./siglip.ts";
import { readStarcoder2 } from "./starcoder2.ts";
import { readStep3p7 } from "./step3p7.ts";
import { readMt5, readT5, readUmt5 } from "./t5.ts";
import { readHubert, readWav2Vec2 } from "./wav2vec2.ts";
import { readWhisper } from "./whisper.ts";
import { readXlmRoberta, readXlmRobertaXl } from "./xlm-roberta.ts";

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
  clip_text_model: readClipText,
  "nemotron-nas": readNemotronNas,
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
  qwen2_moe: readQwen2Moe,
  qwen3_next: readQwen3Next,
  phimoe: readPhimoe,
  granitemoe: readGraniteMoe,
  granitemoeshared: readGraniteMoeShared,
  granitemoehybrid: readGraniteMoeHybrid,
  mamba: readMamba,
  falcon_mamba: readMamba,
  mamba2: readMamba2,
  jamba: readJamba,
  falcon_h1: readFalconH1,
  bamba: readBamba,
  gemma2: readGemma2,
  gemma3_text: readGemma3Text,
  gemma3: readGemma3,
  siglip: readSiglip,
  siglip2: readSiglip2,
  siglip_vision_model: readSiglipVision,
  siglip2_vision_model: readSiglip2Vision,
  phi3: readPhi3,
  falcon: readFalcon,
  RefinedWeb: readFalcon,
  RefinedWebModel: readFalcon,
  olmo2: readOlmo2,
  olmo3: readOlmo3,
  starcoder2: readStarcoder2,
  cohere: readCohere,
  cohere2: readCohere2,
  granite: readGranite,
  internlm: readInternlm,
  internlm2: readInternlm2,
  internlm3: readInternlm3,
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
