import { createTwoFilesPatch } from "diff";
import { type RenderTokens, renderConversations } from "./chat-render.ts";
import { scenariosFor } from "./chat-scenarios.ts";
import { outputCodeChanged } from "./chat-source.ts";

/** Both versions' output for one scenario (render errors as text, marked). */
export type ScenarioChange = {
  name: string;
  before: string;
  after: string;
  beforeError: boolean;
  afterError: boolean;
  changed: boolean;
};

/**
 * What a template edit does to the prompts: `changed` (some scenario renders differently, or
 * renders on one side only), `identical` on `scenarios` scenarios both versions render, or
 * `unknown` when no scenario renders with both.
 */
export type PromptVerdict =
  | { verdict: "changed"; changed: string[] }
  | { verdict: "identical"; scenarios: number }
  | { verdict: "unknown" };

export type ChatTemplateDiff = {
  /** Unified diff of the template source ("" when the texts are identical). */
  lineDiff: string;
  /** The sources differ, but only in whitespace (the rendered prompt may still differ). */
  whitespaceOnly: boolean;
  /** Every scenario either version can read, rendered with both templates. */
  scenarios: ScenarioChange[];
  prompt: PromptVerdict;
  /** The edit touched printed text, an output expression or a string literal (null: a side does not parse). */
  outputCodeChanged: boolean | null;
  /** true: the prompt changed; false: identical on the scenarios; null: unknown. */
  promptChanged: boolean | null;
};

/**
 * Diffs two versions of one chat template: the source text, the prompts both render for the
 * fixed scenarios, and whether the edit reached printed code. `afterTokens` defaults to `tokens`;
 * pass it when bos/eos changed too.
 */
export function diffChatTemplate(
  before: string,
  after: string,
  tokens: RenderTokens,
  afterTokens: RenderTokens = tokens,
): ChatTemplateDiff {
  const same = before === after;
  const lineDiff = same
    ? ""
    : createTwoFilesPatch("a/chat_template.jinja", "b/chat_template.jinja", before, after);
  const whitespaceOnly = !same && stripWhitespace(before) === stripWhitespace(after);
  const scenarios = compareScenarios(before, after, tokens, afterTokens);
  const prompt = verdictOf(scenarios);
  return {
    lineDiff,
    whitespaceOnly,
    scenarios,
    prompt,
    outputCodeChanged: same ? false : outputCodeChanged(before, after),
    promptChanged: prompt.verdict === "unknown" ? null : prompt.verdict === "changed",
  };
}

function compareScenarios(
  before: string,
  after: string,
  tokens: RenderTokens,
  afterTokens: RenderTokens,
): ScenarioChange[] {
  const list = scenariosFor(before, after);
  const old = renderConversations(before, tokens, list);
  const next = renderConversations(after, afterTokens, list);
  return old.map((o, i) => {
    const n = next[i] ?? o;
    // Two failures are no prompt on either side: not a change, whatever their messages say.
    const changed = o.error && n.error ? false : o.error !== n.error || o.output !== n.output;
    return {
      name: o.name,
      before: o.output,
      after: n.output,
      beforeError: o.error,
      afterError: n.error,
      changed,
    };
  });
}

function verdictOf(scenarios: ScenarioChange[]): PromptVerdict {
  const changed = scenarios.filter((s) => s.changed).map((s) => s.name);
  if (changed.length > 0) return { verdict: "changed", changed };
  const rendered = scenarios.filter((s) => !s.beforeError && !s.afterError).length;
  return rendered === 0 ? { verdict: "unknown" } : { verdict: "identical", scenarios: rendered };
}

/** One line a person reads: what the edit did to the prompts. */
export function describePromptVerdict(
  d: Pick<ChatTemplateDiff, "prompt" | "outputCodeChanged" | "scenarios">,
): string {
  const p = d.prompt;
  if (p.verdict === "changed") {
    const names = p.changed.slice(0, 4).join(", ") + (p.changed.length > 4 ? ", ..." : "");
    return `rendered prompt changed in ${p.changed.length} of ${d.scenarios.length} scenarios (${names})`;
  }
  if (p.verdict === "unknown") return "prompt change unknown: neither version renders any scenario";
  if (d.outputCodeChanged) return `output-affecting code changed; identical on the ${p.scenarios} scenarios`;
  return `rendered prompts identical on ${p.scenarios} scenarios`;
}

function stripWhitespace(text: string): string {
  return text.replace(/\s+/g, "");
}
