import { Environment, Interpreter, Template } from "@huggingface/jinja";
import { jinjaGlobals } from "./jinja-globals.ts";

/** Special tokens a chat template reads as variables. */
export type RenderTokens = { bos_token: string; eos_token: string };

/** One scenario's output: the rendered prompt, or the render error's text. */
export type ScenarioOutput = { name: ScenarioName; output: string; error: boolean };

export type ScenarioName = (typeof SCENARIOS)[number]["name"];

/** Prefix of a scenario output that is a render error (e.g. raise_exception on a system role). */
export const RENDER_ERROR_PREFIX = "[render error] ";

const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name" } },
      required: ["city"],
    },
  },
};

const plainTurns = [
  { role: "user", content: "Hello, who are you?" },
  { role: "assistant", content: "I am a helpful assistant." },
  { role: "user", content: "What is 2 + 2?" },
];

/**
 * The fixed conversations every template is rendered on. Changing them changes every stored
 * rendering, so extend only by appending.
 */
const SCENARIOS = [
  { name: "plain", messages: plainTurns, add_generation_prompt: true },
  { name: "plain_no_generation_prompt", messages: plainTurns, add_generation_prompt: false },
  {
    name: "system",
    messages: [
      { role: "system", content: "You are a terse assistant." },
      { role: "user", content: "What is 2 + 2?" },
    ],
    add_generation_prompt: true,
  },
  {
    name: "tools",
    tools: [WEATHER_TOOL],
    messages: [
      { role: "user", content: "What is the weather in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "get_weather", arguments: { city: "Paris" } },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", name: "get_weather", content: '{"temp_c": 18}' },
    ],
    add_generation_prompt: true,
  },
  {
    name: "think",
    messages: [
      { role: "user", content: "What is 2 + 2?" },
      { role: "assistant", content: "<think>\nTwo plus two is four.\n</think>\n\n4" },
      { role: "user", content: "And 3 + 3?" },
    ],
    add_generation_prompt: true,
  },
] as const;

/** Scenario names in render order. */
export const SCENARIO_NAMES: readonly ScenarioName[] = SCENARIOS.map((s) => s.name);

/**
 * Renders the fixed conversations through @huggingface/jinja (an interpreter: templates cannot
 * run host code). A template that fails to parse or raises yields the error text for every
 * affected scenario instead of throwing. `strftime_now` is pinned to 26 Jul 2024 so the output
 * does not depend on the clock; `range` stops a runaway template (see jinja-globals.ts).
 */
export function renderConversations(template: string, tokens: RenderTokens): ScenarioOutput[] {
  let compiled: Template;
  try {
    compiled = new Template(template);
  } catch (err) {
    return SCENARIOS.map((s) => ({ name: s.name, output: errorText(err), error: true }));
  }
  return SCENARIOS.map((s) => {
    const context = {
      ...tokens,
      messages: structuredClone(s.messages),
      add_generation_prompt: s.add_generation_prompt,
      ...("tools" in s ? { tools: structuredClone(s.tools) } : {}),
    };
    try {
      return { name: s.name, output: renderPinned(compiled, context), error: false };
    } catch (err) {
      return { name: s.name, output: errorText(err), error: true };
    }
  });
}

/**
 * Template.render with the library's globals re-declared (jinja-globals.ts), so that
 * `strftime_now` reads a fixed date and `range` has a budget (Template.render refuses to
 * override a global).
 */
function renderPinned(template: Template, items: Record<string, unknown>): string {
  const env = new Environment();
  for (const [key, value] of Object.entries({ ...jinjaGlobals(), ...items })) env.set(key, value);
  return String(new Interpreter(env).run(template.parsed).value);
}

function errorText(err: unknown): string {
  return RENDER_ERROR_PREFIX + (err instanceof Error ? err.message : String(err));
}
