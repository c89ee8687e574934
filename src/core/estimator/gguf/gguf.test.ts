import { describe, expect, it } from "vitest";
import { diffGgufFile, tensorsChanged } from "../../diff/gguf.ts";
import { estimateGgufFile } from "./file-estimate.ts";
import { ggmlType, tensorBytes } from "./ggml-types.ts";
import { estimateGgufRepo, groupGgufShards } from "./repo-estimate.ts";
import type { GgufHeader, GgufTensor } from "./types.ts";

function header(tensors: GgufTensor[], metadata: GgufHeader["metadata"] = {}): GgufHeader {
  return { format: "gguf", version: 3, metadata, tensors, tokens: {}, header_bytes: 0, file_size: null };
}

const META = {
  "general.architecture": "llama",
  "general.file_type": 15,
  "llama.block_count": 2,
  "llama.context_length": 8192,
  "llama.embedding_length": 512,
  "llama.attention.head_count": 8,
  "llama.attention.head_count_kv": 2,
};

describe("ggml types", () => {
  it("bytes per row follow the block size; a partial block has no size", () => {
    expect(tensorBytes(ggmlType(12)!, [256, 3])).toBe(3 * 144); // Q4_K
    expect(tensorBytes(ggmlType(14)!, [512, 1])).toBe(2 * 210); // Q6_K
    expect(tensorBytes(ggmlType(8)!, [64])).toBe(2 * 34); // Q8_0
    expect(tensorBytes(ggmlType(23)!, [256])).toBe(136); // IQ4_XS
    expect(tensorBytes(ggmlType(30)!, [7, 3])).toBe(42); // BF16
    expect(tensorBytes(ggmlType(12)!, [100])).toBeNull();
  });
});

describe("one GGUF file", () => {
  it("KV cache from the metadata: layers x KV heads x (key + value length) x 2 bytes", () => {
    const e = estimateGgufFile("m-Q4_K_M.gguf", [
      header([{ name: "w", shape: [256, 4], type: "Q4_K" }], META),
    ]);
    // head_dim 512 / 8 = 64: 2 layers x 2 heads x 128 x 2 bytes.
    expect(e.kv_bytes_per_token).toBe(1024);
    expect(e.kv_cache).toEqual({ tokens: 4096, bytes: 4096 * 1024 });
    expect(e.quant).toBe("Q4_K_M");
    expect(e.fit.map((r) => r.mode)).toEqual(Array(5).fill("serve Q4_K_M"));
  });

  it("per-layer KV head counts (an array) are summed layer by layer", () => {
    const meta = { ...META, "llama.attention.head_count_kv": [2, 0] };
    expect(estimateGgufFile("x.gguf", [header([], meta)]).kv_bytes_per_token).toBe(512);
  });

  it("an unknown tensor type is counted in parameters, not bytes, and said so", () => {
    const e = estimateGgufFile("x.gguf", [header([{ name: "w", shape: [32, 2], type: "type_99" }], META)]);
    expect(e.params).toBe(64);
    expect(e.weight_bytes).toBe(0);
    expect(e.warnings[0]).toMatch(/type_99/);
  });

  it("without general.file_type the quant comes from the file name", () => {
    const { "general.file_type": _, ...meta } = META;
    expect(estimateGgufFile("org/model-IQ4_XS.gguf", [header([], meta)]).quant).toBe("IQ4_XS");
  });
});

describe("a GGUF repo", () => {
  const w = (type: string, rows = 4): GgufTensor => ({ name: "w", shape: [256, rows], type });

  it("groups a sharded file's shards; the headline is the largest language-model file, never mmproj", () => {
    const files: [string, GgufHeader][] = [
      ["big-Q8_0-00002-of-00002.gguf", header([{ ...w("Q8_0"), name: "b" }])],
      ["big-Q8_0-00001-of-00002.gguf", header([w("Q8_0")], { ...META, "general.file_type": 7 })],
      ["small-Q4_K_M.gguf", header([w("Q4_K"), { ...w("Q4_K"), name: "b" }], META)],
      ["mmproj-f16.gguf", header([w("F16", 100)], { "general.architecture": "clip" })],
    ];
    expect(groupGgufShards(files).map(([p, hs]) => [p, hs.length])).toEqual([
      ["big-Q8_0-00001-of-00002.gguf", 2],
      ["mmproj-f16.gguf", 1],
      ["small-Q4_K_M.gguf", 1],
    ]);
    const e = estimateGgufRepo(files, "test");
    expect(e.gguf.files.find((f) => f.quant === "Q8_0")?.params).toBe(2048);
    expect(e.quantization?.method).toBe("gguf Q8_0");
    expect(e.params.total).toBe(2048);
    expect(e.fit).toHaveLength(15);
  });

  it("two files of one quant get distinct fit rows", () => {
    const e = estimateGgufRepo(
      [
        ["a/m-Q4_K_M.gguf", header([w("Q4_K")], META)],
        ["b/m-Q4_K_M.gguf", header([w("Q4_K")], META)],
      ],
      "test",
    );
    expect([...new Set(e.fit.map((r) => r.mode))]).toEqual(["serve Q4_K_M", "serve m-Q4_K_M.gguf"]);
  });
});

describe("a GGUF file's diff", () => {
  it("a metadata-only change is not a re-made file; a retyped or grown tensor is", () => {
    const a = header([w("Q4_K")], META);
    const meta = diffGgufFile(a, header([w("Q4_K")], { ...META, "general.name": "x" }));
    expect(tensorsChanged(meta)).toBe(false);
    expect(meta.metadata.map((c) => c.path)).toEqual(["$[general.name]"]);
    const retyped = diffGgufFile(a, header([w("Q6_K")], META));
    expect(retyped.retyped).toEqual([{ name: "w", before: "Q4_K", after: "Q6_K" }]);
    const grown = diffGgufFile(a, header([w("Q4_K", 8)], META));
    expect(grown.params).toEqual({ before: 1024, after: 2048 });
    expect(tensorsChanged(grown)).toBe(true);
  });
});

function w(type: string, rows = 4): GgufTensor {
  return { name: "w", shape: [256, rows], type };
}
