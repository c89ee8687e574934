import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORE_FAMILIES } from "../../../test/helpers/model-fixtures.ts";
import { EstimatorInputError } from "./config-view.ts";
import { estimate } from "./estimate.ts";

const ROOT = new URL("../../../fixtures/models/", import.meta.url);
const BAD: unknown[] = [-1, 0, 0.5, 1e13, Number.NaN, "12", null, true, [], {}, 3];

/** Small deterministic PRNG (mulberry32), so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(cfg: Record<string, unknown>, r: () => number): Record<string, unknown> {
  const out = structuredClone(cfg);
  const targets: Record<string, unknown>[] = [out];
  for (const v of Object.values(out))
    if (v && typeof v === "object" && !Array.isArray(v)) targets.push(v as Record<string, unknown>);
  for (let k = 0; k < 1 + Math.floor(r() * 3); k++) {
    const t = targets[Math.floor(r() * targets.length)]!;
    const keys = Object.keys(t);
    const key = keys[Math.floor(r() * keys.length)];
    if (key === undefined) continue;
    if (r() < 0.3) delete t[key];
    else t[key] = BAD[Math.floor(r() * BAD.length)];
  }
  return out;
}

function finite(v: unknown): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  if (v && typeof v === "object") return Object.values(v).every(finite);
  return true;
}

const own = readdirSync(ROOT).filter((m) => {
  try {
    return CORE_FAMILIES.has(
      estimate(JSON.parse(readFileSync(new URL(`${m}/config.json`, ROOT), "utf8"))).family,
    );
  } catch {
    return false;
  }
});

describe("mutated configs: an EstimatorInputError naming a key, or a finite estimate; never a crash", () => {
  for (const m of own) {
    it(m, () => {
      const cfg = JSON.parse(readFileSync(new URL(`${m}/config.json`, ROOT), "utf8"));
      const r = rng(m.length * 7919);
      for (let i = 0; i < 150; i++) {
        const bad = mutate(cfg, r);
        try {
          expect(finite(estimate(bad))).toBe(true);
        } catch (err) {
          if (!(err instanceof EstimatorInputError))
            throw new Error(`${m} mutation ${i}: ${String(err)}\n${JSON.stringify(bad)}`);
          expect(err.key.length).toBeGreaterThan(0);
        }
      }
    });
  }
});
