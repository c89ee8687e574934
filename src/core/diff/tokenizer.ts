/** What we track of a tokenizer.json: small enough to store per revision and diff. */
export type TokenizerSummary = {
  /** tokenizers' model type: "BPE", "WordPiece", "Unigram", "WordLevel" (inferred when the file omits it). */
  model_type: string;
  /** Distinct token ids: the model vocabulary plus added tokens outside it (Python's `len(tokenizer)`). */
  vocab_size: number;
  added_tokens: AddedToken[];
  special_tokens_count: number;
  /** Type chain, e.g. "Sequence[Prepend, Replace]"; "none" when absent. */
  normalizer: string;
  pre_tokenizer: string;
  merges_count: number;
};

export type AddedToken = { id: number; content: string; special: boolean };

type Json = Record<string, unknown>;

/**
 * Summarizes a tokenizer.json text (often 10+ MB). The text is parsed once and the vocabulary
 * and merges are only counted, never copied or re-serialized. Throws on text that is not JSON.
 */
export function summarizeTokenizer(tokenizerJsonText: string): TokenizerSummary {
  const root = asObject(JSON.parse(tokenizerJsonText)) ?? {};
  const model = asObject(root.model) ?? {};
  const vocab = model.vocab;
  const merges = Array.isArray(model.merges) ? model.merges.length : 0;
  const modelVocab = Array.isArray(vocab) ? vocab.length : countKeys(asObject(vocab));
  const added = readAddedTokens(root.added_tokens);
  const outside = added.filter((t) => t.id >= modelVocab).length;
  return {
    model_type: typeof model.type === "string" ? model.type : inferModelType(model),
    vocab_size: modelVocab + outside,
    added_tokens: added,
    special_tokens_count: added.filter((t) => t.special).length,
    normalizer: typeChain(root.normalizer),
    pre_tokenizer: typeChain(root.pre_tokenizer),
    merges_count: merges,
  };
}

function readAddedTokens(raw: unknown): AddedToken[] {
  if (!Array.isArray(raw)) return [];
  const out: AddedToken[] = [];
  for (const item of raw) {
    const t = asObject(item);
    if (!t || typeof t.id !== "number" || typeof t.content !== "string") continue;
    out.push({ id: t.id, content: t.content, special: t.special === true });
  }
  return out.sort((a, b) => a.id - b.id);
}

// Old BPE files omit model.type; Unigram stores vocab as [piece, score] pairs.
function inferModelType(model: Json): string {
  if (Array.isArray(model.merges)) return "BPE";
  if (Array.isArray(model.vocab)) return "Unigram";
  if (typeof model.continuing_subword_prefix === "string") return "WordPiece";
  return "unknown";
}

/** "Sequence[NFC, Replace]" for nested Sequence components, the plain type otherwise. */
function typeChain(node: unknown): string {
  const obj = asObject(node);
  if (!obj) return "none";
  const type = typeof obj.type === "string" ? obj.type : "unknown";
  const children = obj.normalizers ?? obj.pretokenizers ?? obj.processors ?? obj.decoders;
  if (!Array.isArray(children)) return type;
  return `${type}[${children.map(typeChain).join(", ")}]`;
}

function countKeys(obj: Json | null): number {
  if (!obj) return 0;
  let n = 0;
  for (const _ in obj) n++;
  return n;
}

function asObject(v: unknown): Json | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

export type TokenizerSummaryDiff = {
  changed: boolean;
  /** Scalar fields that differ (model_type, vocab_size, normalizer, ...). */
  fields: { field: string; before: string | number; after: string | number }[];
  added_tokens: {
    added: AddedToken[];
    removed: AddedToken[];
    changed: { id: number; before: AddedToken; after: AddedToken }[];
  };
};

const SCALAR_FIELDS = [
  "model_type",
  "vocab_size",
  "special_tokens_count",
  "normalizer",
  "pre_tokenizer",
  "merges_count",
] as const;

/** Compares two summaries; added tokens are matched by id. */
export function diffTokenizerSummary(a: TokenizerSummary, b: TokenizerSummary): TokenizerSummaryDiff {
  const fields = SCALAR_FIELDS.filter((f) => a[f] !== b[f]).map((f) => ({
    field: f,
    before: a[f],
    after: b[f],
  }));
  const before = new Map(a.added_tokens.map((t) => [t.id, t]));
  const after = new Map(b.added_tokens.map((t) => [t.id, t]));
  const added = b.added_tokens.filter((t) => !before.has(t.id));
  const removed = a.added_tokens.filter((t) => !after.has(t.id));
  const changed: TokenizerSummaryDiff["added_tokens"]["changed"] = [];
  for (const t of b.added_tokens) {
    const old = before.get(t.id);
    if (old && (old.content !== t.content || old.special !== t.special)) {
      changed.push({ id: t.id, before: old, after: t });
    }
  }
  const isChanged = fields.length + added.length + removed.length + changed.length > 0;
  return { changed: isChanged, fields, added_tokens: { added, removed, changed } };
}
