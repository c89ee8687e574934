import { describe, expect, it } from "vitest";
import { modelFixture, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import { countParams } from "../params.ts";
import type { Linear, ModelReading } from "../types.ts";
import { blockScaleScalars } from "./moe-parts.ts";

type Raw = Record<string, unknown> & { text_config?: Record<string, unknown> };

/** Every fixture here has a published total. */
function fixture(dir: string): { config: Raw; truth: number } {
  const { config, truth } = modelFixture(dir);
  if (truth === null) throw new Error(`${dir} has no truth.json`);
  return { config: config as Raw, truth };
}

function linearsOfLayer(r: ModelReading, layer: number): Linear[] {
  const text = r.towers.find((t) => t.name === "text")!;
  return text.nodes.filter((n) => n.layer === layer).flatMap((n) => n.linears ?? []);
}

/**
 * fp8 block scales a DeepSeek checkpoint stores: every linear of the decoder layers and of the MTP
 * layer (a copy of a MoE layer) is quantized; the router, eh_proj and the DSA indexer's weights_proj
 * (h -> index heads) stay bf16. This reproduces the stored totals exactly.
 */
function deepseekScales(r: ModelReading, config: Raw): number {
  const hidden = config.hidden_size as number;
  const idxHeads = config.index_n_heads as number | undefined;
  const keep = (l: Linear) => !(idxHeads !== undefined && l.in === hidden && l.out === idxHeads);
  const layers = config.num_hidden_layers as number;
  let sum = 0;
  for (let l = 1; l <= layers; l++) sum += blockScaleScalars(linearsOfLayer(r, l).filter(keep));
  const mtp = (config.num_nextn_predict_layers as number | undefined) ?? 0;
  return sum + mtp * blockScaleScalars(linearsOfLayer(r, layers).filter(keep));
}

describe("deepseek_v3 / deepseek_v32: MLA + DeepSeek-MoE + MTP, fp8", () => {
  for (const dir of ["deepseek-ai__DeepSeek-V3", "deepseek-ai__DeepSeek-R1", "deepseek-ai__DeepSeek-V3.2"]) {
    it(`${dir}: derived + fp8 block scales == stored`, () => {
      const { config, truth } = fixture(dir);
      const e = estimate(config);
      const r = read(config);
      expect(e.params.total).toBe(countParams(r).total);
      expect(Math.abs(e.params.total - truth) / truth).toBeLessThan(0.005);
      expect(e.params.total + deepseekScales(r, config)).toBe(truth);
    });
  }

  it("DeepSeek-V3 structure: 6 nodes per layer, 3 dense then MoE, MLA cache, one MTP module", () => {
    const r = read(fixture("deepseek-ai__DeepSeek-V3").config);
    const text = r.towers.find((t) => t.name === "text")!;
    expect(text.nodes).toHaveLength(2 + 61 * 6 + 2);
    expect(text.nodes.find((n) => n.name === "FFN_3")?.type).toBe("SwiGLU");
    expect(text.nodes.find((n) => n.name === "MoE_4")?.type).toBe("MoE");
    const mla = text.nodes.find((n) => n.name === "Attention_1")!;
    expect(mla.type).toBe("MLA");
    // bf16: q latent + normed (2 x 1536), q (128 x 192), kv latent + normed (2 x 576),
    // expanded k/v (128 x (192 + 128)), attention output (128 x 128)
    expect(mla.actBytesPerToken).toBe(2 * (2 * 1536 + 128 * 192 + 2 * 576 + 128 * 320 + 128 * 128));
    expect(r.kvLayers).toHaveLength(61);
    expect(r.kvLayers.every((k) => k.kind === "mla" && k.bytesPerToken === (512 + 64) * 2)).toBe(true);
    expect(r.towers.find((t) => t.name === "mtp")?.nodes).toHaveLength(1);
    expect(r.quantization?.method).toBe("fp8");
    expect(countParams(r).towers.text).toBe(671_026_419_200);
  });

  it("DeepSeek-V3.2 carries a lightning indexer per layer and caches its key", () => {
    const r = read(fixture("deepseek-ai__DeepSeek-V3.2").config);
    const attn = r.towers[0]!.nodes.find((n) => n.name === "Attention_10")!;
    expect(attn.type).toBe("MLA + DSA indexer");
    expect(r.kvLayers[0]).toEqual({ kind: "mla", bytesPerToken: (512 + 64 + 128) * 2 });
  });
});

describe("kimi_k2 / kimi_k25", () => {
  it("Kimi-K2-Instruct within 0.5% (no MTP layers: num_nextn_predict_layers 0)", () => {
    const { config, truth } = fixture("moonshotai__Kimi-K2-Instruct");
    const e = estimate(config);
    expect(Math.abs(e.params.total - truth) / truth).toBeLessThan(0.005);
    expect(Object.keys(e.params.towers)).toEqual(["text"]);
  });

  it("Kimi-K2.5: text + MoonViT vision; stored = params + int4 group scales + weight_shape", () => {
    const { config, truth } = fixture("moonshotai__Kimi-K2.5");
    const r = read(config);
    expect(r.towers.map((t) => t.name)).toEqual(["vision", "text"]);
    expect(r.quantization).toEqual({
      method: "int4-group32",
      bytesPerWeight: 0.5 + 2 / 32,
      appliesTo: "experts",
    });
    const t = config.text_config!;
    const moeLayers = (t.num_hidden_layers as number) - (t.first_k_dense_replace as number);
    const matrices = moeLayers * (t.n_routed_experts as number) * 3;
    const expertWeights = matrices * (t.hidden_size as number) * (t.moe_intermediate_size as number);
    // bf16 scale per 32 weights, and each [2]-int32 weight_shape counted 8x like the packed int32s.
    const stored = countParams(r).total + expertWeights / 32 + 16 * matrices;
    expect(stored).toBe(truth);
    expect(countParams(r).towers.vision).toBe(471_143_920);
    expect(r.towers[0]!.seqLen).toBe(256);
  });
});

describe("glm_moe_dsa (GLM-5)", () => {
  it("matches the stored total exactly (MTP layer without embedding/head copies, bf16)", () => {
    const { config, truth } = fixture("zai-org__GLM-5");
    const e = estimate(config);
    expect(e.params.total).toBe(truth);
    expect(e.params.towers.mtp).toBeGreaterThan(0);
    const r = read(config);
    expect(r.quantization).toBeUndefined();
    expect(r.kvLayers[0]).toEqual({ kind: "mla", bytesPerToken: (512 + 64 + 128) * 2 });
  });

  it("layers marked shared by index_topk_pattern carry no indexer and cache no indexer key", () => {
    const { config } = fixture("zai-org__GLM-5");
    const all = read(config);
    const pattern = "FS".repeat(39);
    const shared = read({ ...config, index_topk_pattern: pattern });
    const idx = 2048 * 32 * 128 + 6144 * 128 + 2 * 128 + 6144 * 32;
    expect(countParams(all).total - countParams(shared).total).toBe(39 * idx);
    expect(shared.kvLayers[1]).toEqual({ kind: "mla", bytesPerToken: (512 + 64) * 2 });
    expect(() => read({ ...config, indexer_types: ["full"] })).toThrow(/indexer_types/);
  });
});
