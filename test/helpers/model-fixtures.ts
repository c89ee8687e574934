// Reads the vendored model fixtures (fixtures/models/<owner>__<name>/) for the estimator's tests and bench.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { configView } from "../../src/core/estimator/config-view.ts";
import { readModel } from "../../src/core/estimator/resolve.ts";
import type { ModelReading } from "../../src/core/estimator/types.ts";

export type RawConfig = Record<string, unknown>;

export const MODEL_FIXTURES = new URL("../../fixtures/models/", import.meta.url);

/** The fixture folders, sorted. */
export function modelFixtureDirs(): string[] {
  return readdirSync(MODEL_FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** A fixture's config.json and its ground-truth stored total (null when the folder has no truth.json). */
export function modelFixture(dir: string): { config: RawConfig; truth: number | null } {
  const base = new URL(`${dir}/`, MODEL_FIXTURES);
  const config = JSON.parse(readFileSync(new URL("config.json", base), "utf8")) as RawConfig;
  const truthFile = new URL("truth.json", base);
  const truth = existsSync(truthFile)
    ? (JSON.parse(readFileSync(truthFile, "utf8")).params_total as number | null)
    : null;
  return { config, truth };
}

/** The family reader's view of a config (no memory or fit). */
export function readConfig(config: RawConfig): ModelReading {
  return readModel(configView(config));
}
