import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { encodeSafetensorsHeader } from "./files.ts";
import { weightLayout } from "./safetensors-gen.ts";

function config(folder: string): Record<string, unknown> {
  return JSON.parse(
    readFileSync(new URL(`../../fixtures/models/${folder}/config.json`, import.meta.url), "utf8"),
  );
}

function total(layout: ReturnType<typeof weightLayout>): number {
  let n = 0;
  for (const header of Object.values(layout.files)) {
    for (const [name, info] of Object.entries(header)) {
      if (name !== "__metadata__") n += (info as { shape: number[] }).shape.reduce((a, b) => a * b, 1);
    }
  }
  return n;
}

// Generated headers reproduce the live Hub's safetensors.total (fixtures/models/*/truth.json).
describe("generated safetensors headers match real checkpoints", () => {
  it.each([
    ["Qwen__Qwen3-0.6B", true, 751632384],
    ["Qwen__Qwen3-1.7B", true, 2031739904],
    ["Qwen__Qwen3-4B-Instruct-2507", false, 4022468096],
    ["Qwen__Qwen3-8B", false, 8190735360],
    ["Qwen__Qwen2.5-7B", false, 7615616512],
    ["Qwen__Qwen2.5-32B", false, 32763876352],
    ["meta-llama__Llama-3.2-3B", false, 3212749824],
    ["openai-community__gpt2", false, 137022720],
  ])("%s (tied embedding stored twice: %s) -> %d", (folder, storeLmHead, expected) => {
    expect(total(weightLayout(config(folder), { storeLmHead }))).toBe(expected);
  });

  it("shards keep every tensor once and the index maps each to its shard", () => {
    const layout = weightLayout(config("Qwen__Qwen2.5-7B"), { shards: 4 });
    const map = (layout.index as { weight_map: Record<string, string> }).weight_map;
    expect(Object.keys(layout.files)).toEqual([
      "model-00001-of-00004.safetensors",
      "model-00002-of-00004.safetensors",
      "model-00003-of-00004.safetensors",
      "model-00004-of-00004.safetensors",
    ]);
    for (const [name, file] of Object.entries(map)) expect(layout.files[file]![name]).toBeDefined();
    expect(total(layout)).toBe(7615616512);
  });

  it("encodes an 8-byte little-endian length, JSON padded to 8 bytes", () => {
    const buf = encodeSafetensorsHeader({ a: { dtype: "F32", shape: [1], data_offsets: [0, 4] } });
    const len = Number(buf.readBigUInt64LE(0));
    expect(len + 8).toBe(buf.length);
    expect(buf.length % 8).toBe(0);
    expect(JSON.parse(buf.subarray(8).toString()).a.shape).toEqual([1]);
  });
});
