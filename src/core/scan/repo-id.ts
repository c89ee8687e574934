import type { RevisionKind } from "./types.ts";

const PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const FULL_SHA = /^[0-9a-f]{40}$/i;
const SHORT_SHA = /^[0-9a-f]{7,39}$/i;
/** Branches whose head moves with every push: a reference pinned to one still floats. */
const MOVING_REFS = new Set(["main", "master", "HEAD", "refs/heads/main"]);
/** A value ending like a file is a path to a file, not a repo. */
const FILE_SUFFIX =
  /\.(json|bin|pt|pth|ckpt|safetensors|gguf|ggml|onnx|h5|msgpack|model|txt|py|ya?ml|toml|md|csv|parquet|tar|gz|zip)$/i;
/** First path segments that name something other than a model repo on the Hub (and in links to it). */
const RESERVED_OWNERS = new Set([
  "api",
  "blog",
  "chat",
  "collections",
  "datasets",
  "docs",
  "enterprise",
  "join",
  "learn",
  "login",
  "models",
  "new",
  "organizations",
  "papers",
  "posts",
  "pricing",
  "settings",
  "spaces",
  "tasks",
  "buckets",
]);

/** Whether `part` is a Hub owner or repo name: letters, digits, `-`, `_`, `.`; no `--` or `..`. */
function isPart(part: string): boolean {
  return PART.test(part) && !part.includes("--") && !part.includes("..") && !part.endsWith(".");
}

/**
 * The Hub model repo id a literal names, or null. Accepts exactly "owner/name" (or "owner/name:tag"
 * as llama.cpp and Ollama write GGUF quantizations, the tag dropped); refuses paths ("./x", "/x", "a/b/c"),
 * file names, dataset and space ids, and anything outside the Hub's charset.
 */
export function parseRepoId(value: string): string | null {
  const v = value.replace(/:[A-Za-z0-9._-]+$/, "");
  const parts = v.split("/");
  if (parts.length !== 2) return null;
  const [owner = "", name = ""] = parts;
  if (!isPart(owner) || !isPart(name) || RESERVED_OWNERS.has(owner)) return null;
  if (FILE_SUFFIX.test(name) || /^\d+$/.test(owner)) return null;
  return `${owner}/${name}`;
}

/** A revision literal's kind; null for an empty one. */
export function revisionKind(revision: string | null): RevisionKind | null {
  if (!revision) return null;
  if (FULL_SHA.test(revision)) return "sha";
  if (SHORT_SHA.test(revision)) return "short-sha";
  return "ref";
}

/** Floating: no revision at all, or a branch that moves. A tag or any sha is a pin. */
export function isFloating(revision: string | null, dynamic = false): boolean {
  if (dynamic) return false;
  return revision === null || revision === "" || MOVING_REFS.has(revision);
}
