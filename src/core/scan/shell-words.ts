/**
 * A shell word with its place in the source. `valueStart` is where the value's characters sit verbatim
 * in the source (a bare word, or one quoted string); null when quoting, escapes or expansions split it.
 */
export type Word = {
  value: string;
  start: number;
  end: number;
  valueStart: number | null;
  /** Holds `$VAR`, `${...}`, `$(...)` or a backtick: its value is not known statically. */
  dynamic: boolean;
};

const SEPARATORS = new Set([";", "&", "|", "(", ")", "\n"]);

type State = {
  text: string;
  i: number;
  word: Word | null;
  segments: number;
  last: "bare" | "quote" | null;
  commands: Word[][];
};

function startWord(s: State): Word {
  s.word ??= { value: "", start: s.i, end: s.i, valueStart: null, dynamic: false };
  return s.word;
}

/** A word made of one bare run or one quoted string keeps its value verbatim in the source. */
function segment(s: State, kind: "bare" | "quote", valueStart: number): void {
  if (s.last === kind && kind === "bare") return;
  s.segments += 1;
  s.last = kind;
  if (s.segments === 1 && s.word) s.word.valueStart = valueStart;
}

function endWord(s: State): void {
  if (!s.word) return;
  s.word.end = s.i;
  if (s.segments > 1) s.word.valueStart = null;
  s.commands.at(-1)?.push(s.word);
  s.word = null;
  s.segments = 0;
  s.last = null;
}

function endCommand(s: State): void {
  endWord(s);
  if ((s.commands.at(-1)?.length ?? 0) > 0) s.commands.push([]);
}

function readQuoted(s: State, quote: string): void {
  const w = startWord(s);
  segment(s, "quote", s.i + 1);
  const close = s.text.indexOf(quote, s.i + 1);
  const end = close < 0 ? s.text.length : close;
  const body = s.text.slice(s.i + 1, end);
  w.value += body;
  if (quote === '"' && /[$`]/.test(body)) w.dynamic = true;
  if (quote === '"' && body.includes("\\")) s.segments += 1;
  s.i = end + 1;
}

function readBare(s: State, c: string): void {
  const w = startWord(s);
  segment(s, "bare", s.i);
  if (c === "$" || c === "`") w.dynamic = true;
  w.value += c;
  s.i += 1;
}

/**
 * Splits shell source into commands of words, as far as finding model ids needs: quotes, `\`
 * line continuations, comments, and `;` `&&` `||` `|` `(` `)` newlines between commands. No expansion.
 */
export function shellCommands(text: string): Word[][] {
  const s: State = { text, i: 0, word: null, segments: 0, last: null, commands: [[]] };
  while (s.i < text.length) {
    const c = text[s.i] ?? "";
    if (c === "\\" && text[s.i + 1] === "\n") {
      endWord(s);
      s.i += 2;
    } else if (c === "\\") {
      const w = startWord(s);
      w.value += text[s.i + 1] ?? "";
      s.segments += 2;
      s.i += 2;
    } else if (c === "'" || c === '"') readQuoted(s, c);
    else if (c === "#" && !s.word) {
      const nl = text.indexOf("\n", s.i);
      s.i = nl < 0 ? text.length : nl;
    } else if (SEPARATORS.has(c)) {
      endCommand(s);
      s.i += 1;
    } else if (c === " " || c === "\t" || c === "\r") {
      endWord(s);
      s.i += 1;
    } else readBare(s, c);
  }
  endCommand(s);
  return s.commands.filter((c) => c.length > 0);
}

/** Words of a slice, moved to the offsets of the whole text (`by` = where the slice starts). */
export function shifted(words: Word[], by: number): Word[] {
  return words.map((w) => ({
    ...w,
    start: w.start + by,
    end: w.end + by,
    valueStart: w.valueStart === null ? null : w.valueStart + by,
  }));
}
