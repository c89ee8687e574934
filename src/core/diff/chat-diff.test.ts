import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describePromptVerdict, diffChatTemplate } from "./chat-diff.ts";
import type { RenderTokens } from "./chat-render.ts";

const ROOT = new URL("../../../fixtures/templates/", import.meta.url);

type Version = { label: string; bos_token: string | null; eos_token: string | null };

function load(model: string, label: string): { text: string; tokens: RenderTokens } {
  const versions = JSON.parse(readFileSync(new URL(`${model}/versions.json`, ROOT), "utf8"))
    .versions as Version[];
  const v = versions.find((x) => x.label === label);
  if (!v) throw new Error(`no ${label} in ${model}`);
  const text = readFileSync(new URL(`${model}/${label}/chat_template.jinja`, ROOT), "utf8");
  const tokens: RenderTokens = {};
  if (v.bos_token !== null) tokens.bos_token = v.bos_token;
  if (v.eos_token !== null) tokens.eos_token = v.eos_token;
  return { text, tokens };
}

function diff(model: string, from: string, to: string) {
  const a = load(model, from);
  const b = load(model, to);
  const d = diffChatTemplate(a.text, b.text, a.tokens, b.tokens);
  expect(d.lineDiff).toContain("@@");
  return d;
}

const bothRender = (d: ReturnType<typeof diffChatTemplate>) =>
  d.scenarios.filter((s) => !s.beforeError && !s.afterError).length;

function changedScenarios(model: string, from: string, to: string): string[] {
  return diff(model, from, to)
    .scenarios.filter((s) => s.changed)
    .map((s) => s.name);
}

// Classifications from fixtures/templates/INDEX.md and each model's SOURCE.md.
describe("diffChatTemplate on real template histories", () => {
  it("Phi-3-mini v1 -> v2: only conversations with a system turn change (it is dropped)", () => {
    const m = "microsoft__Phi-3-mini-4k-instruct";
    const changed = changedScenarios(m, "v1-2024-04-22", "v2-2024-04-29");
    expect(changed).toContain("system_user");
    expect(changed).not.toContain("multi_turn");
    const system = diff(m, "v1-2024-04-22", "v2-2024-04-29").scenarios.find((s) => s.name === "system_user");
    expect(system?.before).toContain("You are a terse assistant.");
    expect(system?.after).not.toContain("You are a terse assistant.");
  });

  it("Llama-3 v1 -> v2 and v2 -> v3: only prompts that end on a turn (no generation prompt) change", () => {
    const m = "NousResearch__Meta-Llama-3-8B-Instruct";
    for (const [from, to] of [
      ["v1-2024-04-18", "v2-2024-04-19"],
      ["v2-2024-04-19", "v3-2024-04-30"],
    ] as const) {
      const changed = changedScenarios(m, from, to);
      expect(changed).toContain("multi_turn_no_generation_prompt");
      expect(changed).not.toContain("multi_turn");
      expect(changed).not.toContain("system_user");
    }
  });

  it("DeepSeek-R1 v1 -> v2: the generation prompt gains <think> (suffix only)", () => {
    const d = diff("deepseek-ai__DeepSeek-R1", "v1-2025-01-20", "v2-2025-02-09");
    const changed = d.scenarios.filter((s) => s.changed).map((s) => s.name);
    expect(changed).toEqual(expect.arrayContaining(["multi_turn", "system_user"]));
    expect(changed).not.toContain("multi_turn_no_generation_prompt");
    const turn = d.scenarios.find((s) => s.name === "multi_turn");
    expect(turn?.after).toBe(`${turn?.before}<think>\n`);
  });

  it("Qwen2.5 v2 -> v3: only tool prompts change", () => {
    expect(changedScenarios("Qwen__Qwen2.5-7B-Instruct", "v2-2024-09-18", "v3-2024-09-19")).toEqual([
      "tool_call_content_empty",
      "tool_call_content_null",
      "tool_call_content_omitted",
    ]);
  });

  it("Qwen3 v1 -> v2: tool-call turns without string content render instead of raising", () => {
    const d = diff("Qwen__Qwen3-8B", "v1-2025-04-28", "v2-2025-05-19");
    expect(d.scenarios.filter((s) => s.changed).map((s) => s.name)).toEqual([
      "tool_call_content_null",
      "tool_call_content_omitted",
    ]);
    const tools = d.scenarios.find((s) => s.name === "tool_call_content_null");
    expect(tools?.beforeError).toBe(true);
    expect(tools?.after).toContain("<tool_call>");
  });

  it("QwQ-32B v2 -> v3: the last assistant turn keeps its reasoning", () => {
    const d = diff("Qwen__QwQ-32B", "v2-2025-03-05", "v3-2025-03-10");
    expect(d.prompt.verdict).toBe("changed");
    const last = d.scenarios.find((s) => s.name === "reasoning_inline_last_turn");
    expect(last?.before).not.toContain("Three plus three is six.");
    expect(last?.after).toContain("<think>\nThree plus three is six.\n</think>");
    expect(d.scenarios.find((s) => s.name === "reasoning_in_history")?.changed).toBe(false);
  });

  it("QwQ-32B v3 -> v4: a whitespace-only edit (lstrip('\\n    ') -> lstrip('\\n')) keeps an answer's leading spaces", () => {
    const d = diff("Qwen__QwQ-32B", "v3-2025-03-10", "v4-2025-03-11");
    expect(d.whitespaceOnly).toBe(true);
    expect(d.prompt).toEqual({ verdict: "changed", changed: ["whitespace_answers"] });
    const ws = d.scenarios.find((s) => s.name === "whitespace_answers");
    expect(ws?.before).toContain("assistant\nHi there!");
    expect(ws?.after).toContain("assistant\n   Hi there!");
    expect(d.outputCodeChanged).toBe(true);
  });
});

