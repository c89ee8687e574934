/**
 * The fixed conversations every chat template is rendered on, chosen for what real templates
 * branch on: a system turn, several turns, reasoning kept or dropped, a trailing assistant turn to
 * continue, answers wrapped in whitespace, tool calls whose `content` is "", null or absent,
 * `add_generation_prompt` on and off, and documents. Plain data (JSON-safe), so that the
 * differential test can hand exactly these to Python's jinja2.
 */
export type Scenario = {
  name: string;
  messages: Record<string, unknown>[];
  add_generation_prompt: boolean;
  /** transformers' continue_final_message: the prompt ends inside the last (assistant) turn. */
  continue_final_message?: boolean;
  tools?: Record<string, unknown>[];
  documents?: Record<string, unknown>[];
};

const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name, e.g. Zürich" } },
      required: ["city"],
    },
  },
};

const turns = [
  { role: "user", content: "Hello, who are you?" },
  { role: "assistant", content: "I am a helpful assistant." },
  { role: "user", content: "What is 2 + 2?" },
];

const ask = { role: "user", content: "What is the weather in Paris?" };
const call = {
  id: "call_1",
  type: "function",
  function: { name: "get_weather", arguments: { city: "Paris" } },
};
const result = { role: "tool", tool_call_id: "call_1", name: "get_weather", content: '{"temp_c": 18}' };

/** A tool round trip whose assistant turn carries `content` as given ("omit": no key at all). */
function toolScenario(name: string, content: "" | null | "omit", system: boolean): Scenario {
  const assistant: Record<string, unknown> = { role: "assistant", tool_calls: [structuredClone(call)] };
  if (content !== "omit") assistant.content = content;
  const sys = system ? [{ role: "system", content: "You are a weather bot." }] : [];
  return {
    name,
    tools: [WEATHER_TOOL],
    messages: [...sys, ask, assistant, result],
    add_generation_prompt: true,
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "system_user",
    messages: [
      { role: "system", content: "You are a terse assistant." },
      { role: "user", content: "What is 2 + 2?" },
    ],
    add_generation_prompt: true,
  },
  { name: "multi_turn", messages: turns, add_generation_prompt: true },
  { name: "multi_turn_no_generation_prompt", messages: turns, add_generation_prompt: false },
  {
    name: "reasoning_in_history",
    messages: [
      { role: "user", content: "What is 2 + 2?" },
      { role: "assistant", content: "<think>\nTwo plus two is four.\n</think>\n\n4" },
      { role: "user", content: "And 3 + 3?" },
    ],
    add_generation_prompt: true,
  },
  {
    name: "reasoning_field_last_turn",
    messages: [
      { role: "user", content: "What is 3 + 3?" },
      { role: "assistant", reasoning_content: "Three plus three is six.", content: "6" },
    ],
    add_generation_prompt: false,
  },
  {
    name: "reasoning_inline_last_turn",
    messages: [
      { role: "user", content: "What is 3 + 3?" },
      { role: "assistant", content: "<think>\nThree plus three is six.\n</think>\n\n6" },
    ],
    add_generation_prompt: false,
  },
  {
    name: "continue_final_message",
    messages: [
      { role: "user", content: "Write a haiku about rain." },
      { role: "assistant", content: "Soft rain on the roof" },
    ],
    add_generation_prompt: false,
    continue_final_message: true,
  },
  {
    name: "whitespace_answers",
    messages: [
      { role: "system", content: "\nBe brief.\n" },
      { role: "user", content: "  Say hi.\n" },
      { role: "assistant", content: "<think>\n\n  Greeting.  \n</think>\n\n   Hi there!  \n\n" },
      { role: "user", content: "\n\nAgain?  " },
    ],
    add_generation_prompt: true,
  },
  toolScenario("tool_call_content_empty", "", true),
  toolScenario("tool_call_content_null", null, false),
  toolScenario("tool_call_content_omitted", "omit", false),
  {
    name: "documents",
    documents: [
      { title: "Weather report", text: "Paris: 18 °C, light rain." },
      { title: "Almanac", text: "Paris averages 637 mm of rain a year." },
    ],
    messages: [{ role: "user", content: "Will it rain in Paris?" }],
    add_generation_prompt: true,
  },
];

/** Scenario names in render order. */
export const SCENARIO_NAMES: readonly string[] = SCENARIOS.map((s) => s.name);

/**
 * The scenarios worth rendering for a template: all, less `documents` when the source never
 * mentions them (it would only repeat the single-turn prompt).
 */
export function scenariosFor(...sources: string[]): Scenario[] {
  const readsDocuments = sources.some((s) => /\bdocuments\b/.test(s));
  return SCENARIOS.filter((s) => s.documents === undefined || readsDocuments);
}
