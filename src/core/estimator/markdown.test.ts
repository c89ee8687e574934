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
  it("formats like the seed pages: GB rounded half-up from the two-decimal figure", () => {
    expect(formatGb(85.99e9)).toBe("86.0 GB");
    expect(formatGb(17.447e9)).toBe("17.5 GB");
    expect(formatGb(17.444e9)).toBe("17.4 GB");
    expect(formatGb(0.604e9)).toBe("0.60 GB");
    expect(formatGb(0.605e9)).toBe("0.61 GB");
    expect(formatGb(9.995e9)).toBe("10.0 GB");
    expect(formatGb(1368.98e9)).toBe("1,369.0 GB");
    expect(formatParams(4_022_456_320)).toBe("4.02B");
    expect(formatParams(151_862_016)).toBe("152M");
    expect(formatDelta(-0.803)).toBe("-80.3%");
    expect(formatDelta(-0.0091)).toBe("-0.91%");
  });

  it("has the seed's summary (17.5 GB LoRA as on seed 004), memory lines, card table and assumptions", () => {
    const md = renderMarkdown(estimate(config), "zerank-2-reranker");
    expect(md).toContain(
      "takes about 86.0 GB of GPU memory for a full fine-tune (borderline on one H200 141 GB)",
    );
    expect(md).toContain("and 17.5 GB with LoRA r=16 on a bf16 base (borderline on one L4 24 GB)");
    expect(md).toContain("- Serve: weights: 8.04 GB");
    expect(md).toContain("- Serve: KV cache, 4096 tokens: 0.60 GB");
    expect(md).toContain("| H200 141 GB | batch 5, borderline | batch 12 | batch 189 |");
    expect(md).toMatch(
      /## Assumptions\n\n.*AdamW with bf16 autocast, SDPA attention.*r=16 on every linear layer but the heads.*Not counted: the CUDA context/,
    );
    expect(md.split("\n")[2]).toMatch(/^Read by the \*\*qwen3\*\* reader \(known family/);
    expect(md).not.toMatch(/active per token/);
  });

  it("says a generic reading up front, and shows active parameters of a MoE", () => {
    const generic = renderMarkdown(
      estimate({ ...config, model_type: "no_such_type", architectures: [] }),
      "x",
    );
    expect(generic.split("\n")[2]).toMatch(/^\*\*Generic reading\*\*: model_type no_such_type has no reader/);
    const moe = {
      ...config,
      model_type: "qwen3_moe",
      num_experts: 8,
      num_experts_per_tok: 2,
      moe_intermediate_size: 512,
    };
    const md = renderMarkdown(estimate(moe), "y");
    expect(md).toMatch(/active per token/);
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
