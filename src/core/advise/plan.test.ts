import { describe, expect, it } from "vitest";
import { compareEstimates, estimateState } from "./compare.ts";
import { type AdvisoryAction, applyDrift, type OpenAction, planAdvisory } from "./plan.ts";
import { makeEstimate } from "./test-helpers.ts";
import type { Estimate, OpenAdvisory } from "./types.ts";

const sha = (c: string) => c.repeat(40);

/** Walks a history, applying each plan to the stored open advisories as the pipeline would. */
function walk(history: Estimate[]): AdvisoryAction[][] {
  let open: OpenAdvisory[] = [];
  let n = 0;
  const plans: AdvisoryAction[][] = [];
  for (let i = 1; i < history.length; i++) {
    const prev = history[i - 1] as Estimate;
    const next = history[i] as Estimate;
    const { actions } = planAdvisory({
      open,
      changes: compareEstimates(prev, next).changes,
      revision: sha(String(i)),
      parent: sha(String(i - 1)),
      state: estimateState(next),
    });
    for (const a of actions) {
      if (a.type === "close") open = open.filter((o) => o.id !== a.id);
      else if (a.type === "open")
        open.push({
          id: `x_HUBWATCH-2026-${String(++n).padStart(4, "0")}`,
          introduced: a.introduced,
          baseline: a.baseline,
        });
    }
    plans.push(actions);
  }
  return plans;
}

describe("planAdvisory", () => {
  it("opens one advisory per introducing revision with every advisory-worthy change", () => {
    const { actions } = planAdvisory({
      open: [],
      changes: compareEstimates(
        makeEstimate({}),
        makeEstimate({ total: 8e9, twice: true, fit: [{ verdict: "borderline", batch: 1 }] }),
      ).changes,
      revision: sha("b"),
      parent: sha("a"),
    });
    expect(actions).toHaveLength(1);
    const open = actions[0] as OpenAction;
    expect(open.type).toBe("open");
    expect(open.introduced).toBe(sha("b"));
    expect(open.parent).toBe(sha("a"));
    expect(open.changes.map((c) => c.kind)).toEqual([
      "params_total",
      "tied_embedding_storage",
      "fit_verdict",
    ]);
    expect(open.baseline).toEqual({
      "params:total": { kind: "params_total", value: 4022468096 },
      "checkpoint:tied_embedding_stored_twice": { kind: "tied_embedding_storage", value: false },
      "fit:A100 80 GB:lora": { kind: "fit_verdict", value: "fits" },
    });
  });

  it("does nothing for batch-only changes", () => {
    const changes = compareEstimates(makeEstimate({}), makeEstimate({ fit: [{ batch: 3 }] })).changes;
    expect(planAdvisory({ open: [], changes, revision: sha("b"), parent: sha("a") })).toEqual({
      actions: [],
    });
  });

  it("closes only when every baseline value is back, across revisions", () => {
    const plans = walk([
      makeEstimate({}),
      makeEstimate({ total: 8e9, twice: true }), // 1: regression
      makeEstimate({ total: 8e9, twice: true, fit: [{ batch: 4 }] }), // 2: batch only
      makeEstimate({ twice: true, fit: [{ batch: 4 }] }), // 3: params back, still stored twice
      makeEstimate({ fit: [{ batch: 4 }] }), // 4: tied storage back to single
    ]);
    // Revision 3 moves a covered value (params back) without restoring all: the advisory is updated.
    expect(plans.map((p) => p.map((a) => a.type))).toEqual([["open"], [], ["update"], ["close"]]);
    expect(plans[3]?.[0]).toEqual({ type: "close", id: "x_HUBWATCH-2026-0001", fixed: sha("4") });
  });

  it("opens a second advisory for a new key while the first stays open", () => {
    const plans = walk([
      makeEstimate({}),
      makeEstimate({ total: 8e9 }),
      makeEstimate({ total: 9e9 }), // same key again: already covered
      makeEstimate({ total: 9e9, fit: [{ verdict: "does_not_fit", batch: 0 }] }),
      makeEstimate({ fit: [{ verdict: "does_not_fit", batch: 0 }] }),
      makeEstimate({}),
    ]);
    expect(plans.map((p) => p.map((a) => a.type))).toEqual([
      ["open"],
      ["update"], // drifted further: 8e9 -> 9e9
      ["open"],
      ["close"],
      ["close"],
    ]);
    expect(plans[1]?.[0]).toMatchObject({
      type: "update",
      id: "x_HUBWATCH-2026-0001",
      changes: [{ key: "params:total", before: 8e9, after: 9e9 }],
    });
    expect(plans[3]?.[0]).toMatchObject({ id: "x_HUBWATCH-2026-0001" });
    expect(plans[4]?.[0]).toMatchObject({ id: "x_HUBWATCH-2026-0002" });
  });

  it("can close and open in the same revision", () => {
    const plans = walk([makeEstimate({}), makeEstimate({ total: 8e9 }), makeEstimate({ twice: true })]);
    expect(plans[1]?.map((a) => a.type)).toEqual(["close", "open"]);
  });

  it("without a state, closes when this revision's changes restore the baseline", () => {
    const open: OpenAdvisory[] = [
      {
        id: "x_HUBWATCH-2026-0001",
        introduced: sha("b"),
        baseline: { "params:total": { kind: "params_total", value: 4e9 } },
      },
    ];
    const changes = compareEstimates(makeEstimate({ total: 8e9 }), makeEstimate({ total: 4e9 })).changes;
    expect(planAdvisory({ open, changes, revision: sha("c"), parent: sha("b") }).actions).toEqual([
      { type: "close", id: "x_HUBWATCH-2026-0001", fixed: sha("c") },
    ]);
  });
});

describe("applyDrift", () => {
  it("keeps the baseline, takes the new value, and tells both steps of a behaviour change", () => {
    const prompt = (summary: string, before: string, after: string) => ({
      kind: "prompt" as const,
      key: "behavior:prompt",
      before,
      after,
      advisory: true,
      summary,
    });
    const params = {
      kind: "params_total" as const,
      key: "params:total",
      before: 1,
      after: 2,
      advisory: true,
    };
    const once = applyDrift([prompt("first edit", "a", "b"), params], [prompt("second edit", "b", "c")]);
    expect(once).toEqual([prompt("first edit; since then: second edit", "a", "c"), params]);
    const twice = applyDrift(once, [prompt("third edit", "c", "d")]);
    expect(twice[0]).toEqual(prompt("first edit; since then: third edit", "a", "d"));
  });
});
