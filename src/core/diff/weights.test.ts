import { describe, expect, it } from "vitest";
import { diffWeights, summarizeWeights, type TensorInfo } from "./weights.ts";

const t = (name: string, dtype: string, shape: number[]): TensorInfo => ({ name, dtype, shape });

describe("summarizeWeights", () => {
  it("counts tensors and scalars per dtype", () => {
    expect(
      summarizeWeights([
        t("model.embed_tokens.weight", "BF16", [151936, 2560]),
        t("model.norm.weight", "F32", [2560]),
        t("scale", "F32", []),
      ]),
    ).toEqual({
      tensor_count: 3,
      total_scalars: 151936 * 2560 + 2560 + 1,
      dtypes: { BF16: 151936 * 2560, F32: 2561 },
    });
    expect(summarizeWeights([])).toEqual({ tensor_count: 0, total_scalars: 0, dtypes: {} });
  });
});

describe("diffWeights", () => {
  it("finds added, removed, reshaped and retyped tensors", () => {
    const before = [
      t("a", "BF16", [4, 4]),
      t("b", "BF16", [4]),
      t("c", "F32", [2]),
      t("lm_head.weight", "BF16", [8, 4]),
    ];
    const after = [t("a", "BF16", [4, 8]), t("b", "F16", [4]), t("c", "F16", [3]), t("d", "BF16", [1])];
    expect(diffWeights(before, after)).toEqual({
      added: [t("d", "BF16", [1])],
      removed: [t("lm_head.weight", "BF16", [8, 4])],
      reshaped: [
        { name: "a", before: [4, 4], after: [4, 8] },
        { name: "c", before: [2], after: [3] },
      ],
      retyped: [
        { name: "b", before: "BF16", after: "F16" },
        { name: "c", before: "F32", after: "F16" },
      ],
    });
  });

  it("is fast for 10^5 tensors", () => {
    const before: TensorInfo[] = [];
    const after: TensorInfo[] = [];
    for (let i = 0; i < 100_000; i++) {
      before.push(t(`model.layers.${i}.weight`, "BF16", [1024, 1024]));
      after.push(t(`model.layers.${i}.weight`, i % 1000 === 0 ? "F8_E4M3" : "BF16", [1024, 1024]));
    }
    const t0 = performance.now();
    const d = diffWeights(before, after);
    // A pairwise scan would be 10^10 comparisons (minutes); Maps keep it well under a second
    // unloaded. The bound is loose because CI machines are shared.
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(d.retyped).toHaveLength(100);
    expect(d.added.length + d.removed.length + d.reshaped.length).toBe(0);
  });
});
