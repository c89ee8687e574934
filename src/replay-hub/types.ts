/** Content of one file at one revision, described compactly; bytes are derived on demand. */
export type FileSpec =
  /** `key` (optional) stands in for the text in commit shas, so lazily built texts stay unbuilt at startup. */
  | { kind: "text"; text: string; key?: string }
  /** A safetensors file stored in LFS: a real header, then a virtual body of zeros never materialised. */
  | { kind: "safetensors"; header: () => Record<string, unknown> }
  /** A GGUF file in LFS: a real header built on first use (`key` stands in for it in commit shas), then zeros. */
  | { kind: "gguf"; key: string; encode: () => { header: Buffer; size: number } }
  /** A large LFS blob with no meaningful content (e.g. a .bin), served as a deterministic byte pattern. */
  | { kind: "virtual"; size: number; seed: string };

/** One commit as a fixture describes it: files set (or deleted with null) relative to its parent. */
export type CommitSpec = {
  /** Explicit sha (e.g. a real Hub commit); otherwise sha1(parent + content). */
  sha?: string;
  title: string;
  message?: string;
  date: string;
  authors?: string[];
  changes: Record<string, FileSpec | null>;
};

export type RepoSpec = {
  id: string;
  gated?: false | "auto" | "manual";
  /** Private: invisible (401/404 RepoNotFound, left out of listings) without a granted token. */
  private?: boolean;
  /** Tokens granted access to a gated or private repo. */
  tokens?: string[];
  pipelineTag?: string;
  libraryName?: string;
  tags?: string[];
  commits: CommitSpec[];
  /** A history rewrite applied by `forcePush(repo)` without arguments (scripted for demos). */
  scriptedForcePush?: { dropLast: number; commits: CommitSpec[] };
};

export type FileEntry = {
  path: string;
  size: number;
  /** git blob sha1 (of the content, or of the LFS pointer). */
  oid: string;
  lfs?: { oid: string; size: number; pointerSize: number };
  /** Bytes [start, end) of the content; bodies of virtual files are generated, not stored. */
  read: (start: number, end: number) => Buffer;
  /** Leading bytes that are real content (header of a safetensors file); the rest is generated. */
  prefixLength: number;
};

export type Commit = {
  sha: string;
  parentSha: string | null;
  title: string;
  message: string;
  date: string;
  authors: string[];
  files: Map<string, FileSpec>;
};

/** "models": the owner listing (`/api/models?author=`); "cdn": a byte request on the CDN origin. */
export const ROUTES = [
  "commits",
  "tree",
  "paths-info",
  "revision",
  "resolve",
  "raw",
  "models",
  "cdn",
  "other",
] as const;
export type Route = (typeof ROUTES)[number];

/** A request path as the router reads it: which route, and the repo, revision and file it names. */
export type Parsed = { route: Route; repo?: string; rev?: string; rest?: string };

/**
 * rate-limit: 429 with `Retry-After` (seconds, or an HTTP date with `httpDate`) and `RateLimit: "api";r=0;t=<resetS>`
 *   (only the RateLimit header when just `resetS` is given). server-error: `status` (default 500).
 * reset: headers and part of the body (at most half, or `afterBytes`), then the socket is destroyed.
 * delay: waits `ms` before answering normally. safetensors: serves *.safetensors as a faulty upload would
 *   (`truncate`: file ends halfway through the header; bad length prefix; non-JSON header bytes).
 */
export type Fault =
  | { kind: "rate-limit"; times: number; retryAfterS?: number; resetS?: number; httpDate?: boolean }
  | { kind: "server-error"; times: number; status?: number }
  | { kind: "reset"; times: number; afterBytes?: number }
  | { kind: "delay"; times: number; ms: number }
  | { kind: "safetensors"; times: number; mode: "truncate" | "zero-length" | "huge-length" | "not-json" };

/** Where a fault applies: any repo/route when omitted. `times` counts matching requests. */
export type FaultRule = Fault & { repo?: string; route?: Route; pathIncludes?: string };

export type RequestLogEntry = {
  at: number;
  method: string;
  path: string;
  route: Route;
  repo?: string;
  status: number;
  bytes: number;
  range?: string;
  fault?: string;
  /** The request carried an Authorization header. */
  authorized?: boolean;
};
