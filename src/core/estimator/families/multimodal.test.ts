import { describe, expect, it } from "vitest";
import {
  modelFixture as fixture,
  type RawConfig,
  readConfig as read,
} from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import { countParams } from "../params.ts";

type Raw = RawConfig;

describe("qwen3_vl / qwen3_vl_moe: vision tower with deepstack mergers", () => {
  for (const dir of [
    "Qwen__Qwen3-VL-2B-Instruct",
    "Qwen__Qwen3-VL-4B-Instruct",
    "Qwen__Qwen3-VL-32B-Instruct",
    "Qwen__Qwen3-VL-235B-A22B-Instruct",
  ]) {
    it(`${dir}: derived == stored`, () => {
      const { config, truth } = fixture(dir);
      expect(estimate(config).params.total).toBe(truth);
    });
  }

  it("seed 003's defect is gone: Qwen3-VL-2B's vision tower is reconstructed (406,957,056)", () => {
    const r = read(fixture("Qwen__Qwen3-VL-2B-Instruct").config);
    expect(r.towers.map((t) => [t.name, t.role])).toEqual([
      ["vision", "vision"],
      ["text", "decoder"],
    ]);
    const vision = r.towers[0]!;
    expect(countParams(r).towers.vision).toBe(406_957_056);
    expect(vision.seqLen).toBe(196); // 224 x 224 at patch 16
    expect(vision.nodes.filter((n) => n.type === "Patch Merger")).toHaveLength(4); // merger + 3 deepstack
    expect(vision.nodes.filter((n) => n.type === "Self Attention")).toHaveLength(24);
    // fused qkv (as stored), then proj: two LoRA linears per block
    expect(vision.nodes.find((n) => n.type === "Self Attention")?.linears).toEqual([
      { in: 1024, out: 3072, count: 1 },
      { in: 1024, out: 1024, count: 1 },
    ]);
    // no dead-end node: every text node is on the chain, RoPE in-line with shape [seq, hidden]
    expect(r.towers[1]!.nodes[1]).toMatchObject({ name: "RoPE", shape: [262144, 2048] });
    expect(r.tiedEmbedding).toBe(true);
  });

  it("a text layer stores the spec's SwiGLU activations: 2 x (4h + 2q + 2kv + 4I) bytes per token", () => {
    const r = read(fixture("Qwen__Qwen3-VL-2B-Instruct").config);
    const layer = r.towers[1]!.nodes.filter((n) => n.layer === 1);
    expect(layer).toHaveLength(6);
    const sum = layer.reduce((s, n) => s + n.actBytesPerToken, 0);
    expect(sum).toBe(2 * (4 * 2048 + 2 * 2048 + 2 * 1024 + 4 * 6144));
  });
});

describe("qwen3_asr: thinker audio encoder + Qwen3 text decoder (seed 000)", () => {
  it("derived + the second copy of the tied embedding == stored 2,349,217,408", () => {
    const { config, truth } = fixture("Qwen__Qwen3-ASR-1.7B__abridged");
    const e = estimate(config);
    expect(e.params.total).toBe(2_038_052_480);
    expect(e.params.tied_embedding).toBe(true);
    expect(e.params.total + 151_936 * 2048).toBe(truth);
    expect(e.params.towers).toEqual({ audio: 317_477_504, text: 1_720_574_976 });
  });

  it("the audio tower runs at 390 positions (30 one-second chunks, x8 conv stem each) with 24 LayerNorm blocks", () => {
    const r = read(fixture("Qwen__Qwen3-ASR-1.7B__abridged").config);
    const audio = r.towers[0]!;
    expect(audio.role).toBe("audio");
    expect(audio.seqLen).toBe(390);
    expect(audio.nodes.filter((n) => n.type === "Self Attention")).toHaveLength(24);
    expect(audio.nodes.at(-1)).toMatchObject({ name: "audio.Projector", shape: [390, 2048] });
  });
});

describe("llama4: interleaved dense/MoE text, vision tower + projector", () => {
  it("Llama-4-Maverick: derived == stored", () => {
    const { config, truth } = fixture("meta-llama__Llama-4-Maverick-17B-128E-Instruct");
    const e = estimate(config);
    expect(e.params.total).toBe(truth);
    expect(e.params.towers.vision).toBe(871_932_416);
  });

  it("Maverick alternates dense and MoE layers; chunked attention on 3 of 4 layers", () => {
    const r = read(fixture("meta-llama__Llama-4-Maverick-17B-128E-Instruct").config);
    const text = r.towers.find((t) => t.name === "text")!;
    expect(text.nodes.find((n) => n.name === "FFN_1")?.type).toBe("SwiGLU");
    expect(text.nodes.find((n) => n.name === "MoE_2")?.type).toBe("MoE");
    expect(r.kvLayers.filter((k) => k.kind === "sliding" && k.window === 8192)).toHaveLength(36);
  });

  it("Scout's abridged config has no vision_config: the published Llama 4 vision tower is assumed, with a warning", () => {
    const r = read(fixture("meta-llama__Llama-4-Scout-17B-16E-Instruct").config);
    expect(r.towers.map((t) => t.name)).toEqual(["vision", "text"]);
    expect(r.warnings.join(" ")).toMatch(/assumed the vision tower/);
    // the same tower Maverick's config spells out
    expect(countParams(r).towers.vision).toBe(871_932_416);
    expect(countParams(r).total).toBe(107_769_861_120 + 871_932_416);
  });
});

