import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adapterHeader } from "../../replay-hub/adapter-gen.ts";
import { weightLayout } from "../../replay-hub/safetensors-gen.ts";
import { estimate } from "./estimate.ts";
import { AdapterConfig, countAdapterHeader, countFromConfig, isTargeted, readAdapterConfig } from "./peft.ts";
import { estimatePeft } from "./peft-estimate.ts";
import type { TensorHeader } from "./types.ts";

const fixtures = new URL("../../../fixtures/", import.meta.url);
const qwen7b = JSON.parse(readFileSync(new URL("models/Qwen__Qwen2.5-7B/config.json", fixtures), "utf8"));
const published = JSON.parse(
  readFileSync(
    new URL("adapters/Adarsh5557__qwen7b-finetuned-Smart-MCQ-Solver/adapter_config.json", fixtures),
    "utf8",
  ),
);

function tensorsOf(header: Record<string, unknown>): TensorHeader[] {
  return Object.entries(header)
    .filter(([k]) => k !== "__metadata__")
    .map(([name, v]) => ({ name, ...(v as { dtype: string; shape: number[] }) }));
}

const base = Object.values(weightLayout(qwen7b).files).flatMap(tensorsOf);
const SEVEN = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];

describe("PEFT adapter counts", () => {
  it("the published Qwen2.5-7B r=16 adapter: header and config agree on 40,370,176 (PEFT's trainable count)", () => {
    const config = AdapterConfig.parse(published);
    const header = countAdapterHeader(tensorsOf(adapterHeader(qwen7b, { r: 16, targets: SEVEN })));
    const fromConfig = countFromConfig(config, base);
    // 28 layers x 16 x ((3584+3584) x 2 + (3584+512) x 2 + (3584+18944) x 3): what print_trainable_parameters
    // reports for this setup.
    expect(header.params).toBe(40_370_176);
    expect(fromConfig.params).toBe(header.params);
    expect(header.loraModules).toBe(28 * 7);
    expect(fromConfig.modules).toBe(28 * 7);
    expect(header.ranks).toEqual([16]);
    expect(header.bytes).toBe(40_370_176 * 4);
  });

  it("DoRA adds one magnitude per output feature; modules_to_save count the whole module", () => {
    const config = AdapterConfig.parse({
      ...published,
      r: 8,
      target_modules: ["q_proj", "v_proj"],
      use_dora: true,
      modules_to_save: ["lm_head"],
    });
    const gen = adapterHeader(qwen7b, {
      r: 8,
      targets: ["q_proj", "v_proj"],
      useDora: true,
      modulesToSave: ["lm_head"],
    });
    const header = countAdapterHeader(tensorsOf(gen));
    const fromConfig = countFromConfig(config, base);
    expect(fromConfig.params).toBe(header.params);
    expect(fromConfig.dora).toBe(28 * (3584 + 512));
    expect(fromConfig.modulesToSave).toBe(152064 * 3584);
    expect(header.otherParams).toBe(152064 * 3584);
  });

  it("a header that does not match the config is a disagreement, not a crash", () => {
    const config = AdapterConfig.parse({ ...published, r: 32 });
    const gen = tensorsOf(adapterHeader(qwen7b, { r: 16, targets: SEVEN }));
    const baseEstimate = estimate(qwen7b, { checkpoint: { tensors: base } });
    const e = estimatePeft({
      config,
      header: gen,
      base: { repo: "Qwen/Qwen2.5-7B", sha: "a".repeat(40), estimate: baseEstimate, tensors: base },
      noBase: "",
      version: "test",
    });
    expect(e.peft.cross_check).toBe("disagrees");
    expect(e.params.total).toBe(40_370_176);
    expect(e.peft.params_config).toBe(2 * 40_370_176);
    expect(e.warnings.some((w) => w.startsWith("adapter_mismatch:"))).toBe(true);
  });

  it("target_modules as a regex, all-linear, layers_to_transform and rank_pattern", () => {
    const c = (extra: Record<string, unknown>) => AdapterConfig.parse({ ...published, ...extra });
    const regex = c({ target_modules: ".*\\.(q_proj|v_proj)" });
    expect(isTargeted(regex, "model.layers.3.self_attn.q_proj")).toBe(true);
    expect(isTargeted(regex, "model.layers.3.self_attn.k_proj")).toBe(false);
    const all = countFromConfig(c({ target_modules: "all-linear" }), base);
    expect(all.params).toBe(40_370_176);
    expect(isTargeted(c({ target_modules: "all-linear" }), "lm_head")).toBe(false);
    const two = countFromConfig(c({ layers_to_transform: [0, 1] }), base);
    expect(two.params).toBe((2 * 40_370_176) / 28);
    const ranked = countFromConfig(c({ rank_pattern: { down_proj: 64 } }), base);
    expect(ranked.params - 40_370_176).toBe(28 * 48 * (18944 + 3584));
  });

  it("with the base: serve = base weights + adapter; LoRA training = frozen base + 1.2 x 16 x adapter + activations", () => {
    const config = AdapterConfig.parse(published);
    const header = tensorsOf(adapterHeader(qwen7b, { r: 16, targets: SEVEN }));
    const b = estimate(qwen7b, { checkpoint: { tensors: base } });
    const e = estimatePeft({
      config,
      header,
      base: { repo: "Qwen/Qwen2.5-7B", sha: "a".repeat(40), estimate: b, tensors: base },
      noBase: "",
      version: "test",
    });
    expect(e.peft.cross_check).toBe("agrees");
    expect(e.memory.serve.bytes).toBe(b.weights.bytes + 40_370_176 * 4);
    expect(e.memory.lora.breakdown.base_weights).toBe(2 * 7_615_616_512);
    expect(e.memory.lora.breakdown.adapters).toBe(Math.round(1.2 * 16 * 40_370_176));
    expect(e.memory.lora.breakdown.activations).toBe(b.memory.lora.breakdown.activations);
    // The estimator's own LoRA figure is r=16 on the same seven linears: the adapter term is the same.
    expect(e.memory.lora_params).toBe(b.memory.lora_params);
    expect(e.fit.filter((f) => f.mode === "lora")).toHaveLength(5);
    const h200 = e.fit.find((f) => f.card.startsWith("H200") && f.mode === "serve");
    expect(h200?.verdict).toBe("fits");
  });

  it("without the base: the header's count, the cross-check said to need the base; bad configs explained", () => {
    const e = estimatePeft({
      config: AdapterConfig.parse(published),
      header: tensorsOf(adapterHeader(qwen7b, { r: 16, targets: SEVEN })),
      base: null,
      noBase: "Qwen/Qwen2.5-7B-Instruct is not watched",
      version: "test",
    });
    expect(e.params.total).toBe(40_370_176);
    expect(e.peft.cross_check).toBe("needs the base");
    expect(e.missing?.[0]?.why).toBe("Qwen/Qwen2.5-7B-Instruct is not watched");
    expect(readAdapterConfig({ r: "sixteen" })).toEqual({
      error: "r: Invalid input: expected number, received string",
    });
  });
});
