import { describe, expect, it } from "vitest";
import { type RawConfig, readConfig as read } from "../../../test/helpers/model-fixtures.ts";
import { estimate } from "./estimate.ts";
import type { KvLayer } from "./types.ts";

const total = (c: RawConfig) => estimate(c).params.total;

function windows(kv: KvLayer[]): (number | null)[] {
  return kv.map((k) => (k.kind === "sliding" ? k.window! : null));
}

describe("generic reading of an unknown model_type", () => {
  const gemmaLike = {
    model_type: "some_new_decoder",
    hidden_size: 1152,
    head_dim: 256,
    num_hidden_layers: 26,
    num_attention_heads: 4,
    num_key_value_heads: 1,
    intermediate_size: 6912,
    max_position_embeddings: 32768,
    vocab_size: 262144,
    sliding_window: 512,
    sliding_window_pattern: 6,
  };

  it("honours head_dim and the sliding pattern: gemma-3-1b's cache is not 4.3x too high", () => {
    const r = read(gemmaLike);
    expect(r.kvLayers.filter((k) => k.kind === "sliding")).toHaveLength(22);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(4);
    expect(r.kvLayers[0]!.bytesPerToken).toBe(2 * 1 * 256 * 2);
    const e = estimate(gemmaLike);
    // 22 layers capped at 512 tokens, 4 at the full 4096
    expect(e.memory.kv_cache.bytes).toBe((22 * 512 + 4 * 4096) * 2 * 256 * 2);
    expect(e.warnings.join(" ")).toMatch(/guessed head_dim = 256/);
  });

  it("honours layer_types, a per-layer sliding_window list, attention_bias and mlp_bias", () => {
    const base = { ...gemmaLike, sliding_window_pattern: undefined, num_hidden_layers: 4 };
    const typed = {
      ...base,
      layer_types: ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
    };
    expect(windows(read(typed).kvLayers)).toEqual([512, null, 512, null]);
    const listed = { ...base, sliding_window: [128, null, 256, null] };
    expect(windows(read(listed).kvLayers)).toEqual([128, null, 256, null]);
    const plain = total(base);
    expect(total({ ...base, attention_bias: true })).toBe(plain + 4 * (4 * 256 + 2 * 256 + 1152));
    expect(total({ ...base, mlp_bias: true })).toBe(plain + 4 * (2 * 6912 + 1152));
  });

  it("a sliding_window without layer kinds is cached in full, and the warning says so", () => {
    const e = estimate({ ...gemmaLike, sliding_window_pattern: undefined });
    expect(e.memory.kv_cache.breakdown).toEqual({ full: 26 * 4096 * 2 * 256 * 2 });
    expect(e.warnings.join(" ")).toMatch(/sliding_window without layer kinds/);
  });
});
