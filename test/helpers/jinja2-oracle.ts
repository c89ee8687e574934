import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RenderTokens, ScenarioOutput } from "../../src/core/diff/chat-render.ts";
import type { Scenario } from "../../src/core/diff/chat-scenarios.ts";

const SCRIPT = fileURLToPath(new URL("../oracle/jinja2_render.py", import.meta.url));

export type OracleCase = {
  id: string;
  template: string;
  tokens: RenderTokens;
  scenarios: readonly Scenario[];
};

/**
 * Renders every case with Python's jinja2 configured as transformers configures it
 * (test/oracle/jinja2_render.py), in one python3 process. Throws when python3 or jinja2 is missing:
 * `.ci/run` installs Debian's python3-jinja2.
 */
export function renderWithJinja2(cases: OracleCase[]): {
  version: string;
  outputs: Map<string, ScenarioOutput[]>;
} {
  const run = spawnSync("python3", [SCRIPT], {
    input: JSON.stringify({ cases }),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`jinja2 oracle failed (${run.status}): ${run.stderr}`);
  const parsed = JSON.parse(run.stdout) as {
    jinja2: string;
    results: { id: string; outputs: ScenarioOutput[] }[];
  };
  return { version: parsed.jinja2, outputs: new Map(parsed.results.map((r) => [r.id, r.outputs])) };
}
