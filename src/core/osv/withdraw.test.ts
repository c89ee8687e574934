import { describe, expect, it } from "vitest";
import { buildOsvRecord } from "./build.ts";
import { validateOsvRecord } from "./validate.ts";
import { isWithdrawn, withdrawOsvRecord } from "./withdraw.ts";

const record = buildOsvRecord({
  id: "x_HUBWATCH-2026-0001",
  repo: "Qwen/Qwen3-8B",
  introducedSha: "65be4e00a56c16d036e9cbe96b0b35f8aa0f84b0",
  published: new Date("2026-11-29T19:41:48.123Z"),
  modified: new Date("2026-11-29T19:41:48.123Z"),
  summary: "s",
  details: "d",
  changes: [],
  baseline: {},
}) as unknown as Record<string, unknown>;

describe("withdrawOsvRecord", () => {
  it("sets withdrawn and modified (RFC 3339 UTC, Z), keeps the rest, stays schema-valid", () => {
    const at = new Date("2026-11-30T08:00:01.999Z");
    const out = withdrawOsvRecord(record, at, "introducing revision force-pushed away");
    expect(out.withdrawn).toBe("2026-11-30T08:00:01Z");
    expect(out.modified).toBe("2026-11-30T08:00:01Z");
    expect(out.published).toBe(record.published);
    expect(out.affected).toEqual(record.affected);
    expect(out.database_specific).toEqual({
      ...(record.database_specific as object),
      withdrawn_reason: "introducing revision force-pushed away",
    });
    expect(isWithdrawn(out)).toBe(true);
    expect(isWithdrawn(record)).toBe(false);
    expect(validateOsvRecord(out)).toEqual({ valid: true, errors: [] });
  });

  it("withdrawing twice changes nothing", () => {
    const once = withdrawOsvRecord(record, new Date("2026-11-30T08:00:00Z"), "r");
    expect(withdrawOsvRecord(once, new Date("2026-12-01T00:00:00Z"), "other")).toBe(once);
  });
});
