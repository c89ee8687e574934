import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { estimate } from "./estimate.ts";
import { formatDelta, formatGb, formatParams, renderMarkdown } from "./markdown.ts";

const config = JSON.parse(
  readFileSync(
    new URL("../../../fixtures/models/Qwen__Qwen3-4B-Instruct-2507/config.json", import.meta.url),
    "utf8",
  ),
);

describe("markdown page", () => {
  it("formats like the seed pages", () => {
    expect(formatGb(85.99e9)).toBe("86.0 GB");
    expect(formatGb(0.604e9)).toBe("0.60 GB");
    expect(formatParams(4_022_456_320)).toBe("4.02B");
    expect(formatParams(151_862_016)).toBe("152M");
    expect(formatDelta(-0.803)).toBe("-80.3%");
    expect(formatDelta(-0.0091)).toBe("-0.91%");
  });

  it("has the seed's summary, memory lines, card table and structure", () => {
    const md = renderMarkdown(estimate(config), "zerank-2-reranker");
    expect(md).toContain(
      "takes about 86.0 GB of GPU memory for a full fine-tune (borderline on one H200 141 GB)",
    );
    expect(md).toContain("with LoRA r=16 on a bf16 base (borderline on one L4 24 GB)");
    expect(md).toContain("- Serve: bf16 weights: 8.04 GB");
    expect(md).toContain("- Serve: KV cache, 4096 tokens: 0.60 GB");
    expect(md).toContain("| H200 141 GB | batch 5, borderline | batch 12 | batch 189 |");
    expect(md).toContain("| 2 | RoPE | RoPE |");
  });

  it("says when the checkpoint stores the tied embedding twice", () => {
    const tensors = [
      { name: "model.embed_tokens.weight", dtype: "BF16", shape: [151936, 2560] },
      { name: "lm_head.weight", dtype: "BF16", shape: [151936, 2560] },
    ];
    const md = renderMarkdown(estimate(config, { checkpoint: { tensors } }), "x");
    expect(md).toContain("stored twice");
    expect(md).toContain("151936 x 2560");
  });
});
