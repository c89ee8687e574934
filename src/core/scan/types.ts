/** The syntaxes `hubwatch scan` reads; `url` marks an `hf://` or Hub link found in any of them. */
export const SCAN_SYNTAXES = [
  "python",
  "javascript",
  "shell",
  "dockerfile",
  "yaml",
  "toml",
  "json",
  "dotenv",
  "markdown",
  "url",
] as const;
export type ScanSyntax = (typeof SCAN_SYNTAXES)[number];

/** How a reference names its revision: a full commit, an abbreviated one, or a tag or branch name. */
export type RevisionKind = "sha" | "short-sha" | "ref";

/**
 * An edit that pins a reference: replace text[start, end) with `before + sha + after`. Inserting
 * `, revision="<sha>"` after a call's model argument is start = end = the argument's end.
 */
export type PinEdit = { start: number; end: number; before: string; after: string };

/** What a finder reports, in offsets of the text it was given (UTF-16 code units). */
export type FoundReference = {
  /** Where the model id (or the expression naming it) starts and ends. */
  start: number;
  end: number;
  /** "owner/name" on the Hub. */
  repo: string;
  /** The revision as written (a literal), or null when none is given. */
  revision: string | null;
  /** The revision comes from an expression the scan cannot evaluate (e.g. `revision=args.rev`). */
  dynamicRevision?: boolean;
  syntax: ScanSyntax;
  /** What says this is a model: `from_pretrained`, `vllm serve`, `MODEL_ID`, `base_model`, `hf://`. */
  context: string;
  /** How to pin it to a sha; absent when no safe edit exists. */
  pin?: PinEdit;
};

/** One model reference in a scanned file. Lines and columns are 1-based; columns count UTF-16 units. */
export type ModelReference = {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  repo: string;
  revision: string | null;
  revisionKind: RevisionKind | null;
  /** No revision, or a branch that moves (`main`): what it loads changes with every push. */
  floating: boolean;
  /** The revision is an expression the scan cannot evaluate: neither checked nor floating. */
  dynamicRevision: boolean;
  syntax: ScanSyntax;
  context: string;
  pin: PinEdit | null;
};
