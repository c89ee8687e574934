import type { SyntaxNode, Tree } from "@lezer/common";

/** A string literal's value and where that value sits in the source (inside the quotes). */
export type StringValue = { value: string; start: number; end: number };

/** An argument of a call: positional, or `name=value` (Python keyword arguments). */
export type CallArg = { name: string | null; node: SyntaxNode };

/** A call as both grammars shape it: `callee(args)`, the callee's last name and its receiver. */
export type Call = {
  node: SyntaxNode;
  /** `from_pretrained` in `AutoModel.from_pretrained(...)`, `pipeline` in `pipeline(...)`. */
  name: string;
  /** `AutoModel` in `AutoModel.from_pretrained`, null for a bare function. */
  receiver: string | null;
  args: CallArg[];
  argList: SyntaxNode;
};

const PUNCTUATION = new Set(["(", ")", ",", "{", "}", "[", "]", ":"]);

/** The named children of a node, skipping punctuation and comments. */
export function childrenOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (!PUNCTUATION.has(c.name) && c.name !== "Comment" && c.name !== "LineComment") out.push(c);
  }
  return out;
}

/** Splits an ArgList's children at commas into arguments; `name = value` becomes a keyword argument. */
function argsOf(argList: SyntaxNode, text: string): CallArg[] {
  const groups: SyntaxNode[][] = [[]];
  for (let c = argList.firstChild; c; c = c.nextSibling) {
    if (c.name === ",") groups.push([]);
    else if (c.name !== "(" && c.name !== ")" && c.name !== "Comment") groups.at(-1)?.push(c);
  }
  const args: CallArg[] = [];
  for (const g of groups) {
    const [first, second, third] = g;
    if (!first) continue;
    if (g.length === 3 && second?.name === "AssignOp" && third) {
      args.push({ name: text.slice(first.from, first.to), node: third });
    } else if (g.length === 1) args.push({ name: null, node: first });
    else args.push({ name: "*", node: first });
  }
  return args;
}

function calleeNames(callee: SyntaxNode, text: string): { name: string; receiver: string | null } | null {
  if (callee.name === "VariableName") return { name: text.slice(callee.from, callee.to), receiver: null };
  if (callee.name !== "MemberExpression") return null;
  const last = callee.lastChild;
  if (last?.name !== "PropertyName") return null;
  const obj = callee.firstChild;
  const receiver = obj ? text.slice(obj.from, obj.to) : null;
  return { name: text.slice(last.from, last.to), receiver };
}

/** Every call in a tree whose callee is a name or `obj.name`, in source order. */
export function callsIn(tree: Tree, text: string): Call[] {
  const calls: Call[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.name !== "CallExpression" && ref.name !== "NewExpression") return;
      const node = ref.node;
      const argList = node.getChild("ArgList");
      const callee = childrenOf(node).find((c) => c.name !== "new");
      if (!argList || !callee) return;
      const names = calleeNames(callee, text);
      if (names) calls.push({ node, ...names, args: argsOf(argList, text), argList });
    },
  });
  return calls;
}

const PY_PREFIX = /^[rRuU]?(?=["'])/;

/**
 * A plain string literal's value: Python `"x"`, `'x'`, `r"x"`, `"""x"""` (no f- or b-strings) and JS
 * `'x'`, `"x"`, or a template without substitutions. Null for anything with escapes or interpolation:
 * no Hub repo id needs either.
 */
export function stringValue(node: SyntaxNode, text: string): StringValue | null {
  if (node.name !== "String" && node.name !== "TemplateString") return null;
  if (node.firstChild && node.name === "TemplateString") return null;
  const raw = text.slice(node.from, node.to);
  const prefix = PY_PREFIX.exec(raw)?.[0] ?? "";
  const body = raw.slice(prefix.length);
  const quote = body.startsWith('"""') || body.startsWith("'''") ? body.slice(0, 3) : body.slice(0, 1);
  if (!body.endsWith(quote) || body.length < quote.length * 2) return null;
  const value = body.slice(quote.length, body.length - quote.length);
  if (value.includes("\\") || value.includes("\n")) return null;
  const start = node.from + prefix.length + quote.length;
  return { value, start, end: start + value.length };
}

/** The quote character a literal uses, to write a new literal in the same style. */
export function quoteOf(node: SyntaxNode, text: string): string {
  const q = text.slice(node.from, node.to).replace(PY_PREFIX, "")[0];
  return q === "'" || q === "`" ? "'" : '"';
}
