import { type EnvEntry, envReferences } from "./env-vars.ts";
import type { FoundReference } from "./types.ts";

const LINE = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)$/gm;

/** A value as dotenv reads it: quoted (to the closing quote) or bare (to a ` #` comment), trimmed. */
function dotenvValue(raw: string): { value: string; offset: number } {
  const q = raw[0];
  if (q === '"' || q === "'" || q === "`") {
    const close = raw.indexOf(q, 1);
    return { value: raw.slice(1, close < 0 ? raw.length : close), offset: 1 };
  }
  const value = raw.replace(/[ \t]+#.*$/, "").trimEnd();
  return { value, offset: 0 };
}

/** Every `KEY=value` line of an env file, with where each value starts. */
function dotenvEntries(text: string): EnvEntry[] {
  const out: EnvEntry[] = [];
  for (const m of text.matchAll(LINE)) {
    const key = m[1] ?? "";
    const raw = m[2] ?? "";
    const { value, offset } = dotenvValue(raw);
    const rawStart = m.index + m[0].length - raw.length;
    const verbatim = !value.includes("\\") && !value.includes("$");
    out.push({
      key,
      value,
      start: m.index,
      end: m.index + m[0].length,
      valueStart: verbatim ? rawStart + offset : null,
    });
  }
  return out;
}

/** Model references in a `.env` file: `MODEL_ID=...` and friends, pinned by a matching `REVISION=...`. */
export function findDotenvReferences(text: string): FoundReference[] {
  return envReferences(
    dotenvEntries(text).filter((e) => !e.value.includes("$")),
    "dotenv",
  );
}
