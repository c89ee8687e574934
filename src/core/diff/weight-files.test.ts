import { describe, expect, it } from "vitest";
import { selectWeightFiles } from "./weight-files.ts";

const index = (map: Record<string, string>) => JSON.stringify({ metadata: {}, weight_map: map });

describe("selectWeightFiles", () => {
  it("follows the index: only the shards it names, others listed apart", () => {
    const paths = [
      "consolidated.safetensors",
      "model-00001-of-00002.safetensors",
      "model-00002-of-00002.safetensors",
      "original/model.safetensors",
      "config.json",
    ];
    const text = index({
      "a.weight": "model-00001-of-00002.safetensors",
      "b.weight": "model-00002-of-00002.safetensors",
      "c.weight": "model-00001-of-00002.safetensors",
    });
    expect(selectWeightFiles(paths, text)).toEqual({
      model: ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"],
      other: ["consolidated.safetensors", "original/model.safetensors"],
      indexPath: "model.safetensors.index.json",
    });
  });

  it("without an index: every safetensors file but alternate sets, unless those are all there is", () => {
    expect(selectWeightFiles(["model.safetensors", "consolidated.safetensors"], null).model).toEqual([
      "model.safetensors",
    ]);
    expect(selectWeightFiles(["consolidated.safetensors"], null).model).toEqual(["consolidated.safetensors"]);
    expect(selectWeightFiles(["unet/a.safetensors", "vae/b.safetensors"], null).model).toHaveLength(2);
  });

  it("an index that does not parse is ignored", () => {
    expect(selectWeightFiles(["model.safetensors"], "{not json").model).toEqual(["model.safetensors"]);
    expect(selectWeightFiles(["model.safetensors"], '{"weight_map": [1]}').indexPath).toBeNull();
  });
});
