import { describe, expect, it } from "vitest";
import { modelFixture } from "../../../test/helpers/model-fixtures.ts";
import { configView } from "./config-view.ts";
import { estimate } from "./estimate.ts";
import { resolveModel, typeOfArchitecture } from "./resolve.ts";

const llama = modelFixture("meta-llama__Llama-3.2-3B").config;
const resolve = (c: unknown) => resolveModel(configView(c));

describe("no silent misreads: a reader by model_type, an architecture prefix only when the keys fit", () => {
  it("maps architectures to their own model_type, longest prefix first", () => {
    expect(typeOfArchitecture("Phi3ForCausalLM")).toBe("phi3");
    expect(typeOfArchitecture("PhiMoEForCausalLM")).toBe("phimoe");
    expect(typeOfArchitecture("PhiForCausalLM")).toBe("phi");
    expect(typeOfArchitecture("Qwen2VLForConditionalGeneration")).toBe("qwen2_vl");
    expect(typeOfArchitecture("Qwen2_5_VLForConditionalGeneration")).toBe("qwen2_5_vl");
    expect(typeOfArchitecture("Qwen2MoeForCausalLM")).toBe("qwen2_moe");
    expect(typeOfArchitecture("Qwen3NextForCausalLM")).toBe("qwen3_next");
    expect(typeOfArchitecture("Gemma3ForCausalLM")).toBe("gemma3_text");
    expect(typeOfArchitecture("Gemma3ForConditionalGeneration")).toBe("gemma3");
    expect(typeOfArchitecture("Starcoder2ForCausalLM")).toBe("starcoder2");
    expect(typeOfArchitecture("XLMRobertaModel")).toBe("xlm-roberta");
  });

  it("a Phi3 or Qwen2-MoE config is never read by the phi or qwen2 reader (generic until it has its own)", () => {
    const phi3 = { ...llama, model_type: "phi3_unregistered", architectures: ["Phi3ForCausalLM"] };
    expect(resolve(phi3).reading.family).not.toBe("phi");
    const moe = {
      ...llama,
      model_type: "qwen2_moe_unregistered",
      architectures: ["Qwen2MoeForCausalLM"],
      num_experts: 60,
    };
    expect(resolve(moe).reading.family).not.toBe("qwen2");
  });

  it("an alias model_type whose keys fit a known architecture is read by it, saying so", () => {
    const r = resolve({ ...llama, model_type: "my_llama" });
    expect(r.confidence).toBe("known");
    expect(r.reading.family).toBe("llama");
    expect(r.reading.warnings[0]).toMatch(/read as llama from architectures/);
  });

  it("keys of another kind (experts, sub-configs) refuse the prefix match", () => {
    const r = resolve({ ...llama, model_type: "my_llama", num_local_experts: 8 });
    expect(r.confidence).toBe("generic");
    expect(r.reading.family).toBe("generic");
  });

  it("the JSON says which reader and how sure", () => {
    expect(estimate(llama).reader).toEqual({ family: "llama", confidence: "known" });
    const g = estimate({ ...llama, model_type: "brand_new", architectures: ["BrandNewForCausalLM"] });
    expect(g.reader).toEqual({ family: "generic", confidence: "generic" });
  });
});