describe("diffChatTemplate verdicts on synthetic edits", () => {
  const { text, tokens } = load("microsoft__Phi-3-mini-4k-instruct", "v2-2024-04-29");

  it("reports nothing for an identical template", () => {
    const d = diffChatTemplate(text, text, tokens);
    expect(d.lineDiff).toBe("");
    expect(bothRender(d)).toBeGreaterThan(0);
    expect(d.prompt).toEqual({ verdict: "identical", scenarios: bothRender(d) });
    expect(d.promptChanged).toBe(false);
    expect(d.outputCodeChanged).toBe(false);
  });

  it("flags a whitespace-only edit whose rendered prompts are unchanged", () => {
    // trim_blocks drops the newline after a block tag, so this edit cannot reach the prompt.
    const edited = text.replace("%}", "%}\n");
    const d = diffChatTemplate(text, edited, tokens);
    expect(d.whitespaceOnly).toBe(true);
    expect(d.promptChanged).toBe(false);
    expect(d.outputCodeChanged).toBe(false);
    expect(describePromptVerdict(d)).toBe(`rendered prompts identical on ${bothRender(d)} scenarios`);
  });

  it("says so when printed code changed but no scenario shows it", () => {
    const before =
      "{% for m in messages %}{% if m.role == 'narrator' %}{{ 'Narrator: ' }}{% endif %}{{ m.content }}{% endfor %}";
    const after = before.replace("Narrator: ", "NARRATOR: ");
    const d = diffChatTemplate(before, after, tokens);
    expect(d.prompt.verdict).toBe("identical");
    expect(d.outputCodeChanged).toBe(true);
    expect(describePromptVerdict(d)).toMatch(
      /^output-affecting code changed; identical on the \d+ scenarios$/,
    );
  });

  it("ignores a changed condition and a comment as output code", () => {
    const before =
      "{# v1 #}{% for m in messages %}{% if m.role == 'user' %}{{ m.content }}{% endif %}{% endfor %}";
    const after =
      "{# v2 #}{% for m in messages %}{% if m.role != 'user' %}{{ m.content }}{% endif %}{% endfor %}";
    expect(diffChatTemplate(before, after, tokens).outputCodeChanged).toBe(false); // != is control flow
    const commentOnly = diffChatTemplate(before, before.replace("v1", "v2"), tokens);
    expect(commentOnly.outputCodeChanged).toBe(false);
  });

  it("is unknown when neither version renders any scenario", () => {
    const d = diffChatTemplate("{{ raise_exception('no') }}", "{{ raise_exception('still no') }}", tokens);
    expect(d.prompt).toEqual({ verdict: "unknown" });
    expect(d.promptChanged).toBeNull();
    expect(describePromptVerdict(d)).toBe("prompt change unknown: neither version renders any scenario");
  });

  it("counts a scenario that starts or stops raising as a change", () => {
    const strict =
      "{% for m in messages %}{% if m.role == 'system' %}{{ raise_exception('no system') }}{% endif %}{{ m.content }}{% endfor %}";
    const lenient = "{% for m in messages %}{{ m.content }}{% endfor %}";
    const d = diffChatTemplate(strict, lenient, tokens);
    expect(d.prompt.verdict).toBe("changed");
    expect(d.scenarios.find((s) => s.name === "system_user")).toMatchObject({
      beforeError: true,
      changed: true,
    });
  });

  it("sees a bos token change through afterTokens even when the text is the same", () => {
    const d = diffChatTemplate(text, text, tokens, { ...tokens, bos_token: "<|startoftext|>" });
    expect(d.lineDiff).toBe("");
    expect(d.promptChanged).toBe(true);
  });
});
