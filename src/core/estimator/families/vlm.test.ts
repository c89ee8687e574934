import { describe, expect, it } from "vitest";
import {
  modelFixture as fixture,
  type RawConfig,
  readConfig as read,
} from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import { countParams } from "../params.ts";

describe("qwen2_5_vl / llava against published totals", () => {
  for (const dir of ["Qwen__Qwen2.5-VL-7B-Instruct", "llava-hf__llava-1.5-7b-hf"]) {
    it(`${dir}: derived == published`, () => {
      const { config, truth } = fixture(dir);
      expect(estimate(config).params.total).toBe(truth);
    });
  }
});

describe("qwen2_vl / qwen2_5_vl", () => {
  const q25 = fixture("Qwen__Qwen2.5-VL-7B-Instruct").config;

  it("reads the vision tower (not qwen2 by prefix): vision + text towers, one KV entry per text layer, M-RoPE in-line", () => {
    const r = read(q25);
    expect(r.towers.map((t) => [t.name, t.role])).toEqual([
      ["vision", "vision"],
      ["text", "decoder"],
    ]);
    expect(r.kvLayers).toHaveLength(28);
    expect(r.kvLayers[0]).toEqual({ kind: "full", bytesPerToken: 2 * 4 * 128 * 2 });
    expect(r.towers[1]!.nodes[1]).toMatchObject({ name: "RoPE", type: "M-RoPE" });
    expect(r.towers[0]!.seqLen).toBe(256); // 224 x 224 at patch 14
  });

  it("Qwen2.5-VL: window attention except fullatt_block_indexes; RMSNorm blocks; merger into the text width", () => {
    const vision = read(q25).towers[0]!;
    const attn = vision.nodes.filter((n) => n.name.includes("Attention_"));
    expect(attn.filter((n) => n.type === "Full Attn").map((n) => n.layer)).toEqual([8, 16, 24, 32]);
    expect(attn.filter((n) => n.type === "Window Attn (112 px)")).toHaveLength(28);
    expect(vision.nodes.find((n) => n.name === "vision.RMSNorm_1_1")!.params).toBe(1280);
    expect(vision.nodes.at(-1)).toMatchObject({ name: "vision.Merger", shape: [64, 3584] });
  });

  it("Qwen2-VL: LayerNorm blocks, fc1/fc2 MLP of embed_dim x mlp_ratio, merger width hidden_size", () => {
    const { rope_scaling: _r, vision_config: _v, ...text } = q25;
    const qwen2vl: RawConfig = {
      ...text,
      model_type: "qwen2_vl",
      vision_config: {
        depth: 32,
        embed_dim: 1280,
        mlp_ratio: 4,
        num_heads: 16,
        hidden_size: 3584,
        patch_size: 14,
      },
    };
    const vision = read(qwen2vl).towers[0]!;
    expect(vision.nodes.find((n) => n.name === "vision.FFN_1")).toMatchObject({
      type: "GELU MLP",
      params: 2 * 1280 * 5120 + 5120 + 1280,
    });
    expect(vision.nodes.find((n) => n.name === "vision.LayerNorm_1_1")!.params).toBe(2 * 1280);
    expect(vision.nodes.at(-1)!.shape).toEqual([64, 3584]);
  });

  it("a nested text_config takes Qwen2Config's defaults for what it omits", () => {
    const nested = {
      model_type: "qwen2_5_vl",
      vision_config: q25.vision_config,
      text_config: {
        hidden_size: 3584,
        intermediate_size: 18944,
        num_hidden_layers: 28,
        num_attention_heads: 28,
        num_key_value_heads: 4,
        vocab_size: 152064,
      },
    };
    const r = read(nested);
    expect(r.contextLength).toBe(32768);
    expect(countParams(r).towers.text).toBe(countParams(read(q25)).towers.text);
  });
});

describe("llava / llava_next / mistral3", () => {
  const llava = fixture("llava-hf__llava-1.5-7b-hf").config;

  it("llava: CLIP vision tower, projector and a Llama decoder from LlamaConfig's defaults", () => {
    const r = read(llava);
    expect(r.towers.map((t) => [t.name, t.role])).toEqual([
      ["vision", "vision"],
      ["projector", "projector"],
      ["text", "decoder"],
    ]);
    expect(r.towers[0]!.seqLen).toBe(577); // (336 / 14)^2 patches + class token
    expect(r.towers[1]!.nodes.map((n) => n.params)).toEqual([1024 * 4096 + 4096, 4096 * 4096 + 4096]);
    expect(r.kvLayers).toHaveLength(32);
    expect(r.contextLength).toBe(4096);
    expect(r.tiedEmbedding).toBe(false);
  });

  it("llava_next adds image_newline and sizes the tower for the anyres crops", () => {
    const next = read({
      ...llava,
      model_type: "llava_next",
      architectures: ["LlavaNextForConditionalGeneration"],
    });
    expect(countParams(next).total - countParams(read(llava)).total).toBe(4096);
    expect(next.towers[0]!.seqLen).toBe(5 * 577); // base + 2 x 2 tiles of the 672 x 672 pinpoint
    expect(next.warnings.join(" ")).toMatch(/5 crops/);
  });

  it("a SigLIP vision_config gets a SigLIP tower (patch conv bias, no class token, pooling head)", () => {
    const siglip = {
      model_type: "siglip_vision_model",
      hidden_size: 1152,
      intermediate_size: 4304,
      num_hidden_layers: 27,
      num_attention_heads: 16,
      image_size: 384,
      patch_size: 14,
    };
    const vision = read({ ...llava, vision_config: siglip }).towers[0]!;
    expect(vision.seqLen).toBe(729);
    expect(vision.nodes[0]!.params).toBe(3 * 14 * 14 * 1152 + 1152);
    expect(vision.nodes.at(-1)!.name).toBe("vision.PoolingHead");
    const noHead = read({ ...llava, vision_config: { ...siglip, vision_use_head: false } }).towers[0]!;
    expect(noHead.nodes.at(-1)!.name).toBe("vision.LayerNorm_final");
  });

  it("mistral3 without sub-configs is Mistral3Config's defaults: Pixtral tower, patch merger, Mistral text", () => {
    const r = read({ model_type: "mistral3", architectures: ["Mistral3ForConditionalGeneration"] });
    expect(r.towers.map((t) => t.name)).toEqual(["vision", "projector", "text"]);
    const vision = r.towers[0]!;
    expect(vision.nodes.filter((n) => n.type === "SwiGLU")).toHaveLength(24);
    expect(vision.nodes[0]!.params).toBe(3 * 14 * 14 * 1024); // patch_conv has no bias
    expect(r.towers[1]!.nodes.map((n) => n.name)).toEqual([
      "projector.RMSNorm",
      "projector.PatchMerger",
      "projector.Linear_1",
      "projector.Linear_2",
    ]);
    expect(r.towers[1]!.nodes[1]!.params).toBe(4 * 1024 * 1024);
    expect(r.kvLayers).toHaveLength(40);
    expect(r.kvLayers[0]).toEqual({ kind: "full", bytesPerToken: 2 * 8 * 128 * 2 });
  });
});
