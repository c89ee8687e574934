import { describe, expect, it } from "vitest";
import {
  autoencoderKlTensors,
  autoencoderTinyTensors,
  diffusersHeader,
  unet2dConditionTensors,
} from "./diffusers-gen.ts";
import { clipTextTensors, safetyCheckerTensors } from "./diffusers-gen-clip.ts";
import { readFixture } from "./fixtures/builder.ts";

const SD = "pipelines/stable-diffusion-v1-5__stable-diffusion-v1-5";
const config = (path: string) => JSON.parse(readFixture(path)) as Record<string, unknown>;
const params = (ts: { name: string; shape: number[]; dtype?: string }[]) =>
  ts.filter((t) => t.dtype === undefined).reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);

// The generated components against the counts published for stable-diffusion-v1-5 (fixtures/pipelines/SOURCES.md).
describe("diffusers component headers", () => {
  it("UNet2DConditionModel of SD 1.5: 859,520,964 parameters in 686 tensors", () => {
    const ts = unet2dConditionTensors(config(`${SD}/unet/config.json`));
    expect(params(ts)).toBe(859_520_964);
    expect(ts).toHaveLength(686);
  });

  it("AutoencoderKL of SD 1.5: 83,653,863 parameters", () => {
    expect(params(autoencoderKlTensors(config(`${SD}/vae/config.json`)))).toBe(83_653_863);
  });

  it("CLIPTextModel of SD 1.5: 123,060,480 parameters, position_ids stored as an I64 buffer", () => {
    const ts = clipTextTensors(config(`${SD}/text_encoder/config.json`));
    expect(params(ts)).toBe(123_060_480);
    const header = diffusersHeader(ts, "F16") as Record<string, { dtype: string }>;
    expect(header["text_model.embeddings.position_ids"]?.dtype).toBe("I64");
    expect(header["text_model.final_layer_norm.weight"]?.dtype).toBe("F16");
  });

  it("AutoencoderTiny (TAESD): encoder 1,222,532 + decoder 1,222,531 parameters", () => {
    const ts = autoencoderTinyTensors(config("pipelines/madebyollin__taesd/config.json"));
    const enc = ts.filter((t) => t.name.startsWith("encoder."));
    const dec = ts.filter((t) => t.name.startsWith("decoder."));
    // Block = 3 x (64*64*9 + 64); encoder: first conv 3->64 + 10 blocks + 3 strided convs (no bias) + conv 64->4.
    expect(params(enc)).toBe(
      3 * 64 * 9 + 64 + 10 * 3 * (64 * 64 * 9 + 64) + 3 * 64 * 64 * 9 + (64 * 4 * 9 + 4),
    );
    expect(params(enc)).toBe(1_222_532);
    expect(params(dec)).toBe(1_222_531);
    expect(ts.map((t) => t.name)).toContain("decoder.layers.18.weight");
  });
});

describe("the SD 1.5 safety checker header", () => {
  it("CLIPVisionModel ViT-L/14 + projection + concept embeddings: 303,981,588 parameters", () => {
    const ts = safetyCheckerTensors(config(`${SD}/safety_checker/config.json`));
    // Vision tower: class token + patch conv (no bias) + 257 positions + pre/post LayerNorm + 24 layers.
    const layer = 4 * (1024 * 1024 + 1024) + 2 * 2048 + (1024 * 4096 + 4096) + (4096 * 1024 + 1024);
    const vision = 1024 + 1024 * 3 * 14 * 14 + 257 * 1024 + 2 * 2048 + 24 * layer;
    expect(params(ts)).toBe(vision + 1024 * 768 + 17 * 768 + 3 * 768 + 17 + 3);
    expect(params(ts)).toBe(303_981_588);
  });
});
