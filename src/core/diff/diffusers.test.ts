import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeSwap, diffComponents, parseModelIndex, selectPipelineWeights } from "./diffusers.ts";
import { classifyPath, isTrackedPath } from "./paths.ts";

const SD = new URL(
  "../../../fixtures/pipelines/stable-diffusion-v1-5__stable-diffusion-v1-5/",
  import.meta.url,
);
const sdIndex = () =>
  JSON.parse(readFileSync(new URL("model_index.json", SD), "utf8")) as Record<string, unknown>;

describe("parseModelIndex", () => {
  it("reads SD 1.5's model_index.json: components, not settings or metadata", () => {
    const index = parseModelIndex(sdIndex())!;
    expect(index.class_name).toBe("StableDiffusionPipeline");
    expect(index.diffusers_version).toBe("0.18.0.dev0");
    expect(Object.keys(index.components)).toEqual([
      "feature_extractor",
      "safety_checker",
      "scheduler",
      "text_encoder",
      "tokenizer",
      "unet",
      "vae",
    ]);
    expect(index.components.unet).toEqual({ library: "diffusers", class: "UNet2DConditionModel" });
  });

  it("a [null, null] entry is a component left out; no _class_name is not a model index", () => {
    const index = parseModelIndex({ ...sdIndex(), safety_checker: [null, null] })!;
    expect(index.components.safety_checker).toBeNull();
    expect(parseModelIndex({ unet: ["diffusers", "UNet2DConditionModel"] })).toBeNull();
    expect(parseModelIndex([1, 2])).toBeNull();
  });
});

describe("diffComponents", () => {
  it("a class swap, a removal and an addition, by name", () => {
    const a = parseModelIndex(sdIndex())!;
    const b = parseModelIndex({
      ...sdIndex(),
      vae: ["diffusers", "AutoencoderTiny"],
      safety_checker: [null, null],
      image_encoder: ["transformers", "CLIPVisionModelWithProjection"],
    })!;
    const swaps = diffComponents(a, b);
    expect(swaps.map(describeSwap)).toEqual([
      "component image_encoder added: transformers.CLIPVisionModelWithProjection",
      "component safety_checker removed (was stable_diffusion.StableDiffusionSafetyChecker)",
      "component vae swapped: diffusers.AutoencoderKL -> diffusers.AutoencoderTiny",
    ]);
    expect(diffComponents(a, parseModelIndex(sdIndex())!)).toEqual([]);
  });
});

describe("selectPipelineWeights", () => {
  const files = [
    "unet/diffusion_pytorch_model.safetensors",
    "unet/diffusion_pytorch_model.fp16.safetensors",
    "unet/diffusion_pytorch_model.non_ema.safetensors",
    "vae/diffusion_pytorch_model.safetensors",
    "text_encoder/model.fp16.safetensors",
    "text_encoder/model.safetensors",
    "text_encoder_2/model.fp16-00001-of-00002.safetensors",
    "text_encoder_2/model.fp16-00002-of-00002.safetensors",
    "text_encoder_2/model-00001-of-00002.safetensors",
    "text_encoder_2/model-00002-of-00002.safetensors",
    "v1-5-pruned-emaonly.safetensors",
  ];

  it("the fp16 variant where a component ships it, else its default files; root checkpoints left out", () => {
    const w = selectPipelineWeights(files);
    expect(w.variant).toBe("fp16");
    expect(w.components).toEqual({
      text_encoder: ["text_encoder/model.fp16.safetensors"],
      text_encoder_2: [
        "text_encoder_2/model.fp16-00001-of-00002.safetensors",
        "text_encoder_2/model.fp16-00002-of-00002.safetensors",
      ],
      unet: ["unet/diffusion_pytorch_model.fp16.safetensors"],
      vae: ["vae/diffusion_pytorch_model.safetensors"],
    });
    expect(w.other).toContain("v1-5-pruned-emaonly.safetensors");
    expect(w.other).toContain("unet/diffusion_pytorch_model.non_ema.safetensors");
  });

  it("without a half-precision variant: the default files", () => {
    const w = selectPipelineWeights(files.filter((f) => !f.includes(".fp16")));
    expect(w.variant).toBeNull();
    expect(w.components.unet).toEqual(["unet/diffusion_pytorch_model.safetensors"]);
  });
});

describe("component configs are tracked in a pipeline only", () => {
  it("unet/config.json and scheduler/scheduler_config.json: config in a pipeline, other elsewhere", () => {
    expect(classifyPath("model_index.json")).toBe("config");
    expect(classifyPath("unet/config.json", true)).toBe("config");
    expect(classifyPath("scheduler/scheduler_config.json", true)).toBe("config");
    expect(isTrackedPath("unet/config.json")).toBe(false);
    expect(isTrackedPath("tokenizer/vocab.json", true)).toBe(false);
    expect(isTrackedPath("unet/nested/config.json", true)).toBe(false);
  });
});
