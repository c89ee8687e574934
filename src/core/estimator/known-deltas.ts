/**
 * Scalars some published checkpoints hold beyond the model's parameters, per fixture folder, with the reason.
 * Used by the truth tests and the bench table; a delta not explained here is a reader defect.
 */
import { MOE_KNOWN_DELTAS } from "./families/moe-known-deltas.ts";

export type KnownDelta = { scalars: number; reason: string };

export const KNOWN_DELTAS: Record<string, KnownDelta> = {
  ...MOE_KNOWN_DELTAS,
  "FacebookAI__roberta-base": { scalars: 514, reason: "embeddings.position_ids buffer (I64, 514)" },
  "cross-encoder__ms-marco-MiniLM-L6-v2": { scalars: 512, reason: "position_ids buffer (I64, 512)" },
  "cross-encoder__ms-marco-TinyBERT-L2-v2": { scalars: 512, reason: "position_ids buffer (I64, 512)" },
  "sentence-transformers__all-MiniLM-L6-v2": { scalars: 512, reason: "position_ids buffer (I64, 512)" },
  "openai-community__gpt2": {
    scalars: 12 * 1024 * 1024,
    reason: "12 h.N.attn.bias causal-mask buffers (1024 x 1024)",
  },
  "distilbert__distilroberta-base": {
    scalars: 768 * 768 + 768,
    reason: "pooler stored, though RobertaForMaskedLM builds none",
  },
  "openai-community__roberta-base-openai-detector": {
    scalars: 768 * 768 + 768,
    reason: "pooler stored, though RobertaForSequenceClassification builds none",
  },
  "Qwen__Qwen3-0.6B": { scalars: 151936 * 1024, reason: "tied embedding stored twice (lm_head.weight)" },
  "Qwen__Qwen3-1.7B": { scalars: 151936 * 2048, reason: "tied embedding stored twice (lm_head.weight)" },
};
