import { describe, expect, it } from "vitest";
import { compareEstimates } from "./compare.ts";
import { makeEstimate } from "./test-helpers.ts";
import { describeChanges } from "./text.ts";

describe("describeChanges", () => {
  it("lists every change with before and after", () => {
    const { changes } = compareEstimates(
      makeEstimate({}),
      makeEstimate({ total: 8190735360, twice: true, fit: [{ verdict: "borderline", batch: 1 }] }),
    );
    const { summary, details } = describeChanges({
      repo: "Qwen/Qwen3-8B",
      introduced: "b".repeat(40),
      parent: "a".repeat(40),
      changes,
    });
    expect(summary).toBe(
      "Qwen/Qwen3-8B: parameters 4.02B (4022468096) -> 8.19B (8190735360); tied embedding now stored twice; 1 fit verdict changed; 1 batch size changed",
    );
    expect(details).toContain(`Revision \`${"b".repeat(40)}\``);
    expect(details).toContain("| Parameter count | params:total | 4.02B (4022468096) | 8.19B (8190735360) |");
    expect(details).toContain(
      "| Tied embedding stored twice | checkpoint:tied_embedding_stored_twice | false | true |",
    );
    expect(details).toContain("| Fit verdict | A100 80 GB, lora | fits | borderline |");
    expect(details).toContain("| Largest batch | A100 80 GB, lora, batch | 5 | 1 |");
  });
});
