import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  modelFixture as fixture,
  MODEL_FIXTURES,
  readConfig as read,
} from "../../../../test/helpers/model-fixtures.ts";
import { configView } from "../config-view.ts";
import { estimate } from "../estimate.ts";
import { countParams, loraParams } from "../params.ts";
import type { ModelReading, StructureNode } from "../types.ts";
import { qwen3NextMtpLayerParams } from "./qwen3-next.ts";

type Truth = { params_total: number | null; stored_mtp_layers_not_in_config?: number };
const truthOf = (dir: string): Truth =>
  JSON.parse(readFileSync(new URL(`${dir}/truth.json`, MODEL_FIXTURES), "utf8")) as Truth;
const nodes = (r: ModelReading): StructureNode[] => r.towers.flatMap((t) => t.nodes);
const ofType = (r: ModelReading, type: string) => nodes(r).filter((n) => n.type === type);

describe("published checkpoints of the MoE / state-space / hybrid families", () => {
  for (const dir of [
    "Qwen__Qwen1.5-MoE-A2.7B-Chat",
    "Qwen__Qwen3-Next-80B-A3B-Instruct",
    "state-spaces__mamba-130m-hf",
  ]) {
    it(`${dir}: derived + stored MTP layers the config does not declare == published total`, () => {
      const { config } = fixture(dir);
      const truth = truthOf(dir);
      const e = estimate(config);
      expect(e.family).toBe(config.model_type);
      const mtp = truth.stored_mtp_layers_not_in_config ?? 0;
      const extra = mtp * (mtp > 0 ? qwen3NextMtpLayerParams(configView(config)) : 0);
      expect(e.params.total + extra).toBe(truth.params_total);
    });
  }

  it("Qwen3-Next-80B-A3B: without its undeclared MTP layer the config reads 2% low, and says why", () => {
    const { config } = fixture("Qwen__Qwen3-Next-80B-A3B-Instruct");
    const e = estimate(config);
    const truth = truthOf("Qwen__Qwen3-Next-80B-A3B-Instruct").params_total!;
    expect((truth - e.params.total) / truth).toBeGreaterThan(0.02);
    expect(e.warnings.join(" ")).toMatch(/declares no MTP layer.*mtp\.\*, 1650471424 parameters/);
    // Declared, the layer is counted in its own tower (not in activations).
    const declared = estimate({ ...config, mtp_num_hidden_layers: 1 });
    expect(declared.params.total).toBe(truth);
    expect(Object.keys(declared.params.towers)).toEqual(["text", "mtp"]);
  });

  it("Falcon-H1-0.5B (no published total) reads as falcon_h1 without warnings about guessed keys", () => {
    const e = estimate(fixture("tiiuae__Falcon-H1-0.5B-Instruct").config);
    expect(e.family).toBe("falcon_h1");
    expect(e.params.total).toBeGreaterThan(0.5e9);
    expect(e.params.total).toBeLessThan(0.55e9);
  });
});

describe("qwen2_moe", () => {
  const r = read(fixture("Qwen__Qwen1.5-MoE-A2.7B-Chat").config);

  it("every layer routes 4 of 60 SwiGLU experts and adds a sigmoid-gated shared expert", () => {
    const moe = ofType(r, "MoE");
    expect(moe).toHaveLength(24);
    const [h, e, i, s] = [2048, 60, 1408, 5632];
    // router + 60 experts + shared SwiGLU + shared_expert_gate (h -> 1)
    expect(moe[0]!.params).toBe(h * e + e * 3 * h * i + 3 * h * s + h);
    expect(moe[0]!.linears).toEqual([
      { in: h, out: i, count: 2 * e },
      { in: i, out: h, count: e },
      { in: h, out: s, count: 2 },
      { in: s, out: h, count: 1 },
    ]);
    // router logits + top-4 x (dispatched input + SwiGLU internals) + shared expert internals, bf16
    expect(moe[0]!.actBytesPerToken).toBe(2 * (e + 4 * (h + 4 * i) + 4 * s));
  });

  it("q/k/v carry biases (qkv_bias defaults to true), o does not; full KV on every layer", () => {
    const attn = nodes(r).find((n) => n.name === "Attention_1")!;
    expect(attn.params).toBe(4 * 2048 * 2048 + 3 * 2048);
    expect(r.kvLayers.every((k) => k.kind === "full" && k.bytesPerToken === 2 * 16 * 128 * 2)).toBe(true);
  });

  it("mlp_only_layers and decoder_sparse_step give dense layers; odd layers slide when asked", () => {
    const { config } = fixture("Qwen__Qwen1.5-MoE-A2.7B-Chat");
    const dense = read({ ...config, decoder_sparse_step: 2, mlp_only_layers: [1] });
    expect(dense.towers[0]!.nodes.find((n) => n.name === "FFN_1")?.type).toBe("SwiGLU");
    expect(dense.towers[0]!.nodes.find((n) => n.name === "FFN_2")?.type).toBe("SwiGLU");
    expect(dense.towers[0]!.nodes.find((n) => n.name === "MoE_4")?.type).toBe("MoE");
    const sliding = read({ ...config, use_sliding_window: true, sliding_window: 4096, max_window_layers: 4 });
    expect(sliding.kvLayers.slice(0, 5).map((k) => k.kind)).toEqual([
      "sliding",
      "full",
      "sliding",
      "full",
      "full",
    ]);
  });
});

