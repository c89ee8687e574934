/**
 * Which statements of a Python file the parser needs to see. Parsing is the scan's main cost, and in a
 * large library most mentions of `from_pretrained` sit in docstrings; so the file is first read by a
 * small lexer that blanks triple-quoted strings and comments, then only the statements that mention a
 * trigger (or assign a string constant) are handed to the real parser, as ranges of the original text.
 */

type Range = { from: number; to: number };

const INTERESTING = /[#'"]/g;
const MAX_STATEMENT = 64 * 1024;

function blank(s: string): string {
  return s.replace(/[^\n]/g, " ");
}

/** Where a string starting at `i` with quote `q` (one or three characters) ends (exclusive). */
function stringEnd(text: string, i: number, q: string): number {
  for (let j = i + q.length; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j += 1;
    else if (q.length === 1 && c === "\n") return j;
    else if (text.startsWith(q, j)) return j + q.length;
  }
  return text.length;
}

/** The text with triple-quoted strings and comments replaced by spaces (same length, newlines kept). */
export function maskPython(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  INTERESTING.lastIndex = 0;
  for (let m = INTERESTING.exec(text); m; m = INTERESTING.exec(text)) {
    const i = m.index;
    let end: number;
    if (m[0] === "#") {
      const nl = text.indexOf("\n", i);
      end = nl < 0 ? text.length : nl;
    } else {
      const q = text.startsWith(m[0].repeat(3), i) ? m[0].repeat(3) : m[0];
      end = stringEnd(text, i, q);
      if (q.length === 1) {
        INTERESTING.lastIndex = end;
        continue;
      }
    }
    parts.push(text.slice(copied, i), blank(text.slice(i, end)));
    copied = end;
    INTERESTING.lastIndex = end;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

function lineEnd(masked: string, i: number): number {
  const nl = masked.indexOf("\n", i);
  return nl < 0 ? masked.length : nl + 1;
}

/**
 * From `from`, the end of the statement: brackets closed (strings skipped) and the line ended. A
 * bracket closing one opened before `from` (the statement is an argument of a larger call) ends it at
 * that line's end, so ranges always end with a newline and the parser never joins two statements.
 */
function statementEnd(masked: string, from: number): number {
  let depth = 0;
  const limit = Math.min(masked.length, from + MAX_STATEMENT);
  for (let i = from; i < limit; i++) {
    const c = masked[i];
    if (c === "'" || c === '"') i = stringEnd(masked, i, c) - 1;
    else if (c === "(" || c === "[" || c === "{") depth += 1;
    else if (c === ")" || c === "]" || c === "}") {
      depth -= 1;
      if (depth < 0) return lineEnd(masked, i);
    } else if (c === "\n" && depth === 0 && masked[i - 1] !== "\\") return i + 1;
  }
  return limit;
}

/** A simple `NAME = "..."` (or `NAME: type = "..."`): a constant a loader call may name. */
const STRING_ASSIGNMENT = /^[ \t]*[A-Za-z_]\w*[ \t]*(?::[^=\n]*)?=[ \t]*[rRuU]?["']/gm;

/**
 * The statements to parse, merged and in order: each starts at its first non-blank character (so the
 * parser sees no stray indentation) and ends after its line. Empty: nothing to look at.
 */
export function statementRanges(masked: string, trigger: RegExp): Range[] {
  const starts = new Set<number>();
  for (const re of [new RegExp(trigger.source, "g"), STRING_ASSIGNMENT]) {
    re.lastIndex = 0;
    for (const m of masked.matchAll(re)) {
      let from = masked.lastIndexOf("\n", m.index) + 1;
      while (masked[from] === " " || masked[from] === "\t") from += 1;
      starts.add(from);
    }
  }
  const ranges: Range[] = [];
  for (const from of [...starts].sort((a, b) => a - b)) {
    const to = statementEnd(masked, from);
    const last = ranges.at(-1);
    if (last && from <= last.to) last.to = Math.max(last.to, to);
    else if (to > from) ranges.push({ from, to });
  }
  return ranges;
}
