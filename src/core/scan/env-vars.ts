import { envRevisionKeys, isEnvModelKey } from "./config-keys.ts";
import { parseRepoId } from "./repo-id.ts";
import type { FoundReference, ScanSyntax } from "./types.ts";

/** One `KEY=value` setting; `valueStart` is where the value sits verbatim in the source, if it does. */
export type EnvEntry = { key: string; value: string; start: number; end: number; valueStart: number | null };

/**
 * References made by settings such as `MODEL_ID=Qwen/Qwen3-8B`, each pinned by its matching revision
 * setting (`REVISION`, `MODEL_REVISION`, ...) among the same entries, which is also what a pin rewrites.
 */
export function envReferences(entries: EnvEntry[], syntax: ScanSyntax): FoundReference[] {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const out: FoundReference[] = [];
  for (const entry of entries) {
    if (!isEnvModelKey(entry.key)) continue;
    const repo = parseRepoId(entry.value);
    if (!repo) continue;
    const revision = envRevisionKeys(entry.key)
      .map((k) => byKey.get(k))
      .find((e) => e !== undefined);
    const start = entry.valueStart ?? entry.start;
    const found: FoundReference = {
      start,
      end: entry.valueStart === null ? entry.end : start + repo.length,
      repo,
      revision: revision?.value || null,
      syntax,
      context: entry.key,
    };
    if (revision?.valueStart != null) {
      const s = revision.valueStart;
      found.pin = { start: s, end: s + revision.value.length, before: "", after: "" };
    }
    out.push(found);
  }
  return out;
}

/** `KEY=value` split at the first `=`, for keys that look like environment variable names. */
export function splitAssignment(word: string): { key: string; value: string } | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
  return m ? { key: m[1] ?? "", value: m[2] ?? "" } : null;
}