describe("qwen3_next", () => {
  const r = read(fixture("Qwen__Qwen3-Next-80B-A3B-Instruct").config);

  it("36 Gated DeltaNet layers keep a constant state, 12 gated-attention layers a KV cache", () => {
    expect(ofType(r, "Gated DeltaNet")).toHaveLength(36);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(12);
    expect(r.kvLayers[3]).toEqual({ kind: "full", bytesPerToken: 2 * 2 * 256 * 2 });
    // fp32 recurrent state 32 x 128 x 128 (the delta rule's float32 output) + conv window 3 x (2 x 16 x 128 + 32 x 128), bf16
    expect(r.kvLayers[0]).toEqual({
      kind: "linear_state",
      bytesPerToken: 0,
      fixedBytes: 32 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 32 * 128) * 2,
    });
  });

  it("the checkpoint's fused in_proj_qkvz / in_proj_ba are what LoRA adapts", () => {
    const gdn = ofType(r, "Gated DeltaNet")[0]!;
    expect(gdn.linears).toEqual([
      { in: 2048, out: 2 * 16 * 128 + 2 * 32 * 128, count: 1 },
      { in: 2048, out: 64, count: 1 },
      { in: 4096, out: 2048, count: 1 },
    ]);
  });

  it("512 experts, top 10, one shared expert per layer; q_proj emits q and its gate", () => {
    const moe = ofType(r, "MoE")[0]!;
    expect(moe.linears![0]).toEqual({ in: 2048, out: 512, count: 1024 });
    expect(moe.actBytesPerToken).toBe(2 * (512 + 10 * (2048 + 4 * 512) + 4 * 512));
    const attn = nodes(r).find((n) => n.name === "Attention_4")!;
    expect(attn.linears![0]).toEqual({ in: 2048, out: 2 * 16 * 256, count: 1 });
  });
});

describe("mamba", () => {
  const r = read(fixture("state-spaces__mamba-130m-hf").config);

  it("norm, mixer, add per layer, no positions, tied head, a constant state per layer", () => {
    const text = r.towers[0]!;
    expect(text.nodes).toHaveLength(1 + 24 * 3 + 2);
    expect(text.nodes.some((n) => n.type === "RoPE")).toBe(false);
    expect(r.tiedEmbedding).toBe(true);
    expect(r.kvLayers).toHaveLength(24);
    // SSM state 1536 x 16 + conv window 1536 x 3, bf16
    expect(
      r.kvLayers.every((k) => k.kind === "linear_state" && k.fixedBytes === (1536 * 16 + 1536 * 3) * 2),
    ).toBe(true);
  });

  it("the mixer: in_proj, conv1d + bias, x_proj, dt_proj + bias, A_log, D, out_proj", () => {
    const mixer = ofType(r, "Mamba")[0]!;
    const [h, I, n, R] = [768, 1536, 16, 48];
    expect(mixer.params).toBe(h * 2 * I + I * 4 + I + I * (R + 2 * n) + R * I + I + I * n + I + I * h);
    expect(loraParams(r, 16)).toBe(24 * 16 * (h + 2 * I + I + R + 2 * n + R + I + I + h));
  });

  it("mamba2: heads x head_dim must make expand x hidden; the error names the key", () => {
    const cfg = {
      model_type: "mamba2",
      hidden_size: 4096,
      num_hidden_layers: 64,
      vocab_size: 32768,
      num_heads: 128,
      head_dim: 64,
      n_groups: 8,
      state_size: 128,
      expand: 2,
    };
    const r2 = read(cfg);
    const mixer = ofType(r2, "Mamba2")[0]!;
    const conv = 8192 + 2 * 8 * 128;
    // in_proj (2I + 2 g N + heads), conv1d + bias, dt_bias/A_log/D, gated norm, out_proj
    expect(mixer.params).toBe(
      4096 * (2 * 8192 + 2 * 8 * 128 + 128) + conv * 5 + 3 * 128 + 8192 + 8192 * 4096,
    );
    expect(r2.tiedEmbedding).toBe(false);
    expect(() => read({ ...cfg, num_heads: 100 })).toThrow(/^num_heads/);
  });
});

