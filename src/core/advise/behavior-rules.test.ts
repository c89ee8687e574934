import { describe, expect, it } from "vitest";
import { behaviorAdvice, behaviorKey, DEFAULT_BEHAVIOR_RULES } from "./behavior-rules.ts";
import { planAdvisory } from "./plan.ts";

const eos = (before: string, after: string) => ({
  kind: "eos_token" as const,
  summary: `EOS token changed: ${before} -> ${after}`,
  detail: { type: "values" as const, changes: [], before, after },
});
const dtype = {
  kind: "torch_dtype" as const,
  summary: "torch_dtype changed",
  detail: { type: "values" as const, changes: [], before: '"bfloat16"', after: '"float16"' },
};

describe("behaviorAdvice", () => {
  it("raises only the kinds whose rule is on (prompt and EOS by default)", () => {
    expect(DEFAULT_BEHAVIOR_RULES).toEqual(["prompt", "eos_token"]);
    const { changes, state } = behaviorAdvice([eos("2", "32000"), dtype], DEFAULT_BEHAVIOR_RULES);
    expect(changes).toEqual([
      {
        kind: "eos_token",
        key: "behavior:eos_token",
        before: "2",
        after: "32000",
        advisory: true,
        summary: "EOS token changed: 2 -> 32000",
      },
    ]);
    expect(state).toEqual({ [behaviorKey("eos_token")]: "32000", [behaviorKey("torch_dtype")]: '"float16"' });
    expect(behaviorAdvice([eos("2", "32000")], []).changes).toEqual([]);
  });

  it("opens an advisory on an EOS change and closes it when the old EOS comes back", () => {
    const first = behaviorAdvice([eos("2", "32000")], DEFAULT_BEHAVIOR_RULES);
    const opened = planAdvisory({
      open: [],
      changes: first.changes,
      revision: "b",
      parent: "a",
      state: first.state,
    });
    expect(opened.actions).toEqual([
      expect.objectContaining({
        type: "open",
        baseline: { "behavior:eos_token": { kind: "eos_token", value: "2" } },
      }),
    ]);
    const open = [
      {
        id: "A-1",
        introduced: "b",
        baseline: { "behavior:eos_token": { kind: "eos_token" as const, value: "2" } },
      },
    ];
    const unrelated = behaviorAdvice([dtype], DEFAULT_BEHAVIOR_RULES);
    expect(
      planAdvisory({ open, changes: unrelated.changes, revision: "c", parent: "b", state: unrelated.state })
        .actions,
    ).toEqual([]);
    const back = behaviorAdvice([eos("32000", "2")], DEFAULT_BEHAVIOR_RULES);
    expect(
      planAdvisory({ open, changes: back.changes, revision: "d", parent: "c", state: back.state }).actions,
    ).toEqual([{ type: "close", id: "A-1", fixed: "d" }]);
  });
});
