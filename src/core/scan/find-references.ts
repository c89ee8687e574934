import { findDockerfileReferences } from "./dockerfile.ts";
import { findDotenvReferences } from "./dotenv.ts";
import { type FileKind, fileKind } from "./file-kind.ts";
import { findJavaScriptReferences } from "./javascript.ts";
import { findJsonReferences } from "./json.ts";
import { findMarkdownReferences } from "./markdown.ts";
import { findPythonReferences } from "./python.ts";
import { isFloating, revisionKind } from "./repo-id.ts";
import { findShellReferences } from "./shell.ts";
import { findTomlReferences } from "./toml.ts";
import type { FoundReference, ModelReference } from "./types.ts";
import { findUrlReferences } from "./urls.ts";
import { findYamlReferences } from "./yaml.ts";

/** References a file of `kind` makes, in offsets of `text` (links excluded: every kind gets those). */
function findByKind(kind: FileKind, text: string): FoundReference[] {
  switch (kind) {
    case "python":
      return findPythonReferences(text);
    case "js":
    case "jsx":
    case "ts":
    case "tsx":
      return findJavaScriptReferences(text, kind);
    case "shell":
      return findShellReferences(text);
    case "dockerfile":
      return findDockerfileReferences(text);
    case "yaml":
      return findYamlReferences(text);
    case "toml":
      return findTomlReferences(text);
    case "json":
      return findJsonReferences(text);
    case "dotenv":
      return findDotenvReferences(text);
    case "markdown":
      return findMarkdownReferences(text, findByKind);
  }
}

/** Offsets of each line's first character, for offset -> (line, column). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function position(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/** One reference per place: a loader call or config key wins over the link finder at the same offset. */
function dedupe(found: FoundReference[]): FoundReference[] {
  const byStart = new Map<number, FoundReference>();
  for (const f of found) {
    const seen = byStart.get(f.start);
    if (!seen || (seen.syntax === "url" && f.syntax !== "url")) byStart.set(f.start, f);
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

function toReference(file: string, starts: number[], f: FoundReference): ModelReference {
  const from = position(starts, f.start);
  const to = position(starts, f.end);
  const dynamic = f.dynamicRevision === true;
  return {
    file,
    line: from.line,
    column: from.column,
    endLine: to.line,
    endColumn: to.column,
    repo: f.repo,
    revision: f.revision,
    revisionKind: dynamic ? null : revisionKind(f.revision),
    floating: isFloating(f.revision, dynamic),
    dynamicRevision: dynamic,
    syntax: f.syntax,
    context: f.context,
    pin: f.pin ?? null,
  };
}

/**
 * The model references in one file, in source order. `file` is the path reported (the kind comes from
 * its last segment); null `kind` means the file is not one the scan reads.
 */
export function findReferences(
  file: string,
  text: string,
  kind = fileKind(file.split("/").pop() ?? "", text.slice(0, 200)),
): ModelReference[] {
  if (!kind) return [];
  const found = dedupe([...findByKind(kind, text), ...findUrlReferences(text)]);
  const starts = lineStarts(text);
  return found.map((f) => toReference(file, starts, f));
}
