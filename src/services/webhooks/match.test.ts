import { describe, expect, it } from "vitest";
import { repoFilterMatches, subscriptionWants } from "./match.ts";

describe("subscription filters", () => {
  it("matches repo names exactly or by * pattern, case-insensitively", () => {
    expect(repoFilterMatches(null, "a/b")).toBe(true);
    expect(repoFilterMatches("*", null)).toBe(true);
    expect(repoFilterMatches("Qwen/*", "qwen/Qwen3-0.6B")).toBe(true);
    expect(repoFilterMatches("Qwen/Qwen3-*", "Qwen/Qwen3-0.6B")).toBe(true);
    expect(repoFilterMatches("Qwen/Qwen3-*", "Qwen/Qwen2.5-7B")).toBe(false);
    expect(repoFilterMatches("acme/tiny.lm", "acme/tinyXlm")).toBe(false); // "." is literal
    expect(repoFilterMatches("acme/*", null)).toBe(false);
  });

  it("wants an event by type, repo and (when named) one of its change kinds", () => {
    const sub = { events: ["revision.changed"], repoFilter: "acme/*", kinds: ["eos_token"] };
    const event = { type: "revision.changed", repo: "acme/x", kinds: ["prompt", "eos_token"] };
    expect(subscriptionWants(sub, event)).toBe(true);
    expect(subscriptionWants(sub, { ...event, kinds: ["prompt"] })).toBe(false);
    expect(subscriptionWants(sub, { ...event, type: "advisory.opened" })).toBe(false);
    expect(subscriptionWants(sub, { ...event, repo: "other/x" })).toBe(false);
    expect(subscriptionWants({ ...sub, kinds: null }, { ...event, kinds: [] })).toBe(true);
  });
});
