/**
 * Families read from the sizes of real Hub configs (typed in here: no config file of these models was found
 * in the searchable corpus with provenance to vendor as a fixture). Each expectation is the module-by-module
 * sum of the family's modeling file, written out independently of the reader; the test names give the
 * published total it reproduces (llmfit's Hub-scraped parameters_raw, MTEB's model metadata).
 */
import { describe, expect, it } from "vitest";
import { type RawConfig, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import type { KvLayer, ModelReading } from "../types.ts";

const total = (c: RawConfig) => estimate(c).params.total;

function windows(kv: KvLayer[]): (number | null)[] {
  return kv.map((k) => (k.kind === "sliding" ? k.window! : null));
}

function nodeOf(r: ModelReading, name: string) {
  for (const t of r.towers) for (const n of t.nodes) if (n.name === name) return n;
  throw new Error(`no node ${name}`);
}

/** Llama-shaped attention + SwiGLU parameter sums. */
const attn = (h: number, heads: number, kv: number, d: number) => 2 * h * heads * d + 2 * h * kv * d;
const swiglu = (h: number, i: number) => 3 * h * i;

describe("starcoder2 (modeling_starcoder2.py): GELU MLP with biases, LayerNorms with bias, tied head", () => {
  const sc = (h: number, layers: number, heads: number, kv: number, inter: number): RawConfig => ({
    model_type: "starcoder2",
    architectures: ["Starcoder2ForCausalLM"],
    hidden_size: h,
    num_hidden_layers: layers,
    num_attention_heads: heads,
    num_key_value_heads: kv,
    intermediate_size: inter,
    max_position_embeddings: 16384,
    sliding_window: 4096,
    use_bias: true,
    vocab_size: 49152,
  });
  const expected = (h: number, layers: number, heads: number, kv: number, inter: number) => {
    const d = h / heads;
    const a = attn(h, heads, kv, d) + heads * d + 2 * kv * d + h; // q/k/v/o biases
    const mlp = 2 * h * inter + inter + h; // c_fc, c_proj with biases
    return 49152 * h + layers * (a + mlp + 4 * h) + 2 * h;
  };

  it("starcoder2-3b and -7b (published 3,030,371,328 and 7,173,923,840)", () => {
    expect(total(sc(3072, 30, 24, 2, 12288))).toBe(expected(3072, 30, 24, 2, 12288));
    expect(total(sc(4608, 32, 36, 4, 18432))).toBe(expected(4608, 32, 36, 4, 18432));
  });

  it("the MLP is fc1 -> GELU -> fc2, not SwiGLU; every layer's cache is windowed", () => {
    const r = read(sc(3072, 30, 24, 2, 12288));
    expect(nodeOf(r, "FFN_1").type).toBe("GELU MLP");
    expect(nodeOf(r, "FFN_1").linears).toHaveLength(2);
    expect(windows(r.kvLayers)).toEqual(Array(30).fill(4096));
  });
});

describe("olmo2 / olmo3: post-norms, whole-projection q/k norms, untied head", () => {
  const olmo = (
    type: string,
    h: number,
    layers: number,
    heads: number,
    kv: number,
    inter: number,
    vocab: number,
  ) => ({
    model_type: type,
    hidden_size: h,
    num_hidden_layers: layers,
    num_attention_heads: heads,
    num_key_value_heads: kv,
    intermediate_size: inter,
    max_position_embeddings: 4096,
    tie_word_embeddings: false,
    vocab_size: vocab,
  });
  const expected = (h: number, layers: number, heads: number, kv: number, inter: number, vocab: number) => {
    const d = h / heads;
    const layer = attn(h, heads, kv, d) + heads * d + kv * d + swiglu(h, inter) + 2 * h;
    return 2 * vocab * h + layers * layer + h;
  };

  it("OLMo-2-0425-1B and OLMo-2-0325-32B (published 1,484,916,736 and 32,234,279,936)", () => {
    expect(total(olmo("olmo2", 2048, 16, 16, 16, 8192, 100352))).toBe(
      expected(2048, 16, 16, 16, 8192, 100352),
    );
    expect(total(olmo("olmo2", 5120, 64, 40, 8, 27648, 100352))).toBe(
      expected(5120, 64, 40, 8, 27648, 100352),
    );
  });

  it("Olmo-3-1025-7B (published 7,298,011,136): three sliding layers per full one, window 4096", () => {
    const c = { ...olmo("olmo3", 4096, 32, 32, 32, 11008, 100278), sliding_window: 4096 };
    expect(total(c)).toBe(expected(4096, 32, 32, 32, 11008, 100278));
    const w = windows(read(c).kvLayers);
    expect(w.slice(0, 8)).toEqual([4096, 4096, 4096, null, 4096, 4096, 4096, null]);
    expect(w.filter((x) => x === null)).toHaveLength(8);
  });

  it("the norm comes after the attention, before the add", () => {
    const names = read(olmo("olmo2", 2048, 16, 16, 16, 8192, 100352))
      .towers[0]!.nodes.filter((n) => n.layer === 1)
      .map((n) => n.name);
    expect(names).toEqual([
      "Attention_1",
      "RMSNorm_1_attn",
      "Add_1_attn",
      "FFN_1",
      "RMSNorm_1_ffn",
      "Add_1_ffn",
    ]);
  });
});

describe("cohere / cohere2: one bias-free LayerNorm feeding attention and MLP in parallel, tied head", () => {
  const cohere = (type: string, extra: RawConfig): RawConfig => ({
    model_type: type,
    hidden_size: 4096,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    intermediate_size: 14336,
    max_position_embeddings: 8192,
    vocab_size: 256000,
    ...extra,
  });
  const base = 256000 * 4096 + 32 * (attn(4096, 32, 8, 128) + swiglu(4096, 14336) + 4096) + 4096;

  it("aya-23-8B (published 8,028,033,024); use_qk_norm adds heads x head_dim and kv x head_dim weights", () => {
    expect(total(cohere("cohere", { use_qk_norm: false }))).toBe(base);
    expect(total(cohere("cohere", { use_qk_norm: true }))).toBe(base + 32 * (32 * 128 + 8 * 128));
  });

  it("cohere2 (Command-R7B): no q/k norms; every fourth layer full, the others windowed", () => {
    const c = cohere("cohere2", { sliding_window: 4096, sliding_window_pattern: 4 });
    expect(total(c)).toBe(base);
    const w = windows(read(c).kvLayers);
    expect(w.slice(0, 4)).toEqual([4096, 4096, 4096, null]);
    expect(
      read(c)
        .towers[0]!.nodes.filter((n) => n.layer === 1)
        .map((n) => n.type),
    ).toEqual(["LayerNorm (no bias)", "Grouped Query Attn", "SwiGLU (parallel)", "Add"]);
  });
});

describe("granite, internlm2, internlm3", () => {
  it("granite-3.3-8b (published 8,170,864,640): Llama layers, tied, multipliers add nothing", () => {
    const c = {
      model_type: "granite",
      hidden_size: 4096,
      num_hidden_layers: 40,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      intermediate_size: 12800,
      max_position_embeddings: 131072,
      tie_word_embeddings: true,
      vocab_size: 49159,
      embedding_multiplier: 12.0,
      residual_multiplier: 0.22,
      attention_multiplier: 0.0078125,
      logits_scaling: 16.0,
    };
    expect(total(c)).toBe(
      49159 * 4096 + 40 * (attn(4096, 32, 8, 128) + swiglu(4096, 12800) + 2 * 4096) + 4096,
    );
  });

  it("internlm2-chat-20b (published 19,861,149,696): fused wqkv, untied output; `bias` defaults to true", () => {
    const c: RawConfig = {
      model_type: "internlm2",
      bias: false,
      hidden_size: 6144,
      num_hidden_layers: 48,
      num_attention_heads: 48,
      num_key_value_heads: 8,
      intermediate_size: 16384,
      max_position_embeddings: 32768,
      vocab_size: 92544,
    };
    const noBias = 2 * 92544 * 6144 + 48 * (attn(6144, 48, 8, 128) + swiglu(6144, 16384) + 2 * 6144) + 6144;
    expect(total(c)).toBe(noBias);
    expect(nodeOf(read(c), "Attention_1").linears![0]).toEqual({ in: 6144, out: (48 + 16) * 128, count: 1 });
    const { bias: _b, ...defaulted } = c;
    expect(total(defaulted)).toBe(noBias + 48 * ((48 + 16) * 128 + 6144));
  });

  it("model_type internlm: InternLM v1 (q/k/v/o with `bias`, default true) unless the architectures say InternLM2", () => {
    const v1: RawConfig = {
      model_type: "internlm",
      architectures: ["InternLMForCausalLM"],
      hidden_size: 4096,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      intermediate_size: 11008,
      max_position_embeddings: 2048,
      vocab_size: 103168,
    };
    const layer = attn(4096, 32, 32, 128) + 4 * 4096 + swiglu(4096, 11008) + 2 * 4096;
    expect(estimate(v1).family).toBe("internlm");
    expect(total(v1)).toBe(2 * 103168 * 4096 + 32 * layer + 4096);
    const v2 = { ...v1, architectures: ["InternLM2ForCausalLM"], bias: false, num_key_value_heads: 8 };
    expect(estimate(v2).family).toBe("internlm2");
  });

  it("internlm3: q/k/v bias from qkv_bias, o_proj and MLP bias from bias, head_dim from the config", () => {
    const c: RawConfig = {
      model_type: "internlm3",
      hidden_size: 4096,
      head_dim: 128,
      num_hidden_layers: 48,
      num_attention_heads: 32,
      num_key_value_heads: 2,
      intermediate_size: 10240,
      max_position_embeddings: 32768,
      vocab_size: 128512,
      qkv_bias: false,
      bias: false,
    };
    const plain = 2 * 128512 * 4096 + 48 * (attn(4096, 32, 2, 128) + swiglu(4096, 10240) + 2 * 4096) + 4096;
    expect(total(c)).toBe(plain);
    expect(total({ ...c, qkv_bias: true })).toBe(plain + 48 * (32 * 128 + 2 * 2 * 128));
  });
});
