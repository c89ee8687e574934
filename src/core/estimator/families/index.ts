/**
 * Family registry: config model_type -> reader. Readers live one per file in this folder and share
 * blocks.ts (attention, MLPs, norms, embeddings, heads, KV entries) and dense-decoder.ts.
 * Resolution (model_type, then architectures, then the generic fallback) is in ../resolve.ts.
 */
import type { FamilyReader } from "../types.ts";
import { readLlama } from "./llama.ts";
import { readMistral } from "./mistral.ts";
import { readQwen2 } from "./qwen2.ts";
import { readQwen3 } from "./qwen3.ts";

// ---- E2's family reader imports go here (deepseek_v3, qwen3_moe, qwen3_vl, llama4, gemma4, ...) ----
// ---- end of E2's imports ----

/** model_type -> reader. */
export const FAMILY_READERS: Record<string, FamilyReader> = {
  llama: readLlama,
  mistral: readMistral,
  qwen2: readQwen2,
  qwen3: readQwen3,
  // ---- E2's registrations go here, one line each: model_type: reader ----
  // ---- end of E2's registrations ----
};

/** The reader for a model_type, or undefined. */
export function readerFor(modelType: string): FamilyReader | undefined {
  return Object.hasOwn(FAMILY_READERS, modelType) ? FAMILY_READERS[modelType] : undefined;
}
