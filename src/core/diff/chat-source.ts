import { Template } from "@huggingface/jinja";

type Node = { type: string; [key: string]: unknown };

/** Statement nodes: control flow and definitions, which print nothing themselves. */
const STATEMENTS = new Set([
  "If",
  "For",
  "Set",
  "Macro",
  "Comment",
  "Break",
  "Continue",
  "CallStatement",
  "FilterStatement",
]);

/**
 * Whether a template edit touched what the template prints: its text, an expression it outputs
 * (`{{ ... }}`), or a string literal anywhere (a `set` value ends up in the output just as well).
 * Control-flow tests, comments and whitespace that trim_blocks/lstrip_blocks remove do not count.
 * Null when either version does not parse.
 */
export function outputCodeChanged(before: string, after: string): boolean | null {
  const a = outputParts(before);
  const b = outputParts(after);
  if (a === null || b === null) return null;
  if (a.length !== b.length) return true;
  return a.some((part, i) => part !== b[i]);
}

/** The printed parts and string literals of a template, canonical and sorted; null if it does not parse. */
function outputParts(source: string): string[] | null {
  let body: unknown;
  try {
    body = new Template(source).parsed.body;
  } catch {
    return null;
  }
  const out: string[] = [];
  walkBody(body, out);
  return out.sort();
}

function walkBody(list: unknown, out: string[]): void {
  if (!Array.isArray(list)) return;
  for (const item of list as Node[]) {
    if (!STATEMENTS.has(item.type)) out.push(`print ${canonical(item)}`);
    collectLiterals(item, out);
    for (const key of ["body", "alternate", "defaultBlock"]) walkBody(item[key], out);
  }
}

function collectLiterals(node: unknown, out: string[]): void {
  if (node === null || typeof node !== "object") return;
  if (node instanceof Map) {
    for (const [k, v] of node) {
      collectLiterals(k, out);
      collectLiterals(v, out);
    }
    return;
  }
  const n = node as Node;
  if (n.type === "StringLiteral") out.push(`literal ${JSON.stringify(n.value)}`);
  for (const [key, value] of Object.entries(n)) {
    if (key === "body" || key === "alternate" || key === "defaultBlock") continue;
    if (Array.isArray(value)) for (const v of value) collectLiterals(v, out);
    else collectLiterals(value, out);
  }
}

function canonical(node: unknown): string {
  return JSON.stringify(node, (_, v) => (v instanceof Map ? [...v] : v));
}