describe("jamba", () => {
  // AI21-Jamba-1.5-Mini's dimensions: attention every 8th layer from 4, MoE every 2nd from 1.
  const cfg = {
    model_type: "jamba",
    hidden_size: 4096,
    intermediate_size: 14336,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_experts: 16,
    num_experts_per_tok: 2,
    vocab_size: 65536,
    max_position_embeddings: 262144,
    mamba_d_state: 16,
    mamba_d_conv: 4,
    mamba_expand: 2,
    mamba_dt_rank: 256,
    attn_layer_period: 8,
    attn_layer_offset: 4,
    expert_layer_period: 2,
    expert_layer_offset: 1,
  };
  const r = read(cfg);

  it("4 attention layers with KV caches, 28 Mamba layers with a constant state, MoE on 16 odd layers", () => {
    const text = r.towers[0]!;
    expect(text.nodes.filter((n) => n.name.startsWith("Attention_")).map((n) => n.layer)).toEqual([
      5, 13, 21, 29,
    ]);
    expect(ofType(r, "Mamba")).toHaveLength(28);
    expect(ofType(r, "MoE").map((n) => n.layer)).toEqual(Array.from({ length: 16 }, (_, i) => 2 * i + 2));
    expect(ofType(r, "SwiGLU")).toHaveLength(16);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(4);
    expect(r.kvLayers.filter((k) => k.kind === "linear_state")).toHaveLength(28);
  });

  it("Jamba's mixer adds RMSNorms on dt (dt_rank) and on B and C (state) to Mamba's", () => {
    const mamba = ofType(r, "Mamba")[0]!;
    const plain = ofType(read({ ...cfg, mamba_inner_layernorms: false }), "Mamba")[0]!;
    expect(mamba.params - plain.params).toBe(256 + 2 * 16);
    expect(countParams(r).total).toBeGreaterThan(51.5e9);
    expect(countParams(r).total).toBeLessThan(51.7e9);
  });

  it("an offset outside its period is an input error naming the key", () => {
    expect(() => read({ ...cfg, attn_layer_offset: 8 })).toThrow(/^attn_layer_offset/);
  });
});

describe("falcon_h1", () => {
  const r = read(fixture("tiiuae__Falcon-H1-0.5B-Instruct").config);

  it("attention and Mamba2 run side by side in every layer: each layer keeps a KV cache and a state", () => {
    const mixers = nodes(r).filter((n) => n.name.startsWith("HybridMixer_"));
    expect(mixers).toHaveLength(36);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(36);
    expect(r.kvLayers.filter((k) => k.kind === "linear_state")).toHaveLength(36);
    const attn = 1024 * 8 * 64 * 2 + 2 * 1024 * 2 * 64;
    const inner = 24 * 64;
    const conv = inner + 2 * 128;
    // mamba_rms_norm false: no gated norm; conv bias on; no projection biases
    const mamba = 1024 * (2 * inner + 2 * 128 + 24) + conv * 5 + 3 * 24 + inner * 1024;
    expect(mixers[0]!.params).toBe(attn + mamba);
  });

  it("the multipliers leave counts alone; mamba_rms_norm adds the gated norm over I", () => {
    const { config } = fixture("tiiuae__Falcon-H1-0.5B-Instruct");
    const base = countParams(r).total;
    expect(countParams(read({ ...config, ssm_multipliers: [1, 1, 1, 1, 1], key_multiplier: 1 })).total).toBe(
      base,
    );
    expect(countParams(read({ ...config, mamba_rms_norm: true })).total - base).toBe(36 * 1536);
  });
});

describe("bamba", () => {
  const cfg = {
    model_type: "bamba",
    hidden_size: 4096,
    intermediate_size: 14336,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    vocab_size: 128256,
    max_position_embeddings: 262144,
    attn_layer_indices: [9, 18, 27],
    mamba_n_heads: 128,
    mamba_d_head: 64,
    mamba_n_groups: 1,
    mamba_d_state: 128,
    mamba_expand: 2,
  };

  it("attention at attn_layer_indices, Mamba2 elsewhere, SwiGLU everywhere", () => {
    const r = read(cfg);
    expect(
      nodes(r)
        .filter((n) => n.name.startsWith("Attention_"))
        .map((n) => n.layer),
    ).toEqual([10, 19, 28]);
    expect(ofType(r, "Mamba2")).toHaveLength(29);
    expect(ofType(r, "SwiGLU")).toHaveLength(32);
    expect(r.kvLayers.map((k) => k.kind).filter((k) => k === "full")).toHaveLength(3);
  });

  it("an attention index past the last layer is an input error naming the key", () => {
    expect(() => read({ ...cfg, attn_layer_indices: [40] })).toThrow(/^attn_layer_indices/);
  });
});

