import type { SyntaxNode, Tree } from "@lezer/common";
import { parser } from "@lezer/python";
import {
  type Constants,
  hfHubStrings,
  loaderFor,
  modelArg,
  type RevisionInfo,
  referenceFromArg,
  resolveValue,
} from "./calls.ts";
import { isModelKey, isRevisionKey } from "./config-keys.ts";
import { shiftFound } from "./found.ts";
import { maskPython, statementRanges } from "./python-regions.ts";
import { type Call, type CallArg, callsIn, quoteOf, stringValue } from "./syntax-tree.ts";
import type { FoundReference } from "./types.ts";

type Assignment = { name: string; value: SyntaxNode; at: number };

/** `NAME = value` and `NAME: type = value` with a single name as target, in source order. */
function assignmentsOf(tree: Tree, text: string): Assignment[] {
  const out: Assignment[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.name !== "AssignStatement") return;
      const first = ref.node.firstChild;
      const last = ref.node.lastChild;
      if (first?.name !== "VariableName" || !last || last.prevSibling?.name !== "AssignOp") return;
      out.push({ name: text.slice(first.from, first.to), value: last, at: ref.from });
    },
  });
  return out;
}

function constantsOf(assignments: Assignment[], text: string): Constants {
  const out: Constants = new Map();
  for (const a of assignments) {
    const value = stringValue(a.value, text);
    if (!value) continue;
    out.set(a.name, [...(out.get(a.name) ?? []), { at: a.at, value }]);
  }
  return out;
}

function keyword(call: Call, name: string): CallArg | undefined {
  return call.args.find((a) => a.name === name);
}

/** A call's `revision=`: a literal (pinned, or `main` replaced in place), dynamic, or absent (insert one). */
function revisionOf(call: Call, model: CallArg, text: string, consts: Constants): RevisionInfo {
  const arg = keyword(call, "revision");
  if (!arg) {
    const q = quoteOf(model.node, text);
    return { revision: null, dynamic: false, pin: insertAfter(model.node, `, revision=${q}`, q) };
  }
  const value = resolveValue(arg.node, text, consts);
  if (!value) return { revision: null, dynamic: true };
  const pin = value.literal ? { start: value.start, end: value.end, before: "", after: "" } : undefined;
  return { revision: value.value, dynamic: false, pin };
}

function insertAfter(node: SyntaxNode, before: string, after: string) {
  return { start: node.to, end: node.to, before, after };
}

const NOT_MODEL_REPO_TYPES = new Set(["dataset", "space"]);

function fromCall(call: Call, text: string, consts: Constants): FoundReference | null {
  const loader = loaderFor(call, "python");
  if (!loader) return null;
  const repoType = keyword(call, "repo_type");
  const type = repoType ? stringValue(repoType.node, text)?.value : undefined;
  if (type && NOT_MODEL_REPO_TYPES.has(type)) return null;
  const model = modelArg(call, loader);
  if (!model) return null;
  const rev = revisionOf(call, model, text, consts);
  return referenceFromArg(model, text, consts, "python", loader.context, rev);
}

type Default = { key: string; value: SyntaxNode };

function defaultArg(call: Call): SyntaxNode | null {
  return keyword(call, "default")?.node ?? null;
}

/** `parser.add_argument("--model_name_or_path", default="...")`: the flag's name says it is a model. */
function flagDefaults(calls: Call[], text: string): Default[] {
  const out: Default[] = [];
  for (const call of calls) {
    if (call.name !== "add_argument") continue;
    const flags = call.args.filter((a) => a.name === null).map((a) => stringValue(a.node, text)?.value);
    const key = flags.find((f) => f && (isModelKey(f) || isRevisionKey(f)));
    const value = defaultArg(call);
    if (key && value) out.push({ key, value });
  }
  return out;
}

/** `model_name_or_path: str = field(default="...")` (HfArgumentParser dataclasses) or `= "..."`. */
function fieldDefaults(assignments: Assignment[], calls: Call[]): Default[] {
  const out: Default[] = [];
  for (const a of assignments) {
    if (!isModelKey(a.name) && !isRevisionKey(a.name)) continue;
    const call = a.value.name === "CallExpression" ? calls.find((c) => c.node.from === a.value.from) : null;
    const value = call ? (call.name === "field" ? defaultArg(call) : null) : a.value;
    if (value) out.push({ key: a.name, value });
  }
  return out;
}

/** Defaults of model-named flags and fields, paired with the file's revision default when it has one. */
function fromDefaults(defaults: Default[], text: string): FoundReference[] {
  const revisionDefault = defaults.find((d) => isRevisionKey(d.key));
  const literal = revisionDefault ? stringValue(revisionDefault.value, text) : null;
  const rev: RevisionInfo = {
    revision: literal?.value ?? null,
    dynamic: Boolean(revisionDefault && !literal),
    pin: literal ? { start: literal.start, end: literal.end, before: "", after: "" } : undefined,
  };
  const out: FoundReference[] = [];
  for (const d of defaults) {
    if (!isModelKey(d.key) || !stringValue(d.value, text)) continue;
    const context = `default of ${d.key.replace(/^-+/, "")}`;
    const found = referenceFromArg({ name: null, node: d.value }, text, new Map(), "python", context, rev);
    if (found) out.push(found);
  }
  return out;
}

function stringNodes(tree: Tree): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.name === "String") out.push(ref.node);
    },
  });
  return out;
}

/** Every name a Python reference can hang on: loaders, `add_argument`, model-named fields, `hf-hub:`. */
const TRIGGER =
  /from_pretrained|pipeline|SentenceTransformer|CrossEncoder|SparseEncoder|hf_hub_download|snapshot_download|hf_hub_url|\bLLM\b|InferenceClient|add_argument|model_name_or_path|base_model|model_id|tokenizer_name|revision|hf-hub:/;

/**
 * Model references in Python source: Hub loaders (`from_pretrained`, `pipeline(model=)`,
 * `SentenceTransformer`, `hf_hub_download`, vLLM's `LLM`, ...) called with a literal or a string constant,
 * defaults of model-named CLI flags and dataclass fields, and `hf-hub:` strings (timm, open_clip).
 */
export function findPythonReferences(source: string): FoundReference[] {
  if (!TRIGGER.test(source)) return [];
  const ranges = statementRanges(maskPython(source), TRIGGER);
  const base = ranges[0]?.from;
  if (base === undefined) return [];
  // Lezer reports positions from the first range's start: parse from there and shift back at the end.
  const text = source.slice(base);
  const tree = parser.parse(
    text,
    undefined,
    ranges.map((r) => ({ from: r.from - base, to: r.to - base })),
  );
  const assignments = assignmentsOf(tree, text);
  const consts = constantsOf(assignments, text);
  const calls = callsIn(tree, text);
  const out: FoundReference[] = [];
  for (const call of calls) {
    const found = fromCall(call, text, consts);
    if (found) out.push(found);
  }
  out.push(...fromDefaults([...flagDefaults(calls, text), ...fieldDefaults(assignments, calls)], text));
  out.push(...hfHubStrings(stringNodes(tree), text, "python"));
  return out.map((f) => shiftFound(f, base));
}
