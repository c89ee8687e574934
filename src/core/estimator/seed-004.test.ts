import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { estimate } from "./estimate.ts";

const config = JSON.parse(
  readFileSync(
    new URL("../../../fixtures/models/Qwen__Qwen3-4B-Instruct-2507/config.json", import.meta.url),
    "utf8",
  ),
);
const e = estimate(config);
const GB = 1e9;

/** Seed 004 (zerank-2-reranker, a Qwen3-4B): its card table, cell by cell. */
const TABLE: Record<string, [string, string, string]> = {
  "T4 16 GB": ["does not fit at batch 1", "does not fit at batch 1", "batch 9"],
  "L4 24 GB": ["does not fit at batch 1", "batch 1, borderline", "batch 21"],
  "A100 40 GB": ["does not fit at batch 1", "batch 2", "batch 44"],
  // The seed page says "(174 + 44 layers)", counting graph nodes and cutting inside layer 29; a pipeline
  // stage holds whole layers, so the cut backs off to the layer boundary and the label counts layers.
  "A100 / H100 80 GB": ["2 cards at batch 1 (28 + 8 layers)", "batch 6", "batch 101"],
  "H200 141 GB": ["batch 5, borderline", "batch 12", "batch 189"],
};

function within(actual: number, expected: number, rel: number): void {
  expect(Math.abs(actual - expected) / expected).toBeLessThan(rel);
}

describe("seed 004: Qwen3-4B", () => {
  it("counts the parameters the checkpoint stores (q/k norms and final norm included)", () => {
    expect(e.params.total).toBe(4_022_468_096);
    expect(e.params.tied_embedding).toBe(true);
  });

  it("reproduces the memory figures (training without logits, as the seed)", () => {
    within(e.memory.full_finetune.bytes_without_logits! / GB, 85.99, 0.01);
    within(e.memory.lora.bytes_without_logits! / GB, 17.44, 0.01);
    within(e.memory.serve.bytes / GB, 8.04, 0.01);
    within(e.memory.kv_cache.bytes / GB, 0.604, 0.01);
    expect(e.memory.lora_params).toBe(33_030_144);
    expect(e.memory.full_finetune.tokens).toBe(2048);
    expect(e.memory.kv_cache.tokens).toBe(4096);
  });

  it("counts the logits apart: 2048 x 151936 x 4 bytes x 2", () => {
    expect(e.memory.full_finetune.breakdown.logits).toBe(2048 * 151936 * 8);
    expect(e.memory.full_finetune.bytes - e.memory.full_finetune.bytes_without_logits!).toBe(
      2048 * 151936 * 8,
    );
  });

  it("has breakdowns that sum to bytes", () => {
    for (const m of [e.memory.full_finetune, e.memory.lora, e.memory.serve, e.memory.kv_cache]) {
      const sum = Object.values(m.breakdown).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(m.bytes, 0);
    }
  });

  it("reproduces every cell of the card table", () => {
    for (const [card, cells] of Object.entries(TABLE)) {
      const rows = e.fit.filter((r) => r.card === card);
      expect(rows.map((r) => r.text)).toEqual(cells);
    }
    const split = e.fit.find((r) => r.card === "A100 / H100 80 GB" && r.mode === "full_finetune")!;
    expect(split.verdict).toBe("cards");
    expect(split.split).toEqual([28, 8]);
  });

  it("builds a connected structure with RoPE in-line and the tied head counted once", () => {
    const names = e.structure.map((n) => n.name);
    expect(names.slice(0, 4)).toEqual(["Embedding", "RoPE", "RMSNorm_1_1", "Attention_1"]);
    expect(names.at(-1)).toBe("LMHead");
    expect(e.structure.at(-1)!.tied_to).toBe("Embedding");
    expect(e.structure.reduce((a, n) => a + n.params, 0)).toBe(e.params.total);
  });
});

describe("structure is connected", () => {
  it("has no dead-end RoPE: every RoPE node is followed by a node of its tower with the same shape", () => {
    for (const n of e.structure.filter((x) => x.type === "RoPE")) {
      const i = e.structure.indexOf(n);
      const next = e.structure[i + 1]!;
      expect(next.tower).toBe(n.tower);
      expect(next.shape).toEqual(n.shape);
    }
  });
});
