/**
 * Families read from the sizes of real Hub configs (typed in here: no config file of these models was found
 * in the searchable corpus with provenance to vendor as a fixture). Each expectation is the module-by-module
 * sum of the family's modeling file, written out independently of the reader; the comments give the
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

describe("falcon: new keys and RefinedWebModel keys read the same model", () => {
  const falcon7b = (h: number, heads: number) => {
    const d = h / heads;
    const layer = h * (h + 2 * d) + h * h + 2 * h * 4 * h + 2 * h; // multi-query qkv, dense, MLP, one LayerNorm
    return 65024 * h + 32 * layer + 2 * h;
  };

  it("falcon-7b (6,921,720,704 parameters; the Hub's 7,217,189,760 adds the stored lm_head copy)", () => {
    const modern = {
      model_type: "falcon",
      hidden_size: 4544,
      num_attention_heads: 71,
      num_hidden_layers: 32,
      multi_query: true,
      new_decoder_architecture: false,
      parallel_attn: true,
      bias: false,
      alibi: false,
      vocab_size: 65024,
    };
    const old = {
      model_type: "RefinedWebModel",
      hidden_size: 4544,
      n_head: 71,
      n_layer: 32,
      multi_query: true,
      parallel_attn: true,
      bias: false,
      alibi: false,
      vocab_size: 65024,
    };
    expect(total(modern)).toBe(falcon7b(4544, 71));
    expect(total(old)).toBe(falcon7b(4544, 71));
    const r = read(old);
    expect(r.kvLayers[0]!.bytesPerToken).toBe(2 * 1 * 64 * 2); // one k/v head
    expect(r.tiedEmbedding).toBe(true);
  });

  it("falcon-rw-1b style: ALiBi (no RoPE node), sequential layers with two LayerNorms, biases", () => {
    const c = {
      model_type: "RefinedWebModel",
      hidden_size: 2048,
      n_head: 32,
      n_layer: 24,
      multi_query: false,
      parallel_attn: false,
      bias: true,
      alibi: true,
      vocab_size: 50304,
    };
    const layer =
      2048 * 3 * 2048 + 3 * 2048 + 2048 * 2048 + 2048 + 2 * 2048 * 8192 + 8192 + 2048 + 2 * 2 * 2048;
    expect(total(c)).toBe(50304 * 2048 + 24 * layer + 2 * 2048);
    const r = read(c);
    expect(r.towers[0]!.nodes.some((n) => n.type === "RoPE")).toBe(false);
    expect(r.kvLayers[0]!.bytesPerToken).toBe(2 * 32 * 64 * 2);
  });

  it("falcon-180B: new architecture with 8 kv heads (178,557,088,768 + the stored head = the Hub's 179,522,565,120)", () => {
    const c = {
      model_type: "falcon",
      hidden_size: 14848,
      num_attention_heads: 232,
      num_kv_heads: 8,
      num_hidden_layers: 80,
      new_decoder_architecture: true,
      parallel_attn: true,
      bias: false,
      alibi: false,
      vocab_size: 65024,
    };
    const layer = 14848 * (2 * 8 + 232) * 64 + 14848 * 14848 + 2 * 14848 * 4 * 14848 + 4 * 14848;
    expect(total(c)).toBe(65024 * 14848 + 80 * layer + 2 * 14848);
  });
});

describe("siglip / siglip2 (modeling_siglip.py, modeling_siglip2.py)", () => {
  /** One pre-norm encoder layer: 2 LayerNorms, q/k/v/out with bias, fc1/fc2 with bias. */
  const layer = (h: number, i: number) => 4 * h + 4 * (h * h + h) + 2 * h * i + i + h;
  const pooling = (h: number, i: number) => h + 3 * h * h + 3 * h + h * h + h + 2 * h + 2 * h * i + i + h;

  it("siglip-so400m-patch14-384 (MTEB model metadata: 877,960,498): both towers, pooling head, logit scale + bias", () => {
    const c = {
      model_type: "siglip",
      architectures: ["SiglipModel"],
      text_config: {
        hidden_size: 1152,
        intermediate_size: 4304,
        num_attention_heads: 16,
        num_hidden_layers: 27,
      },
      vision_config: {
        hidden_size: 1152,
        image_size: 384,
        intermediate_size: 4304,
        num_attention_heads: 16,
        num_hidden_layers: 27,
        patch_size: 14,
      },
    };
    const text = 32000 * 1152 + 64 * 1152 + 27 * layer(1152, 4304) + 2 * 1152 + 1152 * 1152 + 1152;
    const patches = Math.floor(384 / 14) ** 2; // 27 x 27, the conv's valid padding drops the rest
    const vision =
      3 * 14 * 14 * 1152 + 1152 + patches * 1152 + 27 * layer(1152, 4304) + 2 * 1152 + pooling(1152, 4304);
    const e = estimate(c);
    expect(e.params.total).toBe(text + vision + 2);
    expect(e.params.towers).toEqual({ text, vision: vision + 2 });
    expect(e.warnings.join(" ")).toMatch(/text_config\.vocab_size=32000/);
  });

  it("siglip2: linear patch embedding (same count as the conv), num_patches positions; the vision model alone", () => {
    const v = {
      model_type: "siglip2_vision_model",
      hidden_size: 768,
      intermediate_size: 3072,
      num_attention_heads: 12,
      num_hidden_layers: 12,
      num_patches: 256,
      patch_size: 16,
      vision_use_head: false,
    };
    const r = read(v);
    expect(r.towers.map((t) => [t.name, t.seqLen])).toEqual([["vision", 256]]);
    expect(total(v)).toBe(3 * 16 * 16 * 768 + 768 + 256 * 768 + 12 * layer(768, 3072) + 2 * 768);
    expect(r.kvLayers).toEqual([]);
  });
});

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
