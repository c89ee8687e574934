import { expect } from "vitest";
import { findReferences } from "./find-references.ts";
import { applyPins } from "./fix-pins.ts";

/**
 * `line:column repo@revision state context` per reference found in `text` read as `file`. Each
 * reported position must hold the repo id (or the name of the constant that holds it).
 */
export function scan(text: string, file: string): string[] {
  return findReferences(file, text).map((r) => {
    const at = (text.split("\n")[r.line - 1] ?? "").slice(r.column - 1, r.endColumn - 1);
    expect(at === r.repo || /^[A-Za-z_]\w*$/.test(at), `${at} at ${r.line}:${r.column}`).toBe(true);
    const state = r.dynamicRevision ? "dynamic" : r.floating ? "floating" : "pinned";
    return `${r.line}:${r.column} ${r.repo}@${r.revision ?? "-"} ${state} ${r.context}`;
  });
}

/** The file with every floating reference that has a pin edit pinned to `sha`. */
export function pinned(text: string, file: string, sha = "f".repeat(40)): string {
  const pins = findReferences(file, text).flatMap((r) => (r.floating && r.pin ? [{ edit: r.pin, sha }] : []));
  return applyPins(text, pins).text;
}
