import { describe, expect, it } from "vitest";
import { modelFixture as fixture, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";

describe("qwen3_5 / qwen3_5_moe: Gated DeltaNet + gated attention, vision tower, stored MTP layer", () => {
  for (const dir of [
    "Qwen__Qwen3.5-27B",
    "Qwen__Qwen3.5-35B-A3B",
    "Qwen__Qwen3.5-122B-A10B",
    "Qwen__Qwen3.5-397B-A17B",
  ]) {
    it(`${dir}: derived (vision + text + MTP) == stored`, () => {
      const { config, truth } = fixture(dir);
      const e = estimate(config);
      expect(e.params.total).toBe(truth);
      expect(Object.keys(e.params.towers)).toEqual(["vision", "text", "mtp"]);
    });
  }

  it("Qwen3.5-35B-A3B: 3 linear-attention layers per full one; linear ones keep a constant state", () => {
    const r = read(fixture("Qwen__Qwen3.5-35B-A3B").config);
    const text = r.towers.find((t) => t.name === "text")!;
    expect(text.nodes).toHaveLength(2 + 40 * 6 + 2);
    expect(text.nodes.find((n) => n.name === "LinearAttention_1")?.type).toBe("Gated DeltaNet");
    expect(text.nodes.find((n) => n.name === "Attention_4")?.type).toBe("Grouped Query Attn");
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(10);
    const state = r.kvLayers[0]!;
    expect(state.kind).toBe("linear_state");
    // fp32 recurrent state 32 x 128 x 128, plus the conv window (3 x (2 x 16 x 128 + 32 x 128)) in bf16
    expect(state.fixedBytes).toBe(32 * 128 * 128 * 4 + 3 * (2 * 16 * 128 + 32 * 128) * 2);
    // the MTP node counts parameters but no activations
    const mtp = r.towers.find((t) => t.name === "mtp")!;
    expect(mtp.nodes.every((n) => n.actBytesPerToken === 0 && n.outputHead === true)).toBe(true);
  });
});

describe("nemotron_h: Mamba2 / attention / MoE per hybrid_override_pattern", () => {
  it("Nemotron-3-Nano-30B-A3B: derived == stored (router correction bias is a buffer, not counted)", () => {
    const { config, truth } = fixture("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    expect(estimate(config).params.total).toBe(truth);
  });

  it("one mixer per layer (3 nodes), caches: 23 Mamba states + 6 attention layers", () => {
    const r = read(fixture("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16").config);
    const text = r.towers[0]!;
    expect(text.nodes).toHaveLength(1 + 52 * 3 + 2);
    expect(text.nodes.filter((n) => n.type === "Mamba2")).toHaveLength(23);
    expect(text.nodes.filter((n) => n.type === "MoE")).toHaveLength(23);
    expect(r.kvLayers.filter((k) => k.kind === "linear_state")).toHaveLength(23);
    expect(r.kvLayers.filter((k) => k.kind === "full")).toHaveLength(6);
    const mamba = text.nodes.find((n) => n.type === "Mamba2")!;
    // in_proj 2688 -> 2 x 4096 + 2 x 8 x 128 + 64, conv (6144 x 4 + bias), dt/A/D, norm 4096, out_proj
    expect(mamba.params).toBe(2688 * 10304 + 6144 * 5 + 3 * 64 + 4096 + 4096 * 2688);
  });

  it("a pattern that disagrees with num_hidden_layers is an input error naming the key", () => {
    const { config } = fixture("nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    expect(() => read({ ...config, hybrid_override_pattern: "MEM" })).toThrow(/hybrid_override_pattern/);
  });
});
