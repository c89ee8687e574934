import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { findReferences } from "../../core/scan/find-references.ts";
import type { ModelReference } from "../../core/scan/types.ts";
import { emptyStats, type WalkStats, walkFiles } from "./walk.ts";

export type TreeScan = {
  references: ModelReference[];
  stats: WalkStats;
  /** Wall time of the walk and parse, in ms. */
  ms: number;
};

/** `owner/name` that exists as a folder next to the file or under the working directory is a local path. */
function isLocalFolder(repo: string, absFile: string, cwd: string): boolean {
  return existsSync(join(dirname(absFile), repo)) || existsSync(join(cwd, repo));
}

function reportedPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return (rel.startsWith("..") ? abs : rel).split(sep).join("/");
}

/**
 * Walks `paths` and finds every model reference. Paths in the result are relative to `cwd` (with `/`),
 * as SARIF viewers and `git` expect them; a reference that names a local folder is dropped.
 */
export async function scanTree(paths: string[], opts: { cwd?: string } = {}): Promise<TreeScan> {
  const cwd = opts.cwd ?? process.cwd();
  const stats = emptyStats();
  const started = performance.now();
  const references: ModelReference[] = [];
  const roots = (paths.length ? paths : ["."]).map((p) => resolve(cwd, p));
  for await (const file of walkFiles(roots, stats)) {
    const found = findReferences(reportedPath(file.path, cwd), file.text, file.kind);
    references.push(...found.filter((r) => !isLocalFolder(r.repo, file.path, cwd)));
  }
  return { references, stats, ms: performance.now() - started };
}

/** The distinct repos of a scan, sorted: what `watch add --from-scan` watches. */
export function reposOf(references: ModelReference[]): string[] {
  return [...new Set(references.map((r) => r.repo))].sort();
}
