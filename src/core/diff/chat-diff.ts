import { createTwoFilesPatch } from "diff";
import { type RenderTokens, renderConversations, type ScenarioName } from "./chat-render.ts";

export type ScenarioChange = { name: ScenarioName; before: string; after: string; changed: boolean };

export type ChatTemplateDiff = {
  /** Unified diff of the template source ("" when the texts are identical). */
  lineDiff: string;
  /** The sources differ, but only in whitespace (the rendered prompt may still differ). */
  whitespaceOnly: boolean;
  /** Every fixed scenario, rendered with both templates (render errors as text). */
  scenarios: ScenarioChange[];
  /** Some scenario renders differently: what the model is fed has changed. */
  promptChanged: boolean;
};

/**
 * Diffs two versions of one chat template: the source text and the prompts both render for the
 * fixed scenarios. `afterTokens` defaults to `tokens`; pass it when bos/eos changed too.
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
  const old = renderConversations(before, tokens);
  const next = renderConversations(after, afterTokens);
  const scenarios = old.map((o, i) => {
    const n = next[i]?.output ?? "";
    return { name: o.name, before: o.output, after: n, changed: o.output !== n };
  });
  return { lineDiff, whitespaceOnly, scenarios, promptChanged: scenarios.some((s) => s.changed) };
}

function stripWhitespace(text: string): string {
  return text.replace(/\s+/g, "");
}
