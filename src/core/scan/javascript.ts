import type { SyntaxNode, Tree } from "@lezer/common";
import { parser } from "@lezer/javascript";
import { type Constants, loaderFor, modelArg, type RevisionInfo, referenceFromArg } from "./calls.ts";
import { type Call, childrenOf, quoteOf, stringValue } from "./syntax-tree.ts";
import type { FoundReference } from "./types.ts";

type JsDialect = "js" | "jsx" | "ts" | "tsx";

const parsers = {
  js: parser.configure({ dialect: "jsx" }),
  jsx: parser.configure({ dialect: "jsx" }),
  ts: parser.configure({ dialect: "ts" }),
  tsx: parser.configure({ dialect: "ts jsx" }),
};

/** `const NAME = "literal"` (also `let`/`var`, with a type annotation), by name. */
function constantsOf(tree: Tree, text: string): Constants {
  const out: Constants = new Map();
  tree.iterate({
    enter(ref) {
      if (ref.name !== "VariableDefinition") return;
      let next = ref.node.nextSibling;
      if (next?.name === "TypeAnnotation") next = next.nextSibling;
      if (next?.name !== "Equals" || !next.nextSibling) return;
      const value = stringValue(next.nextSibling, text);
      if (!value) return;
      const name = text.slice(ref.from, ref.to);
      out.set(name, [...(out.get(name) ?? []), { at: ref.from, value }]);
    },
  });
  return out;
}

function propertyNamed(obj: SyntaxNode, name: string, text: string): SyntaxNode | null {
  for (const prop of obj.getChildren("Property")) {
    const key = prop.firstChild;
    if (!key) continue;
    const keyText = text.slice(key.from, key.to).replace(/^["']|["']$/g, "");
    if (keyText === name) return prop.lastChild;
  }
  return null;
}

/** The options object after the model argument: `{ revision: "..." }`, or where to add one. */
function revisionOf(call: Call, model: SyntaxNode, text: string): RevisionInfo {
  const args = childrenOf(call.argList);
  const options = args[args.findIndex((a) => a.from === model.from) + 1];
  const q = quoteOf(model, text);
  if (!options) {
    return {
      revision: null,
      dynamic: false,
      pin: { start: model.to, end: model.to, before: `, { revision: ${q}`, after: `${q} }` },
    };
  }
  if (options.name !== "ObjectExpression") return { revision: null, dynamic: true };
  const value = propertyNamed(options, "revision", text);
  if (!value) {
    const open = options.firstChild;
    if (!open) return { revision: null, dynamic: false };
    const empty = childrenOf(options).length === 0;
    const tail = empty ? ` }` : `,`;
    const edit = { start: open.to, end: open.to, before: ` revision: ${q}`, after: `${q}${tail}` };
    if (empty) edit.end = options.to;
    return { revision: null, dynamic: false, pin: edit };
  }
  const literal = stringValue(value, text);
  if (!literal) return { revision: null, dynamic: true };
  return {
    revision: literal.value,
    dynamic: false,
    pin: { start: literal.start, end: literal.end, before: "", after: "" },
  };
}

function callsOf(tree: Tree, text: string): Call[] {
  const calls: Call[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.name !== "CallExpression") return;
      const argList = ref.node.getChild("ArgList");
      const callee = ref.node.firstChild;
      if (!argList || !callee) return;
      const name = callee.name === "VariableName" ? callee : callee.lastChild;
      if (!name || (name.name !== "VariableName" && name.name !== "PropertyName")) return;
      const receiver = callee.name === "MemberExpression" ? callee.firstChild : null;
      const args = childrenOf(argList).map((node) => ({ name: null, node }));
      calls.push({
        node: ref.node,
        name: text.slice(name.from, name.to),
        receiver: receiver ? text.slice(receiver.from, receiver.to) : null,
        args,
        argList,
      });
    },
  });
  return calls;
}

/**
 * Model references in JavaScript and TypeScript: transformers.js `pipeline(task, "owner/name", options)`
 * and `AutoModel.from_pretrained("owner/name", options)`, with `options.revision` as the pin.
 */
export function findJavaScriptReferences(text: string, dialect: JsDialect = "ts"): FoundReference[] {
  const tree = parsers[dialect].parse(text);
  const consts = constantsOf(tree, text);
  const out: FoundReference[] = [];
  for (const call of callsOf(tree, text)) {
    const loader = loaderFor(call, "javascript");
    const model = loader ? modelArg(call, loader) : null;
    if (!loader || !model) continue;
    const rev = revisionOf(call, model.node, text);
    const found = referenceFromArg(model, text, consts, "javascript", loader.context, rev);
    if (found) out.push(found);
  }
  return out;
}
