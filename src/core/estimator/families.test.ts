import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { estimate } from "./estimate.ts";

const ROOT = new URL("../../../fixtures/models/", import.meta.url);
const read = (m: string, f: string) => JSON.parse(readFileSync(new URL(`${m}/${f}`, ROOT), "utf8"));

describe("fixtures with a known total outside their truth.json", () => {
  it("whisper-large-v3-turbo matches the Hub's 808,878,080 (F16)", () => {
    expect(estimate(read("ivrit-ai__whisper-large-v3-turbo", "config.json")).params.total).toBe(808_878_080);
  });

  it("clip-vit-base-patch32 matches CLIPModel's 151,277,313", () => {
    const e = estimate(read("openai__clip-vit-base-patch32", "config.json"));
    expect(e.params.total).toBe(151_277_313);
    expect(Object.keys(e.params.towers)).toEqual(["text", "vision"]);
  });

  it("reads the old roberta-base config (no model_type, no architectures) as RoBERTa with a warning", () => {
    const e = estimate(read("FacebookAI__roberta-base", "config.json"));
    expect(e.family).toBe("roberta");
    expect(e.warnings.join(" ")).toMatch(/model_type and architectures missing/);
  });

  it("runs Whisper's encoder at 1500 positions from 3000 mel frames and its decoder at 448", () => {
    const e = estimate(read("ivrit-ai__whisper-large-v3-turbo", "config.json"));
    const conv1 = e.structure.find((n) => n.name === "encoder.Conv1")!;
    expect(conv1.shape).toEqual([3000, 1280]);
    expect(e.structure.find((n) => n.name === "encoder.Conv2")!.shape).toEqual([1500, 1280]);
    expect(e.memory.kv_cache.tokens).toBe(448);
    expect(e.memory.full_finetune.tokens).toBe(448);
    expect(e.memory.kv_cache.breakdown.cross).toBe(4 * 2 * 1280 * 2 * 1500);
  });
});

describe("no NaN or Infinity in any output", () => {
  for (const m of readdirSync(ROOT).filter((f) => existsSync(new URL(`${f}/config.json`, ROOT)))) {
    it(m, () => {
      let e: ReturnType<typeof estimate>;
      try {
        e = estimate(read(m, "config.json"));
      } catch (err) {
        // A reader may reject a config; the error must then name a key, not crash.
        expect((err as { key?: string }).key).toBeTypeOf("string");
        return;
      }
      const walk = (v: unknown): void => {
        if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
        else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
      };
      walk(e);
      for (const f of [e.memory.full_finetune, e.memory.lora, e.memory.serve, e.memory.kv_cache]) {
        const sum = Object.values(f.breakdown).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - f.bytes)).toBeLessThanOrEqual(1e-6 * Math.max(1, f.bytes));
      }
    });
  }
});