describe("gemma4: sliding/global text with a parallel MoE block, vision tower", () => {
  it("gemma-4-26B-A4B: derived + one vocab x hidden copy == stored (the tied embedding stored twice)", () => {
    const { config, truth } = fixture("google__gemma-4-26B-A4B");
    const e = estimate(config);
    expect(e.params.total + 262_144 * 2816).toBe(truth);
    expect(Object.keys(e.params.towers)).toEqual(["vision", "text"]);
  });

  it("global layers use global_head_dim with k = v (no v_proj); sliding layers keep a window", () => {
    const r = read(fixture("google__gemma-4-26B-A4B").config);
    expect(r.kvLayers[0]).toEqual({ kind: "sliding", bytesPerToken: 2 * 8 * 256 * 2, window: 1024 });
    expect(r.kvLayers[5]).toEqual({ kind: "full", bytesPerToken: 2 * 2 * 512 * 2 });
    const text = r.towers.find((t) => t.name === "text")!;
    const global = text.nodes.find((n) => n.name === "Attention_6")!;
    expect(global.params).toBe(2816 * 16 * 512 + 2816 * 2 * 512 + 16 * 512 * 2816 + 2 * 512);
    expect(r.towers[0]!.seqLen).toBe(280 * 9);
  });
});

describe("gemma4 E-series text (per-layer embeddings, KV-shared layers, double-wide MLP)", () => {
  const e2b = {
    model_type: "gemma4",
    text_config: {
      hidden_size: 1536,
      intermediate_size: 6144,
      num_attention_heads: 8,
      num_key_value_heads: 1,
      num_hidden_layers: 35,
      vocab_size: 262144,
      head_dim: 256,
      global_head_dim: 512,
      sliding_window: 512,
      sliding_window_pattern: 5,
      hidden_size_per_layer_input: 256,
      vocab_size_per_layer_input: 262144,
      num_kv_shared_layers: 20,
      use_double_wide_mlp: true,
      max_position_embeddings: 131072,
    },
  };

  it("shared layers keep no K/V (no cache), use a 2x MLP, and the PLE table sits beside the embedding", () => {
    const r = read(e2b);
    expect(r.kvLayers).toHaveLength(15);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(3);
    const text = r.towers[0]!;
    expect(text.nodes[1]).toMatchObject({ name: "PerLayerEmbedding" });
    expect(text.nodes[1]!.params).toBe(262144 * 35 * 256 + 1536 * 35 * 256 + 256);
    const own = text.nodes.find((n) => n.name === "Attention_1")!;
    const shared = text.nodes.find((n) => n.name === "Attention_16")!;
    expect(own.params - shared.params).toBe(2 * 1536 * 256 + 256);
    const ffn1 = text.nodes.find((n) => n.name === "FFN_1")!;
    const ffn16 = text.nodes.find((n) => n.name === "FFN_16")!;
    expect(ffn16.params - ffn1.params).toBe(3 * 1536 * 6144);
    // 5.1B-class with embeddings (text only here)
    expect(countParams(r).total).toBeGreaterThan(4.4e9);
    expect(countParams(r).total).toBeLessThan(5.1e9);
  });

  it("an audio_config adds the conformer audio tower at 750 positions (30 s) and its projector", () => {
    const audio = {
      model_type: "gemma4_audio",
      hidden_size: 1024,
      num_hidden_layers: 12,
      num_attention_heads: 8,
      output_proj_dims: 1536,
      subsampling_conv_channels: [128, 32],
      conv_kernel_size: 5,
    };
    const r = read({ ...e2b, audio_config: audio });
    expect(r.towers.map((t) => [t.name, t.role])).toEqual([
      ["audio", "audio"],
      ["text", "decoder"],
    ]);
    const tower = r.towers[0]!;
    expect(tower.seqLen).toBe(750);
    const h = 1024;
    const perLayer = 2 * (8 * h * h + 2 * h) + h + (5 * h * h + 128 + 2 * h) + (3 * h * h + 5 * h + 2 * h);
    const sub = 128 * 9 + 128 + 128 * 32 * 9 + 32 + 32 * 32 * h;
    const proj = h * 1536 + 1536 + 1536 * 1536;
    expect(countParams(r).towers.audio).toBe(12 * perLayer + sub + proj);
  });
});

describe("bad multimodal input names the key", () => {
  it("a vision hidden size not divisible by its heads is an input error, not a fractional count", () => {
    const { config } = fixture("Qwen__Qwen3-VL-2B-Instruct");
    const vision = { ...(config.vision_config as Raw), num_heads: 7 };
    expect(() => read({ ...config, vision_config: vision })).toThrow(/vision\.hidden_size/);
  });

  it("a qwen3_vl config without vision_config reads the text tower and says so", () => {
    const { config } = fixture("Qwen__Qwen3-VL-2B-Instruct");
    const r = read({ ...config, vision_config: null });
    expect(r.towers.map((t) => t.name)).toEqual(["text"]);
    expect(r.warnings.join(" ")).toMatch(/text only/);
  });
});
