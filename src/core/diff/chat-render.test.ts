import { describe, expect, it } from "vitest";
import { RENDER_ERROR_PREFIX, renderConversations, SCENARIO_NAMES } from "./chat-render.ts";

const tokens = { bos_token: "<s>", eos_token: "</s>" };

describe("renderConversations", () => {
  it("renders every fixed scenario in order", () => {
    const template =
      "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}";
    const out = renderConversations(template, tokens);
    expect(out.map((o) => o.name)).toEqual([...SCENARIO_NAMES]);
    expect(out[0]).toEqual({
      name: "plain",
      output:
        "<s>[user]Hello, who are you?[assistant]I am a helpful assistant.[user]What is 2 + 2?[assistant]",
      error: false,
    });
    expect(out[1]?.output.endsWith("[user]What is 2 + 2?")).toBe(true);
    expect(out.find((o) => o.name === "think")?.output).toContain("<think>");
  });

  it("records raise_exception per scenario instead of throwing", () => {
    const template =
      "{% for m in messages %}{% if m.role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{{ m.content }}{% endfor %}";
    const out = renderConversations(template, tokens);
    const system = out.find((o) => o.name === "system");
    expect(system).toEqual({
      name: "system",
      output: `${RENDER_ERROR_PREFIX}System role not supported`,
      error: true,
    });
    expect(out.find((o) => o.name === "plain")?.error).toBe(false);
  });

  it("passes tools and tool calls (content null) to the template", () => {
    const template =
      "{% for t in tools %}{{ t.function.name }};{% endfor %}{% for m in messages %}{% if m.tool_calls %}{{ m.tool_calls[0].function.arguments | tojson }}{% endif %}{% if m.content is none %}<none>{% endif %}{% endfor %}";
    const tools = renderConversations(template, tokens).find((o) => o.name === "tools");
    expect(tools?.output).toBe('get_weather;{"city": "Paris"}<none>');
  });

  it("turns a template that does not parse into an error for every scenario", () => {
    const out = renderConversations("{% for m in messages %}", tokens);
    expect(out.every((o) => o.error && o.output.startsWith(RENDER_ERROR_PREFIX))).toBe(true);
  });

  it("pins strftime_now to a fixed date and does not run host code", () => {
    const out = renderConversations("{{ strftime_now('%d %b %Y') }}|{{ range(3) | join(',') }}", tokens);
    expect(out[0]?.output).toBe("26 Jul 2024|0,1,2");
    const sneaky = renderConversations("{{ messages.constructor.constructor('return process')() }}", tokens);
    expect(sneaky[0]?.error).toBe(true);
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
