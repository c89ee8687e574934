import { describe, expect, it } from "vitest";
import { cutAfterFinalMessage, RENDER_ERROR_PREFIX, renderConversations } from "./chat-render.ts";
import { SCENARIO_NAMES, SCENARIOS, scenariosFor } from "./chat-scenarios.ts";

const tokens = { bos_token: "<s>", eos_token: "</s>" };
const plain =
  "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}";

const render = (template: string, name: string) =>
  renderConversations(template, tokens, SCENARIOS).find((o) => o.name === name);

describe("renderConversations", () => {
  it("renders every scenario the template can read, in order", () => {
    const out = renderConversations(plain, tokens);
    expect(out.map((o) => o.name)).toEqual(SCENARIO_NAMES.filter((n) => n !== "documents"));
    expect(out.find((o) => o.name === "multi_turn")).toEqual({
      name: "multi_turn",
      output:
        "<s>[user]Hello, who are you?[assistant]I am a helpful assistant.[user]What is 2 + 2?[assistant]",
      error: false,
    });
    expect(out.find((o) => o.name === "multi_turn_no_generation_prompt")?.output.endsWith("2 + 2?")).toBe(
      true,
    );
  });

  it("renders documents only for a template that reads them", () => {
    const rag = "{% for d in documents %}<{{ d.title }}>{% endfor %}{{ messages[0].content }}";
    expect(scenariosFor(plain).some((s) => s.name === "documents")).toBe(false);
    expect(renderConversations(rag, tokens).find((o) => o.name === "documents")?.output).toBe(
      "<Weather report><Almanac>Will it rain in Paris?",
    );
  });

  it("cuts a continued final message right after its text", () => {
    expect(render(plain, "continue_final_message")?.output).toBe(
      "<s>[user]Write a haiku about rain.[assistant]Soft rain on the roof",
    );
    const dropsIt = "{% for m in messages %}{% if m.role == 'user' %}{{ m.content }}{% endif %}{% endfor %}";
    expect(render(dropsIt, "continue_final_message")?.error).toBe(true);
    expect(cutAfterFinalMessage("A: hi  </s>", "hi  ")).toBe("A: hi  ");
    expect(cutAfterFinalMessage("A: hi</s>", "hi  ")).toBe("A: hi");
  });

  it("defines tools and documents as none when a scenario has none, as transformers does", () => {
    const t = "{% if tools is defined %}{{ tools is none }}{% endif %}|{{ documents is none }}";
    expect(render(t, "multi_turn")?.output).toBe("True|True");
  });

  it("passes tool calls whose content is '', null or absent", () => {
    const t =
      "{% for m in messages %}{% if m.tool_calls %}{{ m.tool_calls[0].function.arguments | tojson }}:{% if m.content is none %}none{% elif m.content is defined %}'{{ m.content }}'{% else %}absent{% endif %}{% endif %}{% endfor %}";
    expect(render(t, "tool_call_content_empty")?.output).toBe(`{"city": "Paris"}:''`);
    expect(render(t, "tool_call_content_null")?.output).toBe(`{"city": "Paris"}:none`);
    expect(render(t, "tool_call_content_omitted")?.output).toBe(`{"city": "Paris"}:absent`);
  });

  it("records raise_exception per scenario instead of throwing", () => {
    const t =
      "{% for m in messages %}{% if m.role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{{ m.content }}{% endfor %}";
    expect(render(t, "system_user")).toEqual({
      name: "system_user",
      output: `${RENDER_ERROR_PREFIX}System role not supported`,
      error: true,
    });
    expect(render(t, "multi_turn")?.error).toBe(false);
  });

  it("turns a template that does not parse into an error for every scenario", () => {
    const out = renderConversations("{% for m in messages %}", tokens);
    expect(out.every((o) => o.error && o.output.startsWith(RENDER_ERROR_PREFIX))).toBe(true);
  });

  it("pins strftime_now to a fixed date and does not run host code", () => {
    expect(render("{{ strftime_now('%d %b %Y') }}|{{ range(3) | join(',') }}", "multi_turn")?.output).toBe(
      "26 Jul 2024|0,1,2",
    );
    expect(render("{{ messages.constructor.constructor('return process')() }}", "multi_turn")?.error).toBe(
      true,
    );
  });
});

// What Python's jinja2 does; @huggingface/jinja 0.5.11 did otherwise until patches/ fixed it.
describe("renderer fidelity to jinja2 (patched @huggingface/jinja)", () => {
  const one = (t: string) => render(t, "multi_turn")?.output;

  it("honours the argument of strip, lstrip and rstrip", () => {
    expect(one("{{ '\\n\\n  x  \\n'.lstrip('\\n') }}|")).toBe("  x  \n|");
    expect(one("{{ 'xx</answer>'.rstrip('</answer>') }}")).toBe("xx");
    expect(one("{{ '--a--'.strip('-') }}{{ '  b  '.strip() }}")).toBe("ab");
  });

  it("trims None to 'None' and undefined to ''", () => {
    expect(one("{{ none | trim }}|{{ nothing | trim }}")).toBe("None|");
  });

  it("raises on a string plus a non-string", () => {
    expect(render("{{ 'a' + messages[0] }}", "multi_turn")?.error).toBe(true);
    expect(render("{{ 'a' + 1 }}", "multi_turn")?.error).toBe(true);
  });
});

describe("renderConversations limits", () => {
  it("stops a template whose loops would run for hours", () => {
    const template = "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}";
    const t0 = performance.now();
    const out = renderConversations(template, tokens);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(out[0]?.output).toMatch(/^\[render error\] range\(\) exceeded/);
  });
});
