import { fold, html, type SafeHtml } from "./html.ts";

// The tokenizer summary diff of a tokenizer.json change: changed summary fields, then added tokens added,
// removed and changed. Token contents are repo content: escaped, and shown with every invisible character
// spelled out so " x", "x " and "x\n" read differently.

type Token = { id: number; content: string; special: boolean };
type Field = { field: string; before: unknown; after: unknown };
type TokenizerDiff = {
  fields: Field[];
  added_tokens: { added: Token[]; removed: Token[]; changed?: { id: number; before: Token; after: Token }[] };
};

// Space-like, zero-width and C1 characters, which would otherwise look like nothing or a plain space
// (JSON.stringify already spells out C0 controls).
const INVISIBLE = /[\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/g;

/** The token in quotes, as a JSON string, with invisible characters as \uXXXX (e.g. "\u00a0x\n"). */
export function visibleToken(content: string): string {
  return JSON.stringify(content).replace(
    INVISIBLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const tok = (t: Token | undefined) =>
  t ? html`<code class="tok">${visibleToken(t.content)}</code>${t.special ? " special" : ""}` : "";

function tokenRow(change: string, id: number, before?: Token, after?: Token): SafeHtml {
  return html`<tr><td>${change}</td><td>${id}</td><td class="del">${tok(before)}</td><td class="add">${tok(after)}</td></tr>`;
}

export function renderTokenizerDiff(d: TokenizerDiff): SafeHtml {
  const t = d.added_tokens;
  const rows = [
    ...t.added.map((x) => tokenRow("added", x.id, undefined, x)),
    ...t.removed.map((x) => tokenRow("removed", x.id, x, undefined)),
    ...(t.changed ?? []).map((x) => tokenRow("changed", x.id, x.before, x.after)),
  ];
  const fields = d.fields.map(
    (f) =>
      html`<tr><td>${f.field.replaceAll("_", " ")}</td><td class="del">${String(f.before)}</td><td class="add">${String(f.after)}</td></tr>`,
  );
  return html`${fields.length ? html`<table class="tok-fields"><thead><tr><th>Summary field</th><th>Before</th><th>After</th></tr></thead><tbody>${fields}</tbody></table>` : ""}
${rows.length ? html`<h4>Added tokens</h4>${fold(rows.length, html`<table class="tokens"><thead><tr><th>Change</th><th>Id</th><th>Before</th><th>After</th></tr></thead><tbody>${rows}</tbody></table>`)}` : ""}
${fields.length + rows.length === 0 ? html`<p class="muted">Same tokenizer summary.</p>` : ""}`;
}
