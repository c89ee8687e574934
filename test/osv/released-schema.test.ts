import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatsPlugin } from "ajv-formats";
import { describe, expect, it } from "vitest";
import { buildOsvRecord } from "../../src/core/osv/build.ts";
import { formatAdvisoryId } from "../../src/core/osv/id.ts";
import { validateOsvRecord } from "../../src/core/osv/validate.ts";

// Our records declare schema_version 1.7.5: the specification labelled "Version 1.7.5" (ossf/osv-schema
// docs/schema.md) defines the `x_` prefix for local databases, and the validation schema published beside
// it (main) accepts it. The JSON schema file at the v1.7.5 tag predates that addition (ossf/osv-schema
// #499). This test pins the difference: against the tag's file, the id is the one and only objection, so
// a record that changes in any other way, or a new release that moves the goalposts, fails here.
const TAG_SCHEMA = JSON.parse(
  readFileSync(new URL("../fixtures/osv/schema-v1.7.5.json", import.meta.url), "utf8"),
) as object;

const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

function validateAgainstTag(record: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(TAG_SCHEMA);
  if (validate(record)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.keyword}`);
}

function record(fixed: boolean) {
  return buildOsvRecord({
    id: formatAdvisoryId(2026, 7),
    repo: "Qwen/Qwen3-8B",
    introducedSha: "65be4e00a56c16d036e9cbe96b0b35f8aa0f84b0",
    fixedSha: fixed ? "300945e90b6f55d3cb88261c8e5333fae696f672" : null,
    parentSha: "4f818b18e097c9ae8f93a29a57027cad54b75304",
    published: new Date("2026-11-29T19:41:48Z"),
    modified: new Date("2026-11-30T08:00:00Z"),
    summary: "Qwen/Qwen3-8B: parameter count changed",
    details: "params.total 8,190,735,360 -> 8,948,736,000",
    changes: [],
    baseline: { "params:total": { kind: "params_total", value: 8190735360 } },
  });
}

describe("OSV records and the released v1.7.5 schema file", () => {
  it.each([false, true])("validate against the vendored schema (fixed: %s)", (fixed) => {
    expect(validateOsvRecord(record(fixed))).toEqual({ valid: true, errors: [] });
  });

  it.each([false, true])("differ from the v1.7.5 tag's file only in the x_ id (fixed: %s)", (fixed) => {
    const r = record(fixed);
    expect(r.schema_version).toBe("1.7.5");
    expect(validateAgainstTag(r)).toEqual(["/id pattern"]);
    expect(validateAgainstTag({ ...r, id: "OSV-2026-0007" })).toEqual([]);
  });
});
