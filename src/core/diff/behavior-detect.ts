import {
  type BehaviorChange,
  type BehaviorSide,
  CONTEXT_FIELDS,
  canonicalJson,
  compareFields,
  DTYPE_FIELDS,
  EMBEDDING_FIELDS,
  type FieldList,
  NOT_GENERATION_DEFAULTS,
  readField,
  sha256Hex,
  type TemplateEdit,
  TOKEN_FIELDS,
  type ValueChange,
} from "./behavior.ts";

const TITLES = {
  eos_token: "EOS token changed",
  bos_token: "BOS token changed",
  pad_token: "PAD token changed",
  context_length: "context length or RoPE scaling changed",
  generation_defaults: "default generation parameters changed",
  torch_dtype: "torch_dtype changed",
  embedding: "embedding output changed",
} as const;

/**
 * The behaviour changes between two revisions of a repo. `templateEdits` are the chat-template
 * edits that change a rendered prompt (or add or remove a template), as the template differ found
 * them; everything else is read from the files on both sides.
 */
export function detectBehaviorChanges(
  before: BehaviorSide,
  after: BehaviorSide,
  templateEdits: TemplateEdit[],
): BehaviorChange[] {
  const out: BehaviorChange[] = [];
  if (templateEdits.length > 0) out.push(promptChange(before, after, templateEdits));
  for (const kind of ["eos_token", "bos_token", "pad_token"] as const) {
    pushValues(out, kind, compareFields(before, after, TOKEN_FIELDS[kind]));
  }
  const added = addedSpecialTokens(before, after);
  if (added) out.push(added);
  pushValues(out, "context_length", compareFields(before, after, CONTEXT_FIELDS));
  pushValues(out, "generation_defaults", compareFields(before, after, generationFields(before, after)));
  pushValues(out, "torch_dtype", compareFields(before, after, DTYPE_FIELDS));
  pushValues(out, "embedding", compareFields(before, after, EMBEDDING_FIELDS));
  return out;
}

function promptChange(before: BehaviorSide, after: BehaviorSide, edits: TemplateEdit[]): BehaviorChange {
  const hashes = (s: BehaviorSide) =>
    canonicalJson(Object.fromEntries(Object.entries(s.templates).map(([n, t]) => [n, sha256Hex(t)])));
  const parts = edits.map((e) =>
    e.status === "modified"
      ? `"${e.name}" changes ${e.changed.length} scenario${e.changed.length === 1 ? "" : "s"} (${e.changed.slice(0, 3).join(", ")}${e.changed.length > 3 ? ", ..." : ""})`
      : `"${e.name}" ${e.status}`,
  );
  return {
    kind: "prompt",
    summary: `rendered prompt changed: chat template ${parts.join("; ")}`,
    detail: { type: "prompt", templates: edits, before: hashes(before), after: hashes(after) },
  };
}

function pushValues(
  out: BehaviorChange[],
  kind: keyof typeof TITLES,
  cmp: { changes: ValueChange[]; before: string; after: string },
): void {
  if (cmp.changes.length === 0) return;
  const shown = cmp.changes
    .slice(0, 3)
    .map((c) => `${c.file} ${c.field} ${show(c.before)} -> ${show(c.after)}`);
  const more = cmp.changes.length > 3 ? ` (+${cmp.changes.length - 3} more)` : "";
  out.push({
    kind,
    summary: `${TITLES[kind]}: ${shown.join("; ")}${more}`,
    detail: { type: "values", changes: cmp.changes, before: cmp.before, after: cmp.after },
  });
}

/** Every sampling default either side's generation_config.json sets (token ids have their own kinds). */
function generationFields(before: BehaviorSide, after: BehaviorSide): FieldList {
  const keys = new Set<string>();
  for (const side of [before, after]) {
    for (const key of Object.keys(side.files["generation_config.json"] ?? {})) {
      if (!NOT_GENERATION_DEFAULTS.has(key) && !key.endsWith("_token_id")) keys.add(key);
    }
  }
  return [...keys].sort().map((k): [string, string] => ["generation_config.json", k]);
}

/** Special tokens present after and not before: tokenizer.json's added tokens, tokenizer_config.json's lists. */
function addedSpecialTokens(before: BehaviorSide, after: BehaviorSide): BehaviorChange | null {
  const a = specialTokens(before);
  const b = specialTokens(after);
  if (a === null || b === null) return null;
  const tokens = [...b].filter(([content]) => !a.has(content)).map(([content, file]) => ({ content, file }));
  if (tokens.length === 0) return null;
  const names = tokens.slice(0, 5).map((t) => JSON.stringify(t.content));
  const more = tokens.length > 5 ? `, ... (${tokens.length} in all)` : "";
  return {
    kind: "added_special_tokens",
    summary: `${tokens.length} special token${tokens.length === 1 ? "" : "s"} added: ${names.join(", ")}${more}`,
    detail: {
      type: "added_special_tokens",
      tokens,
      before: canonicalJson([...a.keys()].sort()),
      after: canonicalJson([...b.keys()].sort()),
    },
  };
}

/** Special token contents and where each was first seen; null when neither source is known. */
function specialTokens(s: BehaviorSide): Map<string, string> | null {
  const config = s.files["tokenizer_config.json"];
  if (s.tokenizer === undefined && config === undefined) return null;
  const out = new Map<string, string>();
  for (const t of s.tokenizer?.added_tokens ?? []) if (t.special) out.set(t.content, "tokenizer.json");
  const decoder = readField(config, "added_tokens_decoder");
  if (decoder && typeof decoder === "object") {
    for (const t of Object.values(decoder as Record<string, { content?: unknown; special?: unknown }>)) {
      if (t && typeof t.content === "string" && t.special === true && !out.has(t.content))
        out.set(t.content, "tokenizer_config.json");
    }
  }
  const extra = readField(config, "additional_special_tokens");
  for (const t of Array.isArray(extra) ? extra : []) {
    const content = typeof t === "string" ? t : (t as { content?: unknown })?.content;
    if (typeof content === "string" && !out.has(content)) out.set(content, "tokenizer_config.json");
  }
  return out;
}

function show(v: unknown): string {
  const s = v === undefined ? "(none)" : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
