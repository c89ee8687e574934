import { createHash } from "node:crypto";
import type { TokenizerSummary } from "./tokenizer.ts";

/**
 * Changes in what a model does at inference, as opposed to what it weighs: each a kind with a
 * summary a person reads. One per kind per revision.
 */
export const BEHAVIOR_KINDS = [
  "prompt",
  "eos_token",
  "bos_token",
  "pad_token",
  "added_special_tokens",
  "context_length",
  "generation_defaults",
  "torch_dtype",
  "embedding",
] as const;
export type BehaviorKind = (typeof BEHAVIOR_KINDS)[number];

/** One value that changed, e.g. generation_config.json `eos_token_id` 2 -> [2, 32000] (undefined: absent). */
export type ValueChange = { file: string; field: string; before?: unknown; after?: unknown };

/** A prompt-changing template edit: which template, and which scenarios render differently. */
export type TemplateEdit = { name: string; status: "added" | "removed" | "modified"; changed: string[] };

/**
 * `before`/`after`: the kind's whole tracked state on each side as canonical JSON, so that a later
 * revision that brings `before` back can be recognised (advisories close on it).
 */
export type BehaviorDetail =
  | { type: "prompt"; templates: TemplateEdit[]; before: string; after: string }
  | { type: "values"; changes: ValueChange[]; before: string; after: string }
  | {
      type: "added_special_tokens";
      tokens: { content: string; file: string }[];
      before: string;
      after: string;
    };

export type BehaviorChange = { kind: BehaviorKind; summary: string; detail: BehaviorDetail };

type Json = Record<string, unknown>;

/**
 * One revision side: parsed JSON per tracked file (null: the file is absent; a file that is present
 * but unknown or unparseable is left out, so its fields are never compared), the tokenizer.json
 * summary, and the chat templates by name.
 */
export type BehaviorSide = {
  /** `*.gguf`: a GGUF repo's facts from its first GGUF file's header (eos_token, bos_token, context_length). */
  files: Partial<
    Record<
      "config.json" | "generation_config.json" | "tokenizer_config.json" | "*.gguf" | "sentence-transformers",
      Json | null
    >
  >;
  tokenizer?: TokenizerSummary | null;
  templates: Record<string, string>;
};

const TOKEN_FIELDS: Record<"eos_token" | "bos_token" | "pad_token", [string, string][]> = {
  eos_token: tokenFields("eos"),
  bos_token: tokenFields("bos"),
  pad_token: tokenFields("pad"),
};

function tokenFields(t: string): [string, string][] {
  return [
    ["config.json", `${t}_token_id`],
    ["config.json", `text_config.${t}_token_id`],
    ["generation_config.json", `${t}_token_id`],
    ["tokenizer_config.json", `${t}_token`],
    ["*.gguf", `${t}_token`],
  ];
}

const CONTEXT_FIELDS: [string, string][] = [
  ...[
    "max_position_embeddings",
    "n_positions",
    "max_sequence_length",
    "seq_length",
    "sliding_window",
  ].flatMap((f): [string, string][] => [
    ["config.json", f],
    ["config.json", `text_config.${f}`],
  ]),
  ...["rope_scaling", "rope_theta", "rope_parameters"].flatMap((f): [string, string][] => [
    ["config.json", f],
    ["config.json", `text_config.${f}`],
  ]),
  ["tokenizer_config.json", "model_max_length"],
  ["*.gguf", "context_length"],
];

/** A sentence-transformers model's output: pooling, normalisation, dimension, max sequence length. */
const EMBEDDING_FIELDS: [string, string][] = ["pooling", "normalize", "dimension", "max_seq_length"].map(
  (f): [string, string] => ["sentence-transformers", f],
);

const DTYPE_FIELDS: [string, string][] = [
  ["config.json", "torch_dtype"],
  ["config.json", "dtype"],
  ["config.json", "text_config.torch_dtype"],
];

/** generation_config.json keys that are not sampling defaults. */
const NOT_GENERATION_DEFAULTS = new Set(["transformers_version", "_from_model_config"]);

/** The value at a dotted path; a tokenizer_config token dict reads as its `content`. */
export function readField(json: Json | null | undefined, field: string): unknown {
  let v: unknown = json ?? undefined;
  for (const part of field.split(".")) {
    v = v && typeof v === "object" && !Array.isArray(v) ? (v as Json)[part] : undefined;
  }
  if (v && typeof v === "object" && typeof (v as Json).content === "string" && field.endsWith("_token")) {
    return (v as Json).content;
  }
  return v ?? undefined;
}

/** Canonical JSON (sorted keys) for comparing and storing states. */
export function canonicalJson(v: unknown): string {
  return (
    JSON.stringify(v, (_, x) =>
      x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x as Json).sort(([a], [b]) => a.localeCompare(b)))
        : x,
    ) ?? "null"
  );
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export type FieldList = [string, string][];

/** The fields both sides can read (the file is known on each side), with the ones that differ. */
export function compareFields(a: BehaviorSide, b: BehaviorSide, fields: FieldList) {
  const known = fields.filter(([file]) => hasFile(a, file) && hasFile(b, file));
  const state = (s: BehaviorSide) =>
    canonicalJson(
      Object.fromEntries(known.map(([f, k]) => [`${f}:${k}`, readField(fileOf(s, f), k) ?? null])),
    );
  const changes: ValueChange[] = [];
  for (const [file, field] of known) {
    const before = readField(fileOf(a, file), field);
    const after = readField(fileOf(b, file), field);
    if (canonicalJson(before) !== canonicalJson(after)) changes.push({ file, field, before, after });
  }
  return { changes, before: state(a), after: state(b) };
}

function hasFile(s: BehaviorSide, file: string): boolean {
  return file in s.files;
}

function fileOf(s: BehaviorSide, file: string): Json | null | undefined {
  return s.files[file as keyof BehaviorSide["files"]];
}

export { CONTEXT_FIELDS, DTYPE_FIELDS, EMBEDDING_FIELDS, NOT_GENERATION_DEFAULTS, TOKEN_FIELDS };
