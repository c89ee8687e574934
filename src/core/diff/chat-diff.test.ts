import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { diffChatTemplate } from "./chat-diff.ts";
import type { ScenarioName } from "./chat-render.ts";

const ROOT = new URL("../../../fixtures/templates/", import.meta.url);

type Version = { label: string; bos_token: string; eos_token: string };

function load(model: string, label: string) {
  const versions = JSON.parse(readFileSync(new URL(`${model}/versions.json`, ROOT), "utf8"))
    .versions as Version[];
  const v = versions.find((x) => x.label === label);
  if (!v) throw new Error(`no ${label} in ${model}`);
  const text = readFileSync(new URL(`${model}/${label}/chat_template.jinja`, ROOT), "utf8");
  return { text, tokens: { bos_token: v.bos_token, eos_token: v.eos_token } };
}

function changedScenarios(model: string, from: string, to: string): ScenarioName[] {
  const a = load(model, from);
  const b = load(model, to);
  const d = diffChatTemplate(a.text, b.text, a.tokens, b.tokens);
  expect(d.lineDiff).toContain("@@");
  expect(d.whitespaceOnly).toBe(false);
  expect(d.promptChanged).toBe(d.scenarios.some((s) => s.changed));
  return d.scenarios.filter((s) => s.changed).map((s) => s.name);
}

// Classifications from fixtures/templates/INDEX.md ("plain" = add_generation_prompt on).
describe("diffChatTemplate on real template histories (INDEX.md)", () => {
  it("Phi-3-mini v1 -> v2: only the system turn changes (it is dropped)", () => {
    expect(changedScenarios("microsoft__Phi-3-mini-4k-instruct", "v1-2024-04-22", "v2-2024-04-29")).toEqual([
      "system",
    ]);
    const a = load("microsoft__Phi-3-mini-4k-instruct", "v1-2024-04-22");
    const b = load("microsoft__Phi-3-mini-4k-instruct", "v2-2024-04-29");
    const system = diffChatTemplate(a.text, b.text, a.tokens).scenarios.find((s) => s.name === "system");
    expect(system?.before).toContain("You are a terse assistant.");
    expect(system?.after).not.toContain("You are a terse assistant.");
  });

  it("Phi-3-mini v2 -> v3: plain and system prompts change", () => {
    const changed = changedScenarios("microsoft__Phi-3-mini-4k-instruct", "v2-2024-04-29", "v3-2024-07-01");
    expect(changed).toEqual(expect.arrayContaining(["plain", "plain_no_generation_prompt", "system"]));
    expect(changed).not.toContain("tools");
  });

  it("Llama-3 v1 -> v2 and v2 -> v3: only the prompt without a generation prompt changes", () => {
    const m = "NousResearch__Meta-Llama-3-8B-Instruct";
    expect(changedScenarios(m, "v1-2024-04-18", "v2-2024-04-19")).toEqual(["plain_no_generation_prompt"]);
    expect(changedScenarios(m, "v2-2024-04-19", "v3-2024-04-30")).toEqual(["plain_no_generation_prompt"]);
  });

  it("Llama-3.1 v1 -> v2: plain, system and tools all change", () => {
    const changed = changedScenarios("unsloth__Meta-Llama-3.1-8B-Instruct", "v1-2024-07-23", "v2-2024-08-06");
    expect(changed).toEqual(expect.arrayContaining(["plain", "system", "tools"]));
  });

  it("Mistral v1 -> v2: plain changes, system and tools raise in both", () => {
    const m = "mistralai__Mistral-7B-Instruct-v0.1";
    const changed = changedScenarios(m, "v1-2023-09-28", "v2-2024-06-20");
    expect(changed).toContain("plain");
    expect(changed).not.toContain("system");
    expect(changed).not.toContain("tools");
    const a = load(m, "v1-2023-09-28");
    const system = diffChatTemplate(a.text, a.text, a.tokens).scenarios.find((s) => s.name === "system");
    expect(system?.before).toMatch(/^\[render error\] Conversation roles must alternate/);
  });

  it("Mistral v2 -> v3: system goes from an error to a rendered prompt", () => {
    expect(changedScenarios("mistralai__Mistral-7B-Instruct-v0.1", "v2-2024-06-20", "v3-2024-07-03")).toEqual(
      expect.arrayContaining(["plain", "system"]),
    );
  });

  it("DeepSeek-R1 v1 -> v2: suffix only (generation-prompt scenarios change)", () => {
    const changed = changedScenarios("deepseek-ai__DeepSeek-R1", "v1-2025-01-20", "v2-2025-02-09");
    expect(changed).toContain("plain");
    expect(changed).toContain("system");
    expect(changed).not.toContain("plain_no_generation_prompt");
    expect(changed).not.toContain("tools");
  });

  it("Qwen2.5 v1 -> v2 (default system prompt) and v2 -> v3 (tools only)", () => {
    const m = "Qwen__Qwen2.5-7B-Instruct";
    const first = changedScenarios(m, "v1-2024-09-16", "v2-2024-09-18");
    expect(first).toEqual(expect.arrayContaining(["plain", "tools"]));
    expect(first).not.toContain("system");
    expect(changedScenarios(m, "v2-2024-09-18", "v3-2024-09-19")).toEqual(["tools"]);
  });

  it("Qwen3 v1 -> v2: only the tool-call turn with content None changes (v1 raised)", () => {
    const a = load("Qwen__Qwen3-8B", "v1-2025-04-28");
    const b = load("Qwen__Qwen3-8B", "v2-2025-05-19");
    const d = diffChatTemplate(a.text, b.text, a.tokens, b.tokens);
    expect(d.scenarios.filter((s) => s.changed).map((s) => s.name)).toEqual(["tools"]);
    const tools = d.scenarios.find((s) => s.name === "tools");
    expect(tools?.before).toMatch(/^\[render error\]/);
    expect(tools?.after).toContain("<tool_call>");
  });
});

describe("diffChatTemplate on synthetic edits", () => {
  const { text, tokens } = load("microsoft__Phi-3-mini-4k-instruct", "v2-2024-04-29");

  it("reports nothing for an identical template", () => {
    const d = diffChatTemplate(text, text, tokens);
    expect(d.lineDiff).toBe("");
    expect(d.whitespaceOnly).toBe(false);
    expect(d.promptChanged).toBe(false);
  });

  it("flags a whitespace-only edit whose rendered prompts are unchanged", () => {
    // trim_blocks drops the newline after a block tag, so this edit cannot reach the prompt.
    const edited = text.replace("%}", "%}\n");
    expect(edited).not.toBe(text);
    const d = diffChatTemplate(text, edited, tokens);
    expect(d.whitespaceOnly).toBe(true);
    expect(d.promptChanged).toBe(false);
    expect(d.lineDiff).toContain("+++ b/chat_template.jinja");
  });

  it("sees a bos token change through afterTokens even when the text is the same", () => {
    const d = diffChatTemplate(text, text, tokens, { ...tokens, bos_token: "<|startoftext|>" });
    expect(d.lineDiff).toBe("");
    expect(d.promptChanged).toBe(true);
  });
});
