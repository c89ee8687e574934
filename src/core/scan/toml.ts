import { parse } from "smol-toml";
import { isModelKey, isRevisionKey } from "./config-keys.ts";
import { parseRepoId } from "./repo-id.ts";
import type { FoundReference } from "./types.ts";

/** `[table]` or `[[array.of.tables]]` headers. */
const HEADER = /^[ \t]*\[\[?[ \t]*([^\]]+?)[ \t]*\]\]?[ \t]*(?:#.*)?$/;
/** `key = "value"` or `key = 'value'` (bare or quoted key), also inside an inline table. */
const ENTRY = /(?:^|[{,])[ \t]*["']?([A-Za-z0-9_.-]+?)["']?[ \t]*=[ \t]*(["'])([^"'\n\\]*)\2/g;

type Entry = { table: string; key: string; value: string; valueStart: number };

/** The string entries of each line, with the table they belong to and where each value starts. */
function entries(text: string): Entry[] {
  const out: Entry[] = [];
  let table = "";
  let offset = 0;
  for (const line of text.split("\n")) {
    const header = HEADER.exec(line);
    if (header) table = header[1] ?? "";
    else {
      for (const m of line.matchAll(ENTRY)) {
        const value = m[3] ?? "";
        const valueStart = offset + m.index + m[0].length - value.length - 1;
        out.push({ table, key: m[1] ?? "", value, valueStart });
      }
    }
    offset += line.length + 1;
  }
  return out;
}

function tableAt(doc: unknown, path: string): unknown {
  let node = doc;
  for (const part of path ? path.split(".") : []) {
    const v = (node as Record<string, unknown> | undefined)?.[part.trim().replace(/^["']|["']$/g, "")];
    node = v;
  }
  return node;
}

/** Every string in a parsed table, nested tables and arrays included (a line's value must be one). */
function leafStrings(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node === "string") out.add(node);
  else if (node && typeof node === "object") for (const v of Object.values(node)) leafStrings(v, out);
  return out;
}

/**
 * Model references in TOML: model-named keys (`model_name_or_path = "..."`, ...) paired with a
 * revision key of the same table. The document must parse (smol-toml); the lines then give positions.
 */
export function findTomlReferences(text: string): FoundReference[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return [];
  }
  const all = entries(text);
  const out: FoundReference[] = [];
  for (const e of all) {
    if (!isModelKey(e.key) || !leafStrings(tableAt(doc, e.table)).has(e.value)) continue;
    const repo = parseRepoId(e.value);
    if (!repo) continue;
    const rev = all.find((r) => r.table === e.table && isRevisionKey(r.key));
    const found: FoundReference = {
      start: e.valueStart,
      end: e.valueStart + repo.length,
      repo,
      revision: rev?.value ?? null,
      syntax: "toml",
      context: e.key,
    };
    if (rev)
      found.pin = { start: rev.valueStart, end: rev.valueStart + rev.value.length, before: "", after: "" };
    out.push(found);
  }
  return out;
}
