import { atomizeChangeset, type Changeset, diff, type IAtomicChange } from "json-diff-ts";

/** One leaf change, for display: a JSONPath-like path (`$.a.b[0]`, `$.added_tokens[?(@.id=='5')]`). */
export type FlatChange = {
  path: string;
  op: "add" | "remove" | "update";
  before?: unknown;
  after?: unknown;
};

type JsonDiff = { changeset: Changeset; changes: FlatChange[] };

/**
 * Arrays of objects in Hub config files that carry their own identity: matching elements by it
 * (not by index) turns an insertion into one "add" instead of a cascade of updates.
 */
const EMBEDDED_KEYS = new Map<string | RegExp, string>([
  [/(^|\.)added_tokens$/, "id"],
  [/(^|\.)chat_template$/, "name"],
  [/(^|\.)additional_chat_templates$/, "name"],
]);

/**
 * Structural diff of two parsed JSON documents (config.json, tokenizer_config.json, ...).
 * Returns json-diff-ts's nested changeset and a flattened list of leaf changes; a value whose
 * type changes (e.g. `eos_token_id` 2 -> [2, 32000]) is one "update", not a remove plus an add.
 * Meant for the small JSON files; diff tokenizer.json through summarizeTokenizer instead.
 */
export function diffJson(before: unknown, after: unknown): JsonDiff {
  const changeset = diff(before, after, { embeddedObjKeys: EMBEDDED_KEYS });
  return { changeset, changes: flatten(atomizeChangeset(changeset)) };
}

function flatten(atoms: IAtomicChange[]): FlatChange[] {
  const out: FlatChange[] = [];
  for (const atom of atoms) {
    const path = atom.path.replace(/^\$\.\$root$/, "$");
    const prev = out[out.length - 1];
    // json-diff-ts reports a type change as REMOVE then ADD on the same path.
    if (atom.type === "ADD" && prev?.op === "remove" && prev.path === path) {
      prev.op = "update";
      prev.after = atom.value;
      continue;
    }
    if (atom.type === "ADD") out.push({ path, op: "add", after: atom.value });
    else if (atom.type === "REMOVE") out.push({ path, op: "remove", before: atom.value });
    else out.push({ path, op: "update", before: atom.oldValue, after: atom.value });
  }
  return out;
}
