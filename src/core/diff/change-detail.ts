import { z } from "zod";
import type { ChatTemplateDiff } from "./chat-diff.ts";
import type { ComponentSwap } from "./diffusers.ts";
import type { GgufFileDiff } from "./gguf.ts";
import type { FlatChange } from "./json.ts";
import type { TokenizerSummaryDiff } from "./tokenizer.ts";
import type { WeightsDiff, WeightsSummary } from "./weights.ts";

/**
 * What a `changes` row's `detail` holds, told apart by `type`: the change builders write these
 * and the views read them, nothing else guesses at a shape.
 */
export type ChangeDetail =
  /** A JSON file's leaf changes (config.json, generation_config.json, tokenizer_config.json, ...). */
  | { type: "json"; changes: FlatChange[] }
  /** The JSON file does not parse (`side`: which version). */
  | { type: "invalid_json"; side: "before" | "after" }
  /** tokenizer.json, through its stored summary. */
  | ({ type: "tokenizer" } & TokenizerSummaryDiff)
  /** One named chat template: source diff, rendered prompts and verdict. */
  | ({ type: "chat_template" } & ChatTemplateDiff)
  /** All safetensors files together: tensor changes plus both summaries. */
  | ({ type: "weights" } & WeightsDiff & { before: WeightsSummary; after: WeightsSummary })
  | { type: "weights_added"; after: WeightsSummary }
  | { type: "weights_removed"; before: WeightsSummary }
  /** One GGUF file added or removed: its quant, parameters, weight bytes and tensor counts per type. */
  | {
      type: "gguf_file";
      quant: string;
      params: number;
      weight_bytes: number;
      tensor_types: Record<string, number>;
    }
  /** One GGUF file changed: tensors added, removed, reshaped or retyped, and its metadata's leaf changes. */
  | ({ type: "gguf_remade" } & GgufFileDiff)
  /** A diffusers pipeline component swapped (library or class), added or removed in model_index.json. */
  | ({ type: "component_swap" } & ComponentSwap);

type ChangeDetailType = ChangeDetail["type"];

const CHANGE_DETAIL_TYPES = [
  "json",
  "invalid_json",
  "tokenizer",
  "chat_template",
  "weights",
  "weights_added",
  "weights_removed",
  "gguf_file",
  "gguf_remade",
  "component_swap",
] as const satisfies readonly ChangeDetailType[];

const Tagged = z.object({ type: z.enum(CHANGE_DETAIL_TYPES) });

/**
 * A stored `detail` as a ChangeDetail, or null when it carries no known tag (none recorded, or a row
 * written before details were tagged: the revision's next reprocessing rewrites it). The builders are
 * the only writers, so the tag decides the shape.
 */
export function readChangeDetail(stored: unknown): ChangeDetail | null {
  return Tagged.safeParse(stored).success ? (stored as ChangeDetail) : null;
}
