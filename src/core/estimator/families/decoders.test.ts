import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  MODEL_FIXTURES,
  type RawConfig,
  readConfig as read,
} from "../../../../test/helpers/model-fixtures.ts";
import { EstimatorInputError } from "../config-view.ts";
import { estimate } from "../estimate.ts";
import type { KvLayer, ModelReading } from "../types.ts";

type Truth = { params_total: number; tied_embedding_stored_twice: boolean | null };

function load(dir: string): { config: RawConfig; truth: Truth } {
  const base = new URL(`${dir}/`, MODEL_FIXTURES);
  return {
    config: JSON.parse(readFileSync(new URL("config.json", base), "utf8")) as RawConfig,
    truth: JSON.parse(readFileSync(new URL("truth.json", base), "utf8")) as Truth,
  };
}

function kinds(kv: KvLayer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of kv)
    out[`${k.kind}${k.window ? `@${k.window}` : ""}`] =
      (out[`${k.kind}${k.window ? `@${k.window}` : ""}`] ?? 0) + 1;
  return out;
}

function node(r: ModelReading, name: string) {
  for (const t of r.towers) for (const n of t.nodes) if (n.name === name) return n;
  throw new Error(`no node ${name}`);
}

const FIXTURES: [string, string][] = [
  ["google__gemma-2-9b-it", "gemma2"],
  ["google__gemma-3-270m-it", "gemma3_text"],
  ["google__medgemma-27b-it", "gemma3"],
  ["YouriLalain__3PRYMMAL-PHI3-3B-SLERP", "phi3"],
  ["microsoft__phi-4", "phi3"],
  ["tiiuae__falcon-40b__RefinedWeb", "falcon"],
  ["christokt__FalconLLM__falcon-7b-RefinedWeb", "falcon"],
  ["NanSang2000__S1mpleAgent__internlm2-7b", "internlm2"],
];

describe("derived totals against the published checkpoints (second stored copy of a tied head added)", () => {
  for (const [dir, family] of FIXTURES) {
    it(`${dir} (${family})`, () => {
      const { config, truth } = load(dir);
      const e = estimate(config);
      const r = read(config);
      expect(e.family).toBe(family);
      const copy = truth.tied_embedding_stored_twice ? r.embeddingParams : 0;
      expect(e.params.total + copy).toBe(truth.params_total);
    });
  }
});

describe("gemma2 / gemma3: sandwich norms, head_dim from the config, sliding / full layers", () => {
  it("gemma-2-9b: every second layer full, head_dim 256 (not 3584 / 16), tied head", () => {
    const r = read(load("google__gemma-2-9b-it").config);
    expect(kinds(r.kvLayers)).toEqual({ "sliding@4096": 21, full: 21 });
    expect(r.kvLayers[0]!.kind).toBe("sliding");
    expect(r.kvLayers[1]!.bytesPerToken).toBe(2 * 8 * 256 * 2);
    expect(r.tiedEmbedding).toBe(true);
    expect(node(r, "LMHead").tiedTo).toBe("Embedding");
    // q (16 x 256) + k, v (8 x 256) + o, no bias, no q/k norms
    expect(node(r, "Attention_1").params).toBe(3584 * 4096 * 2 + 3584 * 2048 * 2);
    // input + post_attention norms before the add
    expect(node(r, "RMSNorm_1_1").params).toBe(2 * 3584);
  });

  it("gemma-3-270m: 15 layers windowed at 512 and 3 full; per-head q/k norms", () => {
    const r = read(load("google__gemma-3-270m-it").config);
    expect(kinds(r.kvLayers)).toEqual({ "sliding@512": 15, full: 3 });
    expect(node(r, "Attention_1").params).toBe(640 * 1024 * 2 + 640 * 256 * 2 + 2 * 256);
  });

  it("medgemma-27b (gemma3): SigLIP tower at 896 px (4096 patches, no head) + projector, 52 sliding / 10 full", () => {
    const r = read(load("google__medgemma-27b-it").config);
    expect(r.towers.map((t) => [t.name, t.role, t.seqLen])).toEqual([
      ["vision", "vision", 4096],
      ["text", "decoder", 131072],
    ]);
    expect(kinds(r.kvLayers)).toEqual({ "sliding@1024": 52, full: 10 });
    expect(node(r, "vision.Projector").params).toBe(1152 * 5376 + 1152);
    expect(r.towers[0]!.nodes.some((n) => n.name === "vision.Head")).toBe(false);
    expect(r.tiedEmbedding).toBe(true);
  });

  it("gemma3 with an abridged text_config reads the Gemma3TextConfig defaults and names them", () => {
    const { config } = load("google__medgemma-27b-it");
    const text = { ...(config.text_config as RawConfig) };
    for (const k of ["vocab_size", "head_dim", "num_attention_heads", "num_key_value_heads", "layer_types"])
      delete text[k];
    const e = estimate({ ...config, text_config: text });
    expect(e.warnings.join(" ")).toMatch(
      /text_config\.num_attention_heads=8, text_config\.num_key_value_heads=4, text_config\.head_dim=256/,
    );
    expect(e.warnings.join(" ")).toMatch(/text_config\.vocab_size=262208/);
  });
});

