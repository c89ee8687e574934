import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EstimatorInputError } from "./config-view.ts";
import { estimate } from "./estimate.ts";

const qwen3 = JSON.parse(
  readFileSync(
    new URL("../../../fixtures/models/Qwen__Qwen3-4B-Instruct-2507/config.json", import.meta.url),
    "utf8",
  ),
);

function keyOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(EstimatorInputError);
    return (err as EstimatorInputError).key;
  }
  throw new Error("expected an EstimatorInputError");
}

describe("bad inputs name the key", () => {
  it("missing keys", () => {
    const { hidden_size: _h, ...rest } = qwen3;
    expect(keyOf(() => estimate(rest))).toBe("hidden_size");
  });
  it("negative or zero layers", () => {
    expect(keyOf(() => estimate({ ...qwen3, num_hidden_layers: -3 }))).toBe("num_hidden_layers");
    expect(keyOf(() => estimate({ ...qwen3, num_hidden_layers: 0 }))).toBe("num_hidden_layers");
  });
  it("absurd vocabulary (10^13)", () => {
    expect(keyOf(() => estimate({ ...qwen3, vocab_size: 1e13 }))).toBe("vocab_size");
  });
  it("strings where numbers are", () => {
    expect(keyOf(() => estimate({ ...qwen3, intermediate_size: "9728" }))).toBe("intermediate_size");
    expect(keyOf(() => estimate({ ...qwen3, tie_word_embeddings: "yes" }))).toBe("tie_word_embeddings");
  });
  it("contradictory keys: kv heads that do not divide heads, more kv heads than heads", () => {
    expect(keyOf(() => estimate({ ...qwen3, num_key_value_heads: 5 }))).toBe("num_key_value_heads");
    expect(keyOf(() => estimate({ ...qwen3, num_key_value_heads: 64 }))).toBe("num_key_value_heads");
  });
  it("hidden not divisible by heads when head_dim is implied", () => {
    const { head_dim: _d, ...rest } = qwen3;
    expect(keyOf(() => estimate({ ...rest, num_attention_heads: 48 }))).toBe("hidden_size");
  });
  it("non-integer and non-finite numbers", () => {
    expect(keyOf(() => estimate({ ...qwen3, hidden_size: 2560.5 }))).toBe("hidden_size");
    expect(keyOf(() => estimate({ ...qwen3, hidden_size: Number.NaN }))).toBe("hidden_size");
  });
  it("nested keys carry their path", () => {
    const clip = { model_type: "clip", text_config: { hidden_size: 512 }, vision_config: {} };
    expect(keyOf(() => estimate(clip))).toMatch(/^text_config\./);
  });
  it("not an object", () => {
    expect(keyOf(() => estimate(null))).toBe("(config)");
    expect(keyOf(() => estimate([1, 2]))).toBe("(config)");
    expect(keyOf(() => estimate("config"))).toBe("(config)");
  });
  it("block_configs that disagree with num_hidden_layers", () => {
    const cfg = {
      model_type: "nemotron-nas",
      hidden_size: 64,
      num_attention_heads: 4,
      num_hidden_layers: 3,
      vocab_size: 100,
      block_configs: [{ attention: { no_op: true }, ffn: { ffn_mult: 1 } }],
    };
    expect(keyOf(() => estimate(cfg))).toBe("block_configs");
  });
});

describe("unknown model types", () => {
  it("read generically with a warning naming each guessed key", () => {
    const e = estimate({
      model_type: "zz_new",
      n_embd: 256,
      n_layer: 2,
      n_head: 4,
      intermediate_size: 1024,
      vocab_size: 1000,
    });
    expect(e.family).toBe("generic");
    const w = e.warnings.join("\n");
    expect(w).toMatch(/unknown model_type "zz_new"/);
    for (const k of ["n_embd", "n_layer", "n_head", "intermediate_size", "vocab_size"])
      expect(w).toContain(`guessed ${k}`);
  });
  it("reject aliases that disagree", () => {
    const cfg = {
      model_type: "zz_new",
      hidden_size: 256,
      n_embd: 512,
      n_layer: 2,
      n_head: 4,
      intermediate_size: 1024,
      vocab_size: 1000,
    };
    expect(keyOf(() => estimate(cfg))).toBe("n_embd");
  });
  it("never default a missing size (no 768/12)", () => {
    expect(keyOf(() => estimate({ model_type: "zz_new", vocab_size: 1000 }))).toMatch(/hidden_size/);
  });
});

describe("resolution without a known model_type", () => {
  it("uses architectures when model_type is unknown, with a warning", () => {
    const cfg = { ...qwen3, model_type: "qwen3_custom", architectures: ["Qwen3ForCausalLM"] };
    const e = estimate(cfg);
    expect(e.family).toBe("qwen3");
    expect(e.warnings[0]).toMatch(/read as qwen3 from architectures/);
    expect(e.params.total).toBe(4_022_468_096);
  });
});
