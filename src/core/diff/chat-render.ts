import { Environment, Interpreter, Template } from "@huggingface/jinja";
import { type Scenario, scenariosFor } from "./chat-scenarios.ts";
import { jinjaGlobals } from "./jinja-globals.ts";

/**
 * Special tokens a chat template reads as variables (transformers passes its special_tokens_map):
 * a token the tokenizer does not set is left undefined, as in transformers.
 */
export type RenderTokens = { bos_token?: string; eos_token?: string; pad_token?: string; unk_token?: string };

/** One scenario's output: the rendered prompt, or the render error's text. */
export type ScenarioOutput = { name: string; output: string; error: boolean };

/** Prefix of a scenario output that is a render error (e.g. raise_exception on a system role). */
export const RENDER_ERROR_PREFIX = "[render error] ";

/**
 * Renders `scenarios` (default: every scenario the template can read, chat-scenarios.ts) through
 * @huggingface/jinja, an interpreter: templates cannot run host code. As transformers does, `tools`
 * and `documents` are always defined (null when the scenario has none), and continue_final_message
 * cuts the prompt right after the last message's text. A template that fails to parse or raises
 * yields the error text for every affected scenario instead of throwing. `strftime_now` is pinned
 * to 26 Jul 2024 so the output does not depend on the clock; `range` stops a runaway template
 * (one budget per call, jinja-globals.ts).
 */
export function renderConversations(
  template: string,
  tokens: RenderTokens,
  scenarios: readonly Scenario[] = scenariosFor(template),
): ScenarioOutput[] {
  let compiled: Template;
  try {
    compiled = new Template(template);
  } catch (err) {
    return scenarios.map((s) => ({ name: s.name, output: errorText(err), error: true }));
  }
  // One range budget for all scenarios: a runaway template stops once, not once per scenario.
  const globals = jinjaGlobals();
  return scenarios.map((s) => {
    try {
      return { name: s.name, output: renderScenario(compiled, globals, tokens, s), error: false };
    } catch (err) {
      return { name: s.name, output: errorText(err), error: true };
    }
  });
}

function renderScenario(
  compiled: Template,
  globals: Record<string, unknown>,
  tokens: RenderTokens,
  s: Scenario,
): string {
  const context = {
    ...definedTokens(tokens),
    messages: structuredClone(s.messages),
    tools: s.tools ? structuredClone(s.tools) : null,
    documents: s.documents ? structuredClone(s.documents) : null,
    add_generation_prompt: s.add_generation_prompt,
  };
  const rendered = renderPinned(compiled, { ...globals, ...context });
  if (!s.continue_final_message) return rendered;
  return cutAfterFinalMessage(rendered, String(s.messages.at(-1)?.content ?? ""));
}

function definedTokens(tokens: RenderTokens): Record<string, string> {
  return Object.fromEntries(Object.entries(tokens).filter(([, v]) => typeof v === "string"));
}

/**
 * transformers' continue_final_message: the prompt ends where the final message's text ends, so
 * the model continues it. Throws, as transformers does, when the template dropped that text.
 */
export function cutAfterFinalMessage(rendered: string, final: string): string {
  const core = final.trim();
  const at = rendered.lastIndexOf(core);
  if (at < 0) throw new Error("continue_final_message: the final message does not appear in the prompt");
  const kept = final.trimStart().length;
  if (rendered.slice(at, at + kept) === final) return rendered.slice(0, at + kept);
  return rendered.slice(0, at + core.length);
}

/**
 * Template.render with the library's globals re-declared (jinja-globals.ts), so that
 * `strftime_now` reads a fixed date and `range` has a budget (Template.render refuses to
 * override a global).
 */
function renderPinned(template: Template, items: Record<string, unknown>): string {
  const env = new Environment();
  for (const [key, value] of Object.entries(items)) env.set(key, value);
  return String(new Interpreter(env).run(template.parsed).value);
}

function errorText(err: unknown): string {
  return RENDER_ERROR_PREFIX + (err instanceof Error ? err.message : String(err));
}
