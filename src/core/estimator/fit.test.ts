import { describe, expect, it } from "vitest";
import { fitTable, nodeCosts, twoCardSplit } from "./fit.ts";
import { planMemory } from "./memory.ts";
import type { ModelReading, StructureNode } from "./types.ts";

/** A reading of `layers` identical nodes of `params` parameters each, no activations, no KV. */
function flat(layers: number, params: number, head = 0): ModelReading {
  const nodes: StructureNode[] = Array.from({ length: layers }, (_, i) => ({
    name: `L${i + 1}`,
    type: "Linear",
    shape: [16, 16],
    params,
    actBytesPerToken: 0,
    layer: i + 1,
  }));
  if (head > 0)
    nodes.push({
      name: "Head",
      type: "LM Head",
      shape: [16, 16],
      params: head,
      actBytesPerToken: 0,
      outputHead: true,
    });
  return {
    family: "test",
    modelType: "test",
    towers: [{ name: "text", role: "decoder", seqLen: 16, nodes }],
    contextLength: 16,
    lmHead: null,
    tiedEmbedding: false,
    embeddingParams: 0,
    kvLayers: [{ kind: "full", bytesPerToken: 1000 }],
    warnings: [],
  };
}

describe("two-card split", () => {
  const usable = 80e9 / 1.15;
  it("fills the first card greedily and counts the output head as no layer", () => {
    // 10 layers of 1e9 params = 19.2 GB each at full fine-tune: 3 fit one 80 GB card (69.6 GB usable).
    const r = flat(6, 1e9, 1e8);
    expect(twoCardSplit(nodeCosts(r, 16), usable)).toEqual([3, 3]);
  });
  it("gives null when the rest does not fit the second card", () => {
    expect(twoCardSplit(nodeCosts(flat(8, 1e9), 16), usable)).toBeNull();
  });
  it("gives null when not even the first node fits", () => {
    expect(twoCardSplit(nodeCosts(flat(2, 5e9), 16), usable)).toBeNull();
  });
});

describe("card table", () => {
  it("says cards for a full fine-tune split, does_not_fit for LoRA/serve beyond one card", () => {
    const r = flat(6, 1e9);
    const rows = fitTable(r, planMemory(r, 6e9));
    const a100 = rows.filter((x) => x.card === "A100 / H100 80 GB");
    expect(a100.map((x) => x.verdict)).toEqual(["cards", "fits", "fits"]);
    expect(a100[0]!.text).toBe("2 cards at batch 1 (3 + 3 layers)");
    const t4 = rows.filter((x) => x.card === "T4 16 GB");
    expect(t4[0]!.verdict).toBe("does_not_fit");
    expect(t4[0]!.text).toBe("does not fit at batch 1");
  });
  it("marks borderline when the 1.43x peak exceeds usable memory", () => {
    // Serve: 2 bytes x 6e9 = 12 GB on a 16 GB T4 (13.9 GB usable): holds batch 1, but 12 x 1.43 > 13.9.
    const r = flat(6, 1e9);
    const serve = fitTable(r, planMemory(r, 6e9)).find((x) => x.card === "T4 16 GB" && x.mode === "serve")!;
    expect(serve.verdict).toBe("borderline");
    expect(serve.text).toMatch(/^batch \d+, borderline$/);
  });
});

describe("split labels count layers, not nodes", () => {
  it("every two-card split of every fixture adds up to the model's layers", async () => {
    const { modelFixtureDirs, modelFixture } = await import("../../../test/helpers/model-fixtures.ts");
    const { estimate } = await import("./estimate.ts");
    let splits = 0;
    for (const dir of modelFixtureDirs()) {
      const e = estimate(modelFixture(dir).config);
      const layers = new Set(
        e.structure
          .filter((n) => n.layer !== undefined && n.tower !== "mtp")
          .map((n) => `${n.tower}:${n.layer}`),
      ).size;
      for (const r of e.fit.filter((x) => x.verdict === "cards")) {
        splits++;
        expect(r.split![0]! + r.split![1]!).toBe(layers);
        expect(r.text).toBe(`2 cards at batch 1 (${r.split![0]} + ${r.split![1]} layers)`);
      }
    }
    expect(splits).toBeGreaterThan(5);
  });
});
