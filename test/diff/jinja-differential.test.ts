import { describe, expect, it } from "vitest";
import { renderConversations, type ScenarioOutput } from "../../src/core/diff/chat-render.ts";
import { SCENARIOS } from "../../src/core/diff/chat-scenarios.ts";
import { type OracleCase, renderWithJinja2 } from "../helpers/jinja2-oracle.ts";
import { templateFixtures } from "../helpers/template-fixtures.ts";

// Small templates on the semantics chat templates lean on, where @huggingface/jinja 0.5.11 and
// Python's jinja2 part ways (patches/@huggingface+jinja+0.5.11.patch closes them).
const PROBES = [
  "{{ messages[2].content.lstrip('W') }}|{{ '\\n\\n  x \\n'.lstrip('\\n') }}|{{ 'xx</a>'.rstrip('</a>') }}|{{ '-a-'.strip('-') }}",
  "{{ none | trim }}|{{ missing | trim }}|{{ ' \\x1c x\\ufeff ' | trim }}",
  "{{ 'a' + messages[0] }}",
  "{{ 'a' + 1 }}",
  "{{ none }}|{{ true }}|{{ false }}|{{ tools }}|{{ 'a' ~ none ~ true ~ missing }}",
  "{{ messages[0] }}|{{ [1, 'it\\'s', none, true] }}|{{ 'a b'.split() }}|{{ [1] | string }}",
  "{%- for m in messages %}{{ loop.index }}{{ loop.last }}{% endfor %}|{{ 'a' in 'abc' }}",
  "{% set x = 1 %}{% macro f() %}m{% endmacro %}{# c #}{{ f() }}",
];

type Divergence = { id: string; scenario: string; ts: string; py: string };

function divergences(cases: OracleCase[]): { compared: number; rendered: number; diverged: Divergence[] } {
  const { outputs } = renderWithJinja2(cases);
  const diverged: Divergence[] = [];
  let compared = 0;
  let rendered = 0;
  for (const c of cases) {
    const ours = renderConversations(c.template, c.tokens, c.scenarios);
    const theirs = outputs.get(c.id) ?? [];
    expect(theirs.map((o) => o.name)).toEqual(ours.map((o) => o.name));
    ours.forEach((o, i) => {
      const p = theirs[i] as ScenarioOutput;
      compared += 1;
      if (!p.error) rendered += 1;
      // Error texts differ between engines; that both fail is what must agree.
      const same = o.error && p.error ? true : o.error === p.error && o.output === p.output;
      if (!same) diverged.push({ id: c.id, scenario: o.name, ts: o.output, py: p.output });
    });
  }
  return { compared, rendered, diverged };
}

describe("chat template rendering against Python's jinja2 as transformers configures it", () => {
  it("renders every fixture template on every scenario as jinja2 does", () => {
    const fixtures = templateFixtures();
    expect(fixtures.length).toBeGreaterThanOrEqual(27);
    const cases = fixtures.map((f) => ({
      id: f.id,
      template: f.template,
      tokens: f.tokens,
      scenarios: SCENARIOS,
    }));
    const { compared, rendered, diverged } = divergences(cases);
    expect(compared).toBe(fixtures.length * SCENARIOS.length);
    expect(rendered).toBeGreaterThan(compared / 2);
    expect(diverged).toEqual([]);
  });

  it("agrees on the probes of strip arguments, None, booleans, reprs and string concatenation", () => {
    const cases = PROBES.map((template, i) => ({
      id: `probe-${i}`,
      template,
      tokens: { eos_token: "</s>" },
      scenarios: SCENARIOS.filter((s) => s.name === "multi_turn"),
    }));
    const { rendered, diverged } = divergences(cases);
    expect(rendered).toBe(PROBES.length - 2); // the two concatenations raise in both
    expect(diverged).toEqual([]);
  });
});
