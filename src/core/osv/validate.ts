import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatsPlugin } from "ajv-formats";
import schema from "./osv-schema.json" with { type: "json" };

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validator = ajv.compile(schema);

/**
 * Checks a record against the vendored OSV schema (osv-schema.json, draft 2020-12, with
 * formats). Errors read "<instancePath> <message>", e.g. "/id must match pattern ...".
 */
export function validateOsvRecord(record: unknown): { valid: boolean; errors: string[] } {
  const valid = validator(record) === true;
  return { valid, errors: valid ? [] : (validator.errors ?? []).map(describe) };
}

function describe(e: ErrorObject): string {
  return `${e.instancePath || "/"} ${e.message ?? e.keyword}`;
}