describe("phi3: fused qkv_proj and gate_up_proj", () => {
  it("phi-4: one LoRA linear for q, k and v (40 + 2 x 10 heads of 128), one for gate and up; windowed cache", () => {
    const r = read(load("microsoft__phi-4").config);
    expect(node(r, "Attention_1").linears).toEqual([
      { in: 5120, out: 60 * 128, count: 1 },
      { in: 5120, out: 5120, count: 1 },
    ]);
    expect(node(r, "FFN_1").linears).toEqual([
      { in: 5120, out: 2 * 17920, count: 1 },
      { in: 17920, out: 5120, count: 1 },
    ]);
    expect(kinds(r.kvLayers)).toEqual({ "sliding@16384": 40 });
    expect(r.tiedEmbedding).toBe(false);
  });
});

describe("falcon: RefinedWeb keys and the new decoder architecture", () => {
  it("falcon-40b (model_type RefinedWeb, n_head / n_head_kv / n_layer): ln_attn + ln_mlp, qkv of (2 x 8 + 128) x 64", () => {
    const r = read(load("tiiuae__falcon-40b__RefinedWeb").config);
    expect(node(r, "LayerNorm x2_1").params).toBe(4 * 8192);
    expect(node(r, "Attention_1").linears![0]).toEqual({ in: 8192, out: 144 * 64, count: 1 });
    expect(kinds(r.kvLayers)).toEqual({ full: 60 });
    expect(r.kvLayers[0]!.bytesPerToken).toBe(2 * 8 * 64 * 2);
    expect(r.towers[0]!.nodes.filter((n) => n.type.startsWith("GELU MLP"))).toHaveLength(60);
  });

  it("falcon-7b labelled RefinedWeb (multi_query, no n_head_kv): the 7B modelling_RW.py, one LayerNorm, one k/v head", () => {
    const r = read(load("christokt__FalconLLM__falcon-7b-RefinedWeb").config);
    expect(node(r, "LayerNorm_1").params).toBe(2 * 4544);
    expect(node(r, "Attention_1").linears![0]).toEqual({ in: 4544, out: 4544 + 2 * 64, count: 1 });
    expect(r.kvLayers[0]!.bytesPerToken).toBe(2 * 1 * 64 * 2);
  });
});

/** Deterministic mutations of real configs: an error naming a key, or a finite estimate; never a crash. */
describe("mutated configs of these families fail with a key or estimate finitely", () => {
  const BAD: unknown[] = [-1, 0, 0.5, 1e13, Number.NaN, "12", null, true, [], {}, 3];
  for (const [dir] of FIXTURES) {
    it(dir, () => {
      const { config } = load(dir);
      let seed = dir.length * 7919;
      const next = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      for (let i = 0; i < 120; i++) {
        const bad = structuredClone(config);
        const nested = Object.values(bad).filter((v) => v && typeof v === "object" && !Array.isArray(v));
        const target = (
          nested.length > 0 && next() < 0.5 ? nested[Math.floor(next() * nested.length)] : bad
        ) as RawConfig;
        const keys = Object.keys(target);
        const key = keys[Math.floor(next() * keys.length)]!;
        if (next() < 0.3) delete target[key];
        else target[key] = BAD[Math.floor(next() * BAD.length)];
        try {
          const e = estimate(bad);
          expect(Number.isFinite(e.params.total) && Number.isFinite(e.memory.kv_cache.bytes)).toBe(true);
        } catch (err) {
          if (!(err instanceof EstimatorInputError)) throw new Error(`${dir} mutation ${i}: ${String(err)}`);
          expect(err.key.length).toBeGreaterThan(0);
        }
      }
    });
  }
});
