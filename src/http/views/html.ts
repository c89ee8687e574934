/**
 * A tagged-template HTML builder that escapes every interpolated value by default.
 * Only values wrapped in raw() (our own markup) or produced by html`` itself pass through unescaped.
 */
export type SafeHtml = { readonly __html: string; toString(): string };

import { escapeHtml } from "../../core/text/escape.ts";

export { escapeHtml };

/** Marks a string as trusted markup. Never pass repo content to this. */
export function raw(markup: string): SafeHtml {
  return { __html: markup, toString: () => markup };
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === "object" && value !== null && typeof (value as SafeHtml).__html === "string";
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (isSafe(value)) return value.__html;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "");
  return raw(out);
}

/** Long tables (a re-sharded weight_map, hundreds of new tensors) fold away; still plain HTML. */
export function fold(rows: number, table: SafeHtml): SafeHtml {
  return rows > 40 ? html`<details><summary>${rows} rows</summary>${table}</details>` : table;
}
