import { describe, expect, it } from "vitest";
import { modelFixture as fixture, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import { countParams, loraParams } from "../params.ts";
import { blockScaleScalars } from "./moe-parts.ts";

/** Fixtures whose stored total is exactly the parameter count. */
const EXACT = [
  "Qwen__Qwen3-30B-A3B",
  "Qwen__Qwen3-235B-A22B",
  "Qwen__Qwen3-Coder-480B-A35B-Instruct",
  "MiniMaxAI__MiniMax-M2.7",
  "openai__gpt-oss-120b",
];

describe("routed-MoE decoders: totals against the fixtures", () => {
  for (const dir of EXACT) {
    it(`${dir}: derived == stored`, () => {
      const { config, truth } = fixture(dir);
      expect(estimate(config).params.total).toBe(truth);
    });
  }

  it("MiniMax-M2.5's third-party total = parameters + fp8 128x128 block scales of every linear", () => {
    const { config, truth } = fixture("MiniMaxAI__MiniMax-M2.5");
    const r = read(config);
    const linears = r.towers.flatMap((t) => t.nodes.flatMap((n) => n.linears ?? []));
    expect(countParams(r).total + blockScaleScalars(linears)).toBe(truth);
    expect(r.warnings.join(" ")).toMatch(/MTP/);
  });
});

describe("routed-MoE decoders: structure", () => {
  it("qwen3_moe: 6 nodes per layer, MoE on every layer, LoRA over every expert linear", () => {
    const r = read(fixture("Qwen__Qwen3-30B-A3B").config);
    const text = r.towers[0]!;
    expect(text.nodes).toHaveLength(2 + 48 * 6 + 2);
    expect(text.nodes.filter((n) => n.type === "MoE")).toHaveLength(48);
    // per layer: q/o 16 x (2048 + 4096) each, k/v 16 x (2048 + 512) each, 128 experts x 3 x 16 x (2048 + 768)
    const perLayer = 2 * 16 * 6144 + 2 * 16 * 2560 + 128 * 3 * 16 * 2816;
    expect(loraParams(r, 16)).toBe(48 * perLayer);
    expect(r.kvLayers.every((k) => k.kind === "full" && k.bytesPerToken === 2 * 4 * 128 * 2)).toBe(true);
  });

  it("MoE activations hold the top-k experts' internals, not all experts'", () => {
    const r = read(fixture("Qwen__Qwen3-30B-A3B").config);
    const moe = r.towers[0]!.nodes.find((n) => n.type === "MoE")!;
    // router logits (128) + 8 x (dispatched input 2048 + SwiGLU 4 x 768), bf16
    expect(moe.actBytesPerToken).toBe(2 * (128 + 8 * (2048 + 4 * 768)));
  });

  it("qwen3_moe: mlp_only_layers are dense SwiGLU; a missing MoE key is named", () => {
    const { config } = fixture("Qwen__Qwen3-30B-A3B");
    const r = read({ ...config, mlp_only_layers: [0, 1] });
    const text = r.towers[0]!;
    expect(text.nodes.find((n) => n.name === "FFN_1")?.type).toBe("SwiGLU");
    expect(text.nodes.find((n) => n.name === "MoE_3")?.type).toBe("MoE");
    expect(() => read({ ...config, moe_intermediate_size: null })).toThrow(/moe_intermediate_size/);
  });

  it("mixtral (no truth in the fixtures): 8x7B reads as 46.7B", () => {
    const e = estimate(fixture("mistralai__Mixtral-8x7B-v0.1").config);
    expect(e.params.total).toBe(46_702_792_704);
  });

  it("gpt_oss: sinks, biased experts, sliding/full alternation, mxfp4 experts", () => {
    const r = read(fixture("openai__gpt-oss-120b").config);
    expect(r.quantization).toEqual({ method: "mxfp4", bytesPerWeight: 0.5 + 1 / 32, appliesTo: "experts" });
    expect(r.kvLayers[0]).toEqual({ kind: "sliding", bytesPerToken: 2 * 8 * 64 * 2, window: 128 });
    expect(r.kvLayers[1]).toEqual({ kind: "full", bytesPerToken: 2 * 8 * 64 * 2 });
    const attn = r.towers[0]!.nodes.find((n) => n.name === "Attention_1")!;
    // q, k, v, o with biases + 64 sinks
    expect(attn.params).toBe(2880 * 4096 + 4096 + 2 * (2880 * 512 + 512) + 4096 * 2880 + 2880 + 64);
    expect(estimate(fixture("openai__gpt-oss-20b").config).params.total).toBe(20_914_757_184);
    // the checkpoint fuses gate and up per expert: one LoRA linear h -> 2I per expert
    const moe = r.towers[0]!.nodes.find((n) => n.name === "MoE_1")!;
    expect(moe.linears).toEqual([
      { in: 2880, out: 5760, count: 128 },
      { in: 2880, out: 2880, count: 128 },
    ]);
  });

  it("step3p7 (no truth): reads, warns that the rule is inferred from step3p5", () => {
    const r = read(fixture("stepfun-ai__Step-3.7-Flash").config);
    expect(r.family).toBe("step3p7");
    expect(r.warnings.join(" ")).toMatch(/step3p5/);
    expect(r.kvLayers.filter((k) => k.kind === "sliding")).toHaveLength(33);
    const total = countParams(r).total;
    expect(total).toBeGreaterThan(190e9);
    expect(total).toBeLessThan(200e9);
  });
});

describe("qwen3_moe as transformers 5 writes it", () => {
  it("num_local_experts counts the routed experts (a config without num_experts is not read as dense)", () => {
    const { config } = fixture("Qwen__Qwen3-30B-A3B");
    const { num_experts: experts, ...rest } = config as Record<string, unknown>;
    const v5 = estimate({ ...rest, num_local_experts: experts });
    expect(v5.params.total).toBe(estimate(config).params.total);
    expect(v5.params.active).toBeLessThan(0.12 * v5.params.total);
    expect(() => estimate({ ...config, num_local_experts: 64 })).toThrow(/num_local_experts/);
  });
});
