import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv";
import ajvDraft04 from "ajv-draft-04";
import addFormatsModule, { type FormatsPlugin } from "ajv-formats";

// Both are CommonJS; under NodeNext their default exports can arrive as the module object.
const Ajv04 =
  (ajvDraft04 as unknown as { default?: typeof ajvDraft04.default }).default ?? ajvDraft04.default;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

// The official SARIF 2.1.0 schema (JSON Schema draft-04), vendored: see test/fixtures/scan/README.md.
const schema = JSON.parse(
  readFileSync(new URL("../fixtures/scan/sarif-schema-2.1.0.json", import.meta.url), "utf8"),
) as object;
const ajv = new Ajv04({ allErrors: true, strict: false });
addFormats(ajv);
const validator = ajv.compile(schema);

/** Errors of a SARIF log against the official schema, as "<path> <message>"; empty when valid. */
export function sarifErrors(log: unknown): string[] {
  if (validator(log)) return [];
  return (validator.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`,
  );
}
