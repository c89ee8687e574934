import { describe, expect, it } from "vitest";
import { compareEstimates, compareForDrift, estimateState } from "./compare.ts";
import { makeEstimate } from "./test-helpers.ts";

describe("compareEstimates", () => {
  it("finds nothing between equal estimates", () => {
    expect(compareEstimates(makeEstimate({}), makeEstimate({}))).toEqual({ changes: [] });
  });

  it("flags params, tied storage and verdict changes as advisories", () => {
    const prev = makeEstimate({ fit: [{}, { card: "T4 16 GB", verdict: "borderline", batch: 1 }] });
    const next = makeEstimate({
      total: 8190735360,
      twice: true,
      fit: [
        { verdict: "borderline", batch: 1 },
        { card: "T4 16 GB", verdict: "cards", batch: 1, split: [20, 16] },
      ],
    });
    expect(compareEstimates(prev, next).changes).toEqual([
      { kind: "params_total", key: "params:total", before: 4022468096, after: 8190735360, advisory: true },
      {
        kind: "tied_embedding_storage",
        key: "checkpoint:tied_embedding_stored_twice",
        before: false,
        after: true,
        advisory: true,
      },
      {
        kind: "fit_verdict",
        key: "fit:A100 80 GB:lora",
        before: "fits",
        after: "borderline",
        advisory: true,
      },
      { kind: "fit_batch", key: "fit:A100 80 GB:lora:batch", before: 5, after: 1, advisory: false },
      {
        kind: "fit_verdict",
        key: "fit:T4 16 GB:lora",
        before: "borderline",
        after: "2 cards",
        advisory: true,
      },
    ]);
  });

  it("records a batch-only change without an advisory", () => {
    const { changes } = compareEstimates(makeEstimate({}), makeEstimate({ fit: [{ batch: 4 }] }));
    expect(changes).toEqual([
      { kind: "fit_batch", key: "fit:A100 80 GB:lora:batch", before: 5, after: 4, advisory: false },
    ]);
  });

  it("treats unknown tied storage as no change, and added/removed cells as non-advisory", () => {
    const prev = makeEstimate({ twice: null, fit: [{ card: "L4 24 GB" }] });
    const next = makeEstimate({ twice: true, fit: [{ card: "H200 141 GB" }] });
    expect(compareEstimates(prev, next).changes).toEqual([
      { kind: "fit_verdict", key: "fit:H200 141 GB:lora", before: null, after: "fits", advisory: false },
      { kind: "fit_verdict", key: "fit:L4 24 GB:lora", before: "fits", after: null, advisory: false },
    ]);
  });
});

describe("estimateState", () => {
  it("lists the advisory-relevant values by key", () => {
    expect(estimateState(makeEstimate({ twice: true }))).toEqual({
      "params:total": 4022468096,
      "checkpoint:tied_embedding_stored_twice": true,
      "fit:A100 80 GB:lora": "fits",
    });
    expect(estimateState(makeEstimate({ twice: null }))).not.toHaveProperty(
      "checkpoint:tied_embedding_stored_twice",
    );
  });
});

describe("compareForDrift", () => {
  it("labels the comparison as estimator drift and never advises", () => {
    const drift = compareForDrift(
      makeEstimate({ version: "1.0.0" }),
      makeEstimate({ version: "1.1.0", total: 4022468100, fit: [{ verdict: "borderline" }] }),
    );
    expect(drift.kind).toBe("estimator_drift");
    expect(drift.from_version).toBe("1.0.0");
    expect(drift.to_version).toBe("1.1.0");
    expect(drift.changes.map((c) => c.kind)).toEqual(["params_total", "fit_verdict"]);
    expect(drift.changes.every((c) => c.advisory === false)).toBe(true);
  });

  it("waits for a known reader or a stored total: changes between generic readings are not advisories", () => {
    const before = { ...makeEstimate({ twice: null }), reader: { confidence: "generic" } };
    const after = { ...makeEstimate({ twice: null, total: 5e9 }), reader: { confidence: "generic" } };
    const { changes } = compareEstimates(before, after);
    expect(changes.map((c) => c.key)).toEqual(["params:total"]);
    expect(changes.every((c) => !c.advisory)).toBe(true);
    const withHeaders = { ...makeEstimate({ total: 5e9 }), reader: { confidence: "generic" } };
    const grounded = { ...makeEstimate({}), reader: { confidence: "generic" } };
    expect(compareEstimates(grounded, withHeaders).changes[0]!.advisory).toBe(true);
    const known = { ...makeEstimate({ twice: null, total: 5e9 }), reader: { confidence: "known" } };
    expect(compareEstimates(makeEstimate({ twice: null }), known).changes[0]!.advisory).toBe(true);
  });
});