describe("granitemoe / granitemoeshared / granitemoehybrid", () => {
  const base = {
    model_type: "granitemoe",
    hidden_size: 1536,
    intermediate_size: 512,
    num_hidden_layers: 32,
    num_attention_heads: 24,
    num_key_value_heads: 8,
    num_local_experts: 40,
    num_experts_per_tok: 8,
    vocab_size: 49155,
    max_position_embeddings: 131072,
    tie_word_embeddings: true,
  };

  it("granitemoe: 40 experts with fused gate/up (one input_linear each), top 8, no shared MLP", () => {
    const moe = ofType(read(base), "MoE")[0]!;
    expect(moe.params).toBe(1536 * 40 + 40 * 3 * 1536 * 512);
    expect(moe.linears).toEqual([
      { in: 1536, out: 1024, count: 40 },
      { in: 512, out: 1536, count: 40 },
    ]);
  });

  it("granitemoeshared: the shared MLP sits beside the experts (fused input_linear h -> 2S)", () => {
    const shared = { ...base, model_type: "granitemoeshared", shared_intermediate_size: 1024 };
    const moe = ofType(read(shared), "MoE")[0]!;
    expect(moe.params).toBe(1536 * 40 + 40 * 3 * 1536 * 512 + 3 * 1536 * 1024);
    expect(moe.linears!.slice(2)).toEqual([
      { in: 1536, out: 2048, count: 1 },
      { in: 1024, out: 1536, count: 1 },
    ]);
  });

  it("granitemoehybrid: Mamba2 and attention per layer_types; 0 experts leaves the shared MLP alone", () => {
    const types = Array.from({ length: 8 }, (_, i) => (i % 4 === 3 ? "attention" : "mamba"));
    const hybrid = {
      ...base,
      model_type: "granitemoehybrid",
      num_hidden_layers: 8,
      layer_types: types,
      shared_intermediate_size: 1024,
      mamba_n_heads: 48,
      mamba_d_head: 64,
      mamba_n_groups: 1,
      mamba_d_state: 128,
      mamba_expand: 2,
    };
    const r = read(hybrid);
    expect(ofType(r, "Mamba2")).toHaveLength(6);
    expect(r.kvLayers.map((k) => k.kind)).toEqual(
      types.map((t) => (t === "mamba" ? "linear_state" : "full")),
    );
    expect(() => read({ ...hybrid, layer_types: types.map((t) => (t === "mamba" ? "ssm" : t)) })).toThrow(
      /^layer_types/,
    );
    expect(() => read({ ...hybrid, num_local_experts: undefined })).toThrow(/^num_local_experts/);
    const dense = read({ ...hybrid, num_local_experts: 0 });
    expect(ofType(dense, "MoE")).toHaveLength(0);
    expect(ofType(dense, "SwiGLU")).toHaveLength(8);
  });
});

describe("phimoe", () => {
  const cfg = {
    model_type: "phimoe",
    hidden_size: 4096,
    intermediate_size: 6400,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    num_local_experts: 16,
    num_experts_per_tok: 2,
    vocab_size: 32064,
    max_position_embeddings: 131072,
    sliding_window: 131072,
    attention_bias: true,
    lm_head_bias: true,
  };

  it("LayerNorms with bias, biased attention, 16 experts top 2 on every layer, LM head with bias", () => {
    const r = read(cfg);
    expect(nodes(r).find((n) => n.name === "LayerNorm_1_1")!.params).toBe(2 * 4096);
    expect(nodes(r).find((n) => n.name === "Attention_1")!.params).toBe(
      2 * 4096 * 4096 + 2 * 4096 * 1024 + 2 * 4096 + 2 * 1024,
    );
    expect(ofType(r, "MoE")).toHaveLength(32);
    expect(nodes(r).find((n) => n.name === "LMHead")!.params).toBe(32064 * 4096 + 32064);
    const unbiased = countParams(read({ ...cfg, attention_bias: false, lm_head_bias: false })).total;
    expect(countParams(r).total - unbiased).toBe(32 * (2 * 4096 + 2 * 1024) + 32064);
    expect(r.kvLayers[0]).toEqual({ kind: "sliding", bytesPerToken: 2 * 8 * 128 * 2, window: 131072 });
  });
});
