import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { estimate } from "../estimate.ts";
import { MOE_KNOWN_DELTAS } from "./moe-known-deltas.ts";

const ROOT = new URL("../../../../fixtures/models/", import.meta.url);
const read = (m: string, f: string) => JSON.parse(readFileSync(new URL(`${m}/${f}`, ROOT), "utf8"));

/** The model types these family readers own. */
const TYPES = new Set([
  "qwen3_moe",
  "mixtral",
  "deepseek_v3",
  "deepseek_v32",
  "kimi_k2",
  "kimi_k25",
  "glm_moe_dsa",
  "minimax_m2",
  "gpt_oss",
  "qwen3_vl",
  "qwen3_vl_moe",
  "qwen3_5",
  "qwen3_5_moe",
  "qwen3_asr",
  "llama4",
  "gemma4",
  "nemotron_h",
  "step3p7",
]);

const fixtures = readdirSync(ROOT).filter((m) => existsSync(new URL(`${m}/config.json`, ROOT)));

describe("every fixture of these types: derived + known stored extras == stored", () => {
  for (const m of fixtures) {
    const config = read(m, "config.json");
    if (!TYPES.has(config.model_type)) continue;
    const truth = existsSync(new URL(`${m}/truth.json`, ROOT)) ? read(m, "truth.json").params_total : null;
    it(`${m} (${config.model_type}) is read by its own family reader`, () => {
      const e = estimate(config);
      expect(e.family).toBe(config.model_type);
      expect(e.params.total).toBeGreaterThan(0);
      if (typeof truth !== "number") return;
      const extra = MOE_KNOWN_DELTAS[m]?.scalars ?? 0;
      expect(e.params.total + extra).toBe(truth);
      // Within 0.5% once the stored duplicates and quantization scales are accounted for.
      const unexplained = /unexplained/.test(MOE_KNOWN_DELTAS[m]?.reason ?? "");
      const compared = unexplained ? e.params.total : e.params.total + extra;
      expect(Math.abs(compared - truth) / truth).toBeLessThan(0.005);
    });
  }
});
