import { describe, expect, it } from "vitest";
import { OsvQueryError, parseOsvQuery } from "./parse-osv-query.ts";
import { rangeCovers } from "./range-covers.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const D = "d".repeat(40);

describe("parseOsvQuery", () => {
  it("reads huggingface purls with and without a commit", () => {
    expect(parseOsvQuery({ package: { purl: "pkg:huggingface/Qwen/Qwen3-8B" } })).toEqual({
      kind: "repo",
      owner: "Qwen",
      name: "Qwen3-8B",
      commit: null,
      pageToken: null,
    });
    expect(
      parseOsvQuery({ package: { purl: `pkg:huggingface/Qwen/Qwen3-8B@${A.toUpperCase()}` } }),
    ).toMatchObject({ commit: A });
  });
  it("reads GIT package names with an optional commit", () => {
    expect(
      parseOsvQuery({ package: { ecosystem: "GIT", name: "https://huggingface.co/o/n.git" }, commit: B }),
    ).toMatchObject({
      kind: "repo",
      owner: "o",
      name: "n",
      commit: B,
    });
    expect(
      parseOsvQuery({ package: { ecosystem: "GIT", name: "https://hub.example/o/n.git/" } }),
    ).toMatchObject({
      gitUrl: "https://hub.example/o/n",
    });
    expect(parseOsvQuery({ package: { ecosystem: "GIT", name: "not a url" } })).toEqual({ kind: "none" });
    expect(parseOsvQuery({ package: { ecosystem: "PyPI", name: "x" }, version: "1" })).toEqual({
      kind: "none",
    });
    expect(parseOsvQuery({ commit: C })).toMatchObject({ kind: "commit", commit: C });
  });
  it("refuses what OSV.dev refuses", () => {
    for (const bad of [
      { package: { purl: `pkg:huggingface/o/n@${A}` }, version: A },
      { commit: A, version: "1" },
      { package: { purl: "pkg:huggingface/o/n", name: "x" } },
      { commit: "zz" },
      {},
      [],
    ]) {
      expect(() => parseOsvQuery(bad), JSON.stringify(bad)).toThrow(OsvQueryError);
    }
  });
  it("does not let traversal through as a repo", () => {
    expect(parseOsvQuery({ package: { purl: "pkg:huggingface/../etc" } })).toEqual({ kind: "none" });
  });
});

describe("rangeCovers", () => {
  const seq = new Map([
    [A, 1],
    [B, 2],
    [C, 3],
    [D, 4],
  ]);
  const seqOf = (s: string) => seq.get(s);
  const rec = (events: object[]) => ({ affected: [{ ranges: [{ type: "GIT", events }] }] });
  it("covers introduced..fixed along the revision order", () => {
    const r = rec([{ introduced: B }, { fixed: D }]);
    expect([A, B, C, D].map((c) => rangeCovers(r, seqOf, c))).toEqual([false, true, true, false]);
    expect(rangeCovers(r, seqOf, "e".repeat(40))).toBe(false);
  });
  it("treats an open range and '0' as expected", () => {
    expect(rangeCovers(rec([{ introduced: C }]), seqOf, D)).toBe(true);
    expect(rangeCovers(rec([{ introduced: "0" }, { fixed: B }]), seqOf, A)).toBe(true);
    expect(rangeCovers(rec([{ introduced: "0" }, { last_affected: B }]), seqOf, C)).toBe(false);
  });
});
