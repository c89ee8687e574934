import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configView, EstimatorInputError } from "./config-view.ts";
import { estimate } from "./estimate.ts";
import { FAMILY_READERS } from "./families/index.ts";
import { resolveModel } from "./resolve.ts";

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

type Base = { name: string; config: Record<string, unknown> };

const fixtures: Base[] = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => ({
    name: d.name,
    config: JSON.parse(readFileSync(new URL(`${d.name}/config.json`, ROOT), "utf8")),
  }));

/** The model_type whose reader reads `config`, or null when no reader does. */
function readBy(config: Record<string, unknown>): string | null {
  try {
    return resolveModel(configView(config)).reading.modelType;
  } catch {
    return null;
  }
}

/**
 * One base config per reader (every model_type in FAMILY_READERS): every fixture a reader reads, and for a
 * reader no fixture reaches, the first fixture its reader reads once `model_type` names it.
 */
function basesPerReader(): { bases: Base[]; uncovered: string[] } {
  const bases = fixtures.filter((f) => readBy(f.config) !== null);
  const covered = new Set(bases.map((f) => readBy(f.config)));
  const uncovered: string[] = [];
  for (const type of Object.keys(FAMILY_READERS)) {
    if (covered.has(type)) continue;
    const from = fixtures.find((f) => readBy({ ...f.config, model_type: type }) === type);
    if (from)
      bases.push({ name: `${type} (${from.name} as ${type})`, config: { ...from.config, model_type: type } });
    else uncovered.push(type);
  }
  return { bases, uncovered };
}

const { bases, uncovered } = basesPerReader();

it("every reader has a base config to mutate", () => {
  expect(uncovered).toEqual([]);
  expect(bases.length).toBeGreaterThanOrEqual(Object.keys(FAMILY_READERS).length);
});

describe("mutated configs: an EstimatorInputError naming a key, or a finite estimate; never a crash", () => {
  for (const { name, config } of bases) {
    it(name, () => {
      const r = rng(name.length * 7919);
      for (let i = 0; i < 150; i++) {
        const bad = mutate(config, r);
        try {
          expect(finite(estimate(bad))).toBe(true);
        } catch (err) {
          if (!(err instanceof EstimatorInputError))
            throw new Error(`${name} mutation ${i}: ${String(err)}\n${JSON.stringify(bad)}`);
          expect(err.key.length).toBeGreaterThan(0);
        }
      }
    });
  }
});
