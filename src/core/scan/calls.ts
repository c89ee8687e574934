import type { SyntaxNode } from "@lezer/common";
import { parseRepoId } from "./repo-id.ts";
import { type Call, type CallArg, type StringValue, stringValue } from "./syntax-tree.ts";
import type { FoundReference, PinEdit, ScanSyntax } from "./types.ts";

/** String constants of a file by name, each with where it was assigned (to pick the nearest one). */
export type Constants = Map<string, { at: number; value: StringValue }[]>;

/** Which argument of a call names the model: a positional index, or one of some keywords. */
type Loader = { context: string; positional: number; keywords: string[] };

const SENTENCE_TRANSFORMERS = { positional: 0, keywords: ["model_name_or_path", "model_name"] };
const HUB_DOWNLOAD = { positional: 0, keywords: ["repo_id"] };

/** Python callables that load a Hub model, by the name they are called with. */
const PYTHON_LOADERS: Record<string, Omit<Loader, "context">> = {
  from_pretrained: { positional: 0, keywords: ["pretrained_model_name_or_path", "repo_id", "model_id"] },
  pipeline: { positional: 1, keywords: ["model"] },
  SentenceTransformer: SENTENCE_TRANSFORMERS,
  CrossEncoder: SENTENCE_TRANSFORMERS,
  SparseEncoder: SENTENCE_TRANSFORMERS,
  hf_hub_download: HUB_DOWNLOAD,
  snapshot_download: HUB_DOWNLOAD,
  hf_hub_url: HUB_DOWNLOAD,
  LLM: { positional: 0, keywords: ["model"] },
  InferenceClient: { positional: 0, keywords: ["model"] },
};

/** transformers.js: `pipeline(task, model, options)` and `AutoX.from_pretrained(model, options)`. */
const JS_LOADERS: Record<string, Omit<Loader, "context">> = {
  pipeline: { positional: 1, keywords: [] },
  from_pretrained: { positional: 0, keywords: [] },
};

export function loaderFor(call: Call, syntax: "python" | "javascript"): Loader | null {
  const table = syntax === "python" ? PYTHON_LOADERS : JS_LOADERS;
  const entry = Object.hasOwn(table, call.name) ? table[call.name] : undefined;
  if (!entry) return null;
  // PeftModel.from_pretrained(base_model, "owner/adapter"): the adapter is the second argument.
  if (syntax === "python" && call.name === "from_pretrained" && /Peft/.test(call.receiver ?? "")) {
    return { context: "from_pretrained", positional: 1, keywords: ["model_id"] };
  }
  return { context: call.name, ...entry };
}

/** The argument a loader reads the model from, if the call passes it. */
export function modelArg(call: Call, loader: Loader): CallArg | null {
  const byKeyword = call.args.find((a) => a.name !== null && loader.keywords.includes(a.name));
  if (byKeyword) return byKeyword;
  const positional = call.args.filter((a) => a.name === null);
  const stars = call.args.some((a) => a.name === "*");
  return stars ? null : (positional[loader.positional] ?? null);
}

/** A value as the scan sees it: a literal (pinnable in place) or a constant it names (position of the name). */
type ResolvedValue = StringValue & { literal: boolean };

/** A string literal, or a name bound to one string constant in the file (the nearest assignment before it). */
export function resolveValue(node: SyntaxNode, text: string, consts: Constants): ResolvedValue | null {
  const literal = stringValue(node, text);
  if (literal) return { ...literal, literal: true };
  if (node.name !== "VariableName") return null;
  const candidates = consts.get(text.slice(node.from, node.to)) ?? [];
  const before = candidates.filter((c) => c.at < node.from);
  const chosen = before.at(-1) ?? candidates[0];
  if (!chosen) return null;
  return { value: chosen.value.value, start: node.from, end: node.to, literal: false };
}

const HF_HUB_PREFIX = "hf-hub:";

export type RevisionInfo = { revision: string | null; dynamic: boolean; pin?: PinEdit | undefined };

/** The reference a loader's model argument makes, or null when it is not a literal Hub repo id. */
export function referenceFromArg(
  arg: CallArg,
  text: string,
  consts: Constants,
  syntax: ScanSyntax,
  context: string,
  rev: RevisionInfo,
): FoundReference | null {
  const value = resolveValue(arg.node, text, consts);
  if (!value) return null;
  const prefixed = value.value.startsWith(HF_HUB_PREFIX);
  const raw = prefixed ? value.value.slice(HF_HUB_PREFIX.length) : value.value;
  const repo = parseRepoId(raw);
  if (!repo) return null;
  const shift = prefixed && value.literal ? HF_HUB_PREFIX.length : 0;
  const found: FoundReference = {
    start: value.start + shift,
    end: value.literal ? value.start + shift + repo.length : value.end,
    repo,
    revision: rev.revision,
    syntax,
    context,
  };
  if (rev.dynamic) found.dynamicRevision = true;
  if (rev.pin) found.pin = rev.pin;
  return found;
}

/** Every `"hf-hub:owner/name"` literal (timm, open_clip): the prefix says it is a Hub model. */
export function hfHubStrings(strings: SyntaxNode[], text: string, syntax: ScanSyntax): FoundReference[] {
  const out: FoundReference[] = [];
  for (const node of strings) {
    const value = stringValue(node, text);
    if (!value?.value.startsWith(HF_HUB_PREFIX)) continue;
    const repo = parseRepoId(value.value.slice(HF_HUB_PREFIX.length));
    if (!repo) continue;
    const start = value.start + HF_HUB_PREFIX.length;
    out.push({ start, end: start + repo.length, repo, revision: null, syntax, context: HF_HUB_PREFIX });
  }
  return out;
}
