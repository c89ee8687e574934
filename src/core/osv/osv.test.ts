import { describe, expect, it } from "vitest";
import { compareEstimates } from "../advise/compare.ts";
import { type OpenAction, planAdvisory } from "../advise/plan.ts";
import { makeEstimate } from "../advise/test-helpers.ts";
import { describeChanges } from "../advise/text.ts";
import { buildOsvRecord, huggingfacePurl, type OsvBuildInput, openAdvisoryFromOsv } from "./build.ts";
import { formatAdvisoryId, osvTimestamp, parseAdvisoryId } from "./id.ts";
import { validateOsvRecord } from "./validate.ts";

const INTRODUCED = "65be4e00a56c16d036e9cbe96b0b35f8aa0f84b0";
const FIXED = "300945e90b6f55d3cb88261c8e5333fae696f672";
const PARENT = "4f818b18e097c9ae8f93a29a57027cad54b75304";

function input(over: Partial<OsvBuildInput> = {}): OsvBuildInput {
  const { changes } = compareEstimates(makeEstimate({}), makeEstimate({ total: 8190735360, twice: true }));
  const open = planAdvisory({ open: [], changes, revision: INTRODUCED, parent: PARENT })
    .actions[0] as OpenAction;
  const text = describeChanges({ repo: "Qwen/Qwen3-8B", introduced: INTRODUCED, parent: PARENT, changes });
  return {
    id: formatAdvisoryId(2026, 1),
    repo: "Qwen/Qwen3-8B",
    introducedSha: INTRODUCED,
    parentSha: PARENT,
    published: new Date("2026-11-29T19:41:48.123Z"),
    modified: new Date("2026-11-29T19:41:48.123Z"),
    ...text,
    changes: open.changes,
    baseline: open.baseline,
    ...over,
  };
}

describe("formatAdvisoryId", () => {
  it("formats and parses ids", () => {
    expect(formatAdvisoryId(2026, 1)).toBe("x_HUBWATCH-2026-0001");
    expect(formatAdvisoryId(2026, 12345)).toBe("x_HUBWATCH-2026-12345");
    expect(parseAdvisoryId("x_HUBWATCH-2026-0042")).toEqual({ year: 2026, n: 42 });
    expect(parseAdvisoryId("GHSA-2026-0042")).toBeNull();
    expect(() => formatAdvisoryId(2026, 0)).toThrow(RangeError);
  });

  it("writes timestamps without milliseconds", () => {
    expect(osvTimestamp(new Date("2026-01-02T03:04:05.678Z"))).toBe("2026-01-02T03:04:05Z");
  });
});

describe("buildOsvRecord", () => {
  it("builds an open advisory that validates", () => {
    const record = buildOsvRecord(input());
    expect(validateOsvRecord(record)).toEqual({ valid: true, errors: [] });
    expect(record.schema_version).toBe("1.7.5");
    expect(record.modified).toBe("2026-11-29T19:41:48Z");
    expect(record.affected[0]?.package).toEqual({
      ecosystem: "GIT",
      name: "https://huggingface.co/Qwen/Qwen3-8B",
      purl: "pkg:huggingface/Qwen/Qwen3-8B",
    });
    expect(record.affected[0]?.ranges).toEqual([
      { type: "GIT", repo: "https://huggingface.co/Qwen/Qwen3-8B", events: [{ introduced: INTRODUCED }] },
    ]);
    expect(record.references).toEqual([
      { type: "INTRODUCED", url: `https://huggingface.co/Qwen/Qwen3-8B/commit/${INTRODUCED}` },
      { type: "PACKAGE", url: "https://huggingface.co/Qwen/Qwen3-8B" },
    ]);
    expect(record.details).toContain("| Parameter count |");
    expect(record.database_specific.changes).toHaveLength(2);
    expect(record.database_specific.parent).toBe(PARENT);
  });

  it("adds the fixed event and FIX reference, and still validates", () => {
    const record = buildOsvRecord(input({ fixedSha: FIXED }));
    expect(record.affected[0]?.ranges[0]?.events).toEqual([{ introduced: INTRODUCED }, { fixed: FIXED }]);
    expect(record.references).toContainEqual({
      type: "FIX",
      url: `https://huggingface.co/Qwen/Qwen3-8B/commit/${FIXED}`,
    });
    expect(validateOsvRecord(record).valid).toBe(true);
  });

  it("survives a JSON round trip and gives back what planAdvisory needs", () => {
    const stored = JSON.parse(JSON.stringify(buildOsvRecord(input())));
    expect(validateOsvRecord(stored).valid).toBe(true);
    expect(openAdvisoryFromOsv(stored)).toEqual({
      id: "x_HUBWATCH-2026-0001",
      introduced: INTRODUCED,
      fixed: null,
      baseline: input().baseline,
    });
    expect(openAdvisoryFromOsv({ id: "x", modified: "2026-01-01T00:00:00Z" })).toBeNull();
  });

  it("uses a repository_url qualifier for another hub", () => {
    const record = buildOsvRecord(input({ hubUrl: "https://hub-ci.huggingface.co/" }));
    expect(record.affected[0]?.package.name).toBe("https://hub-ci.huggingface.co/Qwen/Qwen3-8B");
    expect(huggingfacePurl("Qwen/Qwen3-8B", "https://hub-ci.huggingface.co")).toBe(
      "pkg:huggingface/Qwen/Qwen3-8B?repository_url=https%3A%2F%2Fhub-ci.huggingface.co",
    );
    expect(validateOsvRecord(record).valid).toBe(true);
  });
});

describe("validateOsvRecord", () => {
  const good = () => JSON.parse(JSON.stringify(buildOsvRecord(input({ fixedSha: FIXED }))));

  it("rejects a 7-character sha", () => {
    const r = good();
    r.affected[0].ranges[0].events[0].introduced = INTRODUCED.slice(0, 7);
    const result = validateOsvRecord(r);
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toContain("/affected/0/ranges/0/events/0");
  });

  it("rejects an id without the x_ prefix", () => {
    const result = validateOsvRecord({ ...good(), id: "HUBWATCH-2026-0001" });
    expect(result.valid).toBe(false);
    expect(result.errors.some((e) => e.startsWith("/id "))).toBe(true);
  });

  it("rejects a +00:00 timestamp", () => {
    const result = validateOsvRecord({ ...good(), modified: "2026-11-29T19:41:48+00:00" });
    expect(result.valid).toBe(false);
    expect(result.errors.some((e) => e.startsWith("/modified "))).toBe(true);
  });

  it("rejects unknown top-level keys and unknown reference types", () => {
    expect(validateOsvRecord({ ...good(), extra: 1 }).valid).toBe(false);
    const r = good();
    r.references[0].type = "COMMIT";
    expect(validateOsvRecord(r).valid).toBe(false);
  });
});
