import { describe, expect, it } from "vitest";
import type { BehaviorSide } from "./behavior.ts";
import { detectBehaviorChanges } from "./behavior-detect.ts";

type Files = BehaviorSide["files"];
const side = (files: Files, extra: Partial<BehaviorSide> = {}): BehaviorSide => ({
  files,
  templates: {},
  ...extra,
});

const config = {
  model_type: "qwen3",
  eos_token_id: 151645,
  max_position_embeddings: 40960,
  torch_dtype: "bfloat16",
};
const gen = {
  bos_token_id: 151643,
  eos_token_id: [151645, 151643],
  temperature: 0.6,
  transformers_version: "4.51.0",
};
const tok = {
  eos_token: "<|im_end|>",
  pad_token: { content: "<|endoftext|>", special: true },
  model_max_length: 131072,
};
const base: Files = { "config.json": config, "generation_config.json": gen, "tokenizer_config.json": tok };

describe("detectBehaviorChanges", () => {
  it("finds nothing when nothing that steers inference changed", () => {
    const after = { ...base, "generation_config.json": { ...gen, transformers_version: "4.52.0" } };
    expect(detectBehaviorChanges(side(base), side(after), [])).toEqual([]);
  });

  it("reports an EOS change across config, generation_config and tokenizer_config", () => {
    const after: Files = {
      "config.json": { ...config, eos_token_id: 151643 },
      "generation_config.json": { ...gen, eos_token_id: 151643 },
      "tokenizer_config.json": { ...tok, eos_token: { content: "<|endoftext|>", special: true } },
    };
    const [eos, ...rest] = detectBehaviorChanges(side(base), side(after), []);
    expect(rest).toEqual([]);
    expect(eos?.kind).toBe("eos_token");
    expect(eos?.summary).toBe(
      'EOS token changed: config.json eos_token_id 151645 -> 151643; generation_config.json eos_token_id [151645,151643] -> 151643; tokenizer_config.json eos_token "<|im_end|>" -> "<|endoftext|>"',
    );
    expect(eos?.detail.type).toBe("values");
    expect(eos?.detail.before).not.toBe(eos?.detail.after);
  });

  it("reports a deleted generation_config.json as token and sampling-default changes", () => {
    const after = { ...base, "generation_config.json": null };
    const kinds = detectBehaviorChanges(side(base), side(after), []).map((c) => [c.kind, c.summary]);
    expect(kinds).toEqual([
      ["eos_token", "EOS token changed: generation_config.json eos_token_id [151645,151643] -> (none)"],
      ["bos_token", "BOS token changed: generation_config.json bos_token_id 151643 -> (none)"],
      [
        "generation_defaults",
        "default generation parameters changed: generation_config.json temperature 0.6 -> (none)",
      ],
    ]);
  });

  it("never compares a file whose content is unknown on one side", () => {
    const after: Files = { "config.json": config, "tokenizer_config.json": tok }; // generation_config.json not fetched
    expect(detectBehaviorChanges(side(base), side(after), [])).toEqual([]);
  });

  it("reports context length, RoPE scaling and torch_dtype", () => {
    const rope = { rope_type: "yarn", factor: 4.0, original_max_position_embeddings: 32768 };
    const after = {
      ...base,
      "config.json": {
        ...config,
        max_position_embeddings: 131072,
        rope_scaling: rope,
        torch_dtype: "float16",
      },
    };
    const out = detectBehaviorChanges(side(base), side(after), []);
    expect(out.map((c) => c.kind)).toEqual(["context_length", "torch_dtype"]);
    expect(out[0]?.summary).toMatch(
      /^context length or RoPE scaling changed: config.json max_position_embeddings 40960 -> 131072; config.json rope_scaling \(none\) -> /,
    );
    expect(out[1]?.summary).toBe('torch_dtype changed: config.json torch_dtype "bfloat16" -> "float16"');
  });

  it("reports special tokens added to tokenizer.json or tokenizer_config.json", () => {
    const summary = (tokens: string[]) => ({
      model_type: "BPE",
      vocab_size: 300,
      added_tokens: tokens.map((content, i) => ({ id: 300 + i, content, special: true })),
      special_tokens_count: tokens.length,
      normalizer: "NFC",
      pre_tokenizer: "ByteLevel",
      merges_count: 10,
    });
    const before = side(base, { tokenizer: summary(["<|im_end|>"]) });
    const after = side(
      {
        ...base,
        "tokenizer_config.json": { ...tok, additional_special_tokens: ["<|im_end|>", "<tool_call>"] },
      },
      { tokenizer: summary(["<|im_end|>", "<think>"]) },
    );
    const [added] = detectBehaviorChanges(before, after, []);
    expect(added?.kind).toBe("added_special_tokens");
    expect(added?.summary).toBe('2 special tokens added: "<think>", "<tool_call>"');
  });

  it("turns prompt-changing template edits into one prompt change with the template states", () => {
    const before = side(base, { templates: { default: "A" } });
    const after = side(base, { templates: { default: "B", tool_use: "T" } });
    const [prompt] = detectBehaviorChanges(before, after, [
      { name: "default", status: "modified", changed: ["multi_turn", "system_user"] },
      { name: "tool_use", status: "added", changed: [] },
    ]);
    expect(prompt?.summary).toBe(
      'rendered prompt changed: chat template "default" changes 2 scenarios (multi_turn, system_user); "tool_use" added',
    );
    expect(prompt?.detail.type).toBe("prompt");
    expect(JSON.parse(prompt?.detail.after ?? "{}")).toHaveProperty("tool_use");
  });
});
