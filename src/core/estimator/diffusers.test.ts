import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseModelIndex } from "../diff/diffusers.ts";
import { estimateDiffusers } from "./diffusers.ts";
import { CARDS } from "./fit.ts";

const SD = new URL(
  "../../../fixtures/pipelines/stable-diffusion-v1-5__stable-diffusion-v1-5/",
  import.meta.url,
);
const json = (path: string) => JSON.parse(readFileSync(new URL(path, SD), "utf8")) as Record<string, unknown>;

/** A few float tensors for a component read from its header. */
const tensors = (dtype: string, ...shapes: number[][]) =>
  shapes.map((shape, i) => ({ name: `t${i}`, dtype, shape }));

describe("estimateDiffusers", () => {
  const index = parseModelIndex({ ...json("model_index.json"), safety_checker: [null, null] })!;

  it("header components are exact, a CLIP text encoder without a header is counted from its config", () => {
    const files = new Map([
      ["unet", { config: json("unet/config.json"), tensors: tensors("F16", [320, 4, 3, 3], [320]) }],
      ["vae", { config: json("vae/config.json"), tensors: tensors("F32", [8, 8, 1, 1], [8]) }],
      ["text_encoder", { config: json("text_encoder/config.json"), tensors: null }],
    ]);
    const e = estimateDiffusers(index, files, "fp16", "test");
    const row = (n: string) => e.diffusers.components.find((c) => c.name === n)!;
    expect(row("unet")).toMatchObject({
      params: 320 * 4 * 9 + 320,
      source: "headers",
      serve_bytes: 2 * 11840,
    });
    // Float32 stored, served at 2 bytes per parameter.
    expect(row("vae")).toMatchObject({ params: 72, serve_bytes: 144, by_dtype: { F32: 288 } });
    // The transformers estimator's clip_text_model reader: SD 1.5's published 123,060,480.
    expect(row("text_encoder")).toMatchObject({ params: 123_060_480, source: "config" });
    expect(row("scheduler")).toMatchObject({ params: 0, source: "none" });
    expect(e.params.total).toBe(11840 + 72 + 123_060_480);
    expect(e.params.towers).toEqual({ text_encoder: 123_060_480, unet: 11840, vae: 72 });
    expect(e.memory.serve.bytes).toBe(2 * 11840 + 144 + 2 * 123_060_480);
    expect(e.reader.confidence).toBe("known");
    expect(e.fit).toHaveLength(CARDS.length);
  });

  it("a diffusers model without a header is unknown, not guessed: left out of the total, the reading generic", () => {
    const files = new Map([
      ["unet", { config: json("unet/config.json"), tensors: null }],
      ["vae", { config: json("vae/config.json"), tensors: tensors("F16", [4]) }],
      ["text_encoder", { config: json("text_encoder/config.json"), tensors: null }],
    ]);
    const e = estimateDiffusers(index, files, null, "test");
    const unet = e.diffusers.components.find((c) => c.name === "unet")!;
    expect(unet).toMatchObject({ params: null, source: "unknown", serve_bytes: null });
    expect(e.params.total).toBe(4 + 123_060_480);
    expect(e.reader.confidence).toBe("generic");
    expect(e.missing?.map((m) => m.figure)).toContain("params of unet");
  });

  it("a T5EncoderModel text encoder without a header: the t5 reader's encoder-only count", () => {
    const t5 = JSON.parse(
      readFileSync(
        new URL("../../../fixtures/models/google-t5__t5-small/config.json", import.meta.url),
        "utf8",
      ),
    ) as Record<string, unknown>;
    const sd3 = parseModelIndex({
      _class_name: "StableDiffusion3Pipeline",
      text_encoder_3: ["transformers", "T5EncoderModel"],
    })!;
    const files = new Map([
      ["text_encoder_3", { config: { ...t5, architectures: ["T5EncoderModel"] }, tensors: null }],
    ]);
    const e = estimateDiffusers(sd3, files, null, "test");
    // Shared embedding 32128 x 512 + 6 encoder blocks (attention, FFN 512 x 2048, two norms) + relative bias + final norm.
    const block = 4 * 512 * 512 + 512 + 2 * 512 * 2048 + 512;
    expect(e.params.total).toBe(32128 * 512 + 6 * block + 32 * 8 + 512);
    expect(e.diffusers.components[0]).toMatchObject({ source: "config", params: 35_330_816 });
  });

  it("the serve verdict per card is the existing fit rule on the weights alone", () => {
    const big = new Map([["unet", { config: null, tensors: tensors("BF16", [10_000_000_000]) }]]);
    const e = estimateDiffusers(index, big, null, "test");
    // No variant: the dtype the weights are stored in.
    expect(e.diffusers.dtype).toBe("BF16");
    const verdict = (card: string) => e.fit.find((f) => f.card === card)?.verdict;
    // 20 GB of weights: over a T4's 16 GB, borderline on an L4 (20 * 1.43 > 24 / 1.15), fits an A100 40 GB.
    expect(verdict("T4 16 GB")).toBe("does_not_fit");
    expect(verdict("L4 24 GB")).toBe("borderline");
    expect(verdict("A100 40 GB")).toBe("fits");
  });
});
