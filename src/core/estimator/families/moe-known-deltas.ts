/**
 * Stored-minus-derived scalars of the MoE / MLA / hybrid / multimodal fixtures, with the reason, in
 * the shape of ../known-deltas.ts (meant to be spread into KNOWN_DELTAS). Every entry but the two
 * marked "unexplained" is reproduced exactly by the family tests (deepseek/moe/multimodal.test.ts).
 */
import type { KnownDelta } from "../known-deltas.ts";

export const MOE_KNOWN_DELTAS: Record<string, KnownDelta> = {
  "Qwen__Qwen3-ASR-1.7B__abridged": {
    scalars: 151936 * 2048,
    reason: "tied embedding stored twice (thinker.lm_head.weight, seed 000)",
  },
  "google__gemma-4-26B-A4B": {
    scalars: 262144 * 2816,
    reason: "one more vocab x hidden matrix (tied embedding stored twice, inferred: no header here)",
  },
  "deepseek-ai__DeepSeek-V3": {
    scalars: 41_540_496,
    reason: "fp8 128x128 weight_scale_inv of every layer and MTP linear (not router, eh_proj)",
  },
  "deepseek-ai__DeepSeek-R1": {
    scalars: 41_540_496,
    reason: "fp8 128x128 weight_scale_inv of every layer and MTP linear (not router, eh_proj)",
  },
  "deepseek-ai__DeepSeek-V3.2": {
    scalars: 41_591_584,
    reason: "fp8 128x128 weight_scale_inv (also indexer wq_b/wk; not router, eh_proj, weights_proj)",
  },
  "MiniMaxAI__MiniMax-M2.5": {
    scalars: 13_880_064,
    reason: "third-party total includes the fp8 128x128 scales of every linear (M2.7's excludes them)",
  },
  "moonshotai__Kimi-K2.5": {
    scalars: 31_710_044_160,
    reason:
      "int4 experts: bf16 scale per 32 weights + weight_shape [2] int32 counted 8x like the packed weights",
  },
  "moonshotai__Kimi-K2-Instruct": {
    scalars: 3416,
    reason:
      "unexplained (61 x 56, one tiny tensor per layer?); the fp8 scales are not in this total; medium confidence",
  },
  "Qwen__Qwen3-30B-A3B-FP8": {
    scalars: -210_944,
    reason: "unexplained; third-party total of low confidence (bf16 sibling matches exactly)",
  },
};
