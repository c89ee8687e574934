/**
 * falcon and siglip / siglip2 read from the sizes of real Hub configs (typed in here: no config file of these
 * models was found in the searchable corpus with provenance to vendor as a fixture). Each expectation is the
 * module-by-module sum of the family's modeling file, written out independently of the reader; the test
 * names give the published totals they reproduce (llmfit's Hub-scraped parameters_raw, MTEB's metadata).
 */
import { describe, expect, it } from "vitest";
import { type RawConfig, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";

const total = (c: RawConfig) => estimate(c).params.total;

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
