import { diffLines } from "diff";
import { html, type SafeHtml } from "./html.ts";

// Rendered prompts before and after a template edit, line by line side by side: changed lines are
// highlighted and their whitespace made visible (a space as ·, a tab as →, the line end as ↵), so an
// edit that only adds a newline or a trailing space still shows.

type LinePair = { before: string | null; after: string | null; changed: boolean };

/** Aligns two texts line by line: unchanged lines side by side, removed lines beside added ones. */
export function pairLines(before: string, after: string): LinePair[] {
  const rows: LinePair[] = [];
  let removed: string[] = [];
  const flush = (added: string[]) => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      rows.push({ before: removed[i] ?? null, after: added[i] ?? null, changed: true });
    removed = [];
  };
  for (const part of diffLines(before, after)) {
    const lines = splitKeepingEnds(part.value);
    if (part.removed) removed.push(...lines);
    else if (part.added) flush(lines);
    else {
      flush([]);
      for (const l of lines) rows.push({ before: l, after: l, changed: false });
    }
  }
  flush([]);
  return rows;
}

/** Lines with their "\n" kept, so a missing final newline is a visible difference. */
function splitKeepingEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Marks whitespace: each space ·, each tab →, a line end ↵, other invisible characters as \uXXXX. */
function visibleWhitespace(line: string): SafeHtml[] {
  const out: SafeHtml[] = [];
  for (const piece of line.split(/([ \t\n\r\u00a0\u200b-\u200f\ufeff])/)) {
    if (piece === "") continue;
    const mark = WS_MARKS[piece];
    if (mark !== undefined) out.push(html`<span class="ws">${mark}</span>${piece === "\n" ? "\n" : ""}`);
    else if (/^[\u00a0\u200b-\u200f\ufeff]$/.test(piece))
      out.push(html`<span class="ws">\\u${piece.charCodeAt(0).toString(16).padStart(4, "0")}</span>`);
    else out.push(html`${piece}`);
  }
  return out;
}
const WS_MARKS: Record<string, string> = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍" };

function side(text: string | null, changed: boolean, cls: string): SafeHtml {
  if (text === null) return html`<td class="gap"></td>`;
  return changed
    ? html`<td class="${cls}"><pre>${visibleWhitespace(text)}</pre></td>`
    : html`<td><pre>${text.replace(/\n$/, "")}</pre></td>`;
}

/** The side-by-side table of one scenario's prompts, changed rows marked. */
export function renderPromptDiff(before: string, after: string): SafeHtml {
  const rows = pairLines(before, after);
  return html`<table class="prompt"><colgroup><col><col></colgroup><thead><tr><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>
${rows.map((r) => html`<tr${r.changed ? html` class="changed-line"` : ""}>${side(r.before, r.changed, "del")}${side(r.after, r.changed, "add")}</tr>`)}
</tbody></table>`;
}
