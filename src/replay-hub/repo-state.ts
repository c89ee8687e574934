import { createHash } from "node:crypto";
import { fileEntry } from "./files.ts";
import type { Commit, CommitSpec, FileEntry, RepoSpec } from "./types.ts";

export type RepoState = { spec: RepoSpec; history: Commit[] };

/** sha1 over parent, metadata and the changes; safetensors headers are left out so startup stays cheap. */
function commitSha(parent: string | null, spec: CommitSpec): string {
  const h = createHash("sha1").update(
    `${parent ?? ""}\n${spec.title}\n${spec.date}\n${spec.message ?? ""}\n`,
  );
  for (const [path, file] of Object.entries(spec.changes).sort(([a], [b]) => a.localeCompare(b))) {
    const content = !file
      ? "deleted"
      : file.kind === "text"
        ? (file.key ?? file.text)
        : file.kind === "virtual"
          ? `${file.seed}:${file.size}`
          : file.kind === "gguf"
            ? `gguf:${file.key}`
            : "safetensors";
    h.update(`${path}\0${content}\0`);
  }
  return h.digest("hex");
}

/** Applies one commit spec on top of `parent`, giving it a deterministic sha unless one is pinned. */
export function applyCommit(parent: Commit | null, spec: CommitSpec): Commit {
  const files = new Map(parent?.files ?? []);
  for (const [path, file] of Object.entries(spec.changes)) {
    if (file === null) files.delete(path);
    else files.set(path, file);
  }
  const parentSha = parent?.sha ?? null;
  return {
    sha: spec.sha ?? commitSha(parentSha, spec),
    parentSha,
    title: spec.title,
    message: spec.message ?? "",
    date: spec.date,
    authors: spec.authors ?? ["hubwatch-fixtures"],
    files,
  };
}

function buildHistory(specs: CommitSpec[], base: Commit[] = []): Commit[] {
  const history = [...base];
  for (const spec of specs) history.push(applyCommit(history.at(-1) ?? null, spec));
  return history;
}

export function repoState(spec: RepoSpec): RepoState {
  return { spec, history: buildHistory(spec.commits) };
}

/** Whether a caller with `token` may see the repo at all (private repos need a granted token). */
export function visibleTo(state: RepoState, token: string | undefined): boolean {
  return !state.spec.private || (token !== undefined && (state.spec.tokens ?? []).includes(token));
}

/** "main"/"HEAD" -> head; a 40-hex sha present in the current history -> that commit. */
export function resolveRevision(state: RepoState, rawRev: string): Commit | null {
  let rev = rawRev;
  try {
    rev = decodeURIComponent(rawRev);
  } catch {
    return null;
  }
  if (rev === "main" || rev === "HEAD" || rev === "refs/heads/main") return state.history.at(-1) ?? null;
  if (/^[0-9a-f]{40}$/.test(rev)) return state.history.find((c) => c.sha === rev) ?? null;
  return null;
}

export function entriesOf(commit: Commit): FileEntry[] {
  return [...commit.files]
    .map(([path, spec]) => fileEntry(path, spec))
    .sort((a, b) => a.path.localeCompare(b.path));
}

export function entryOf(commit: Commit, path: string): FileEntry | null {
  const spec = commit.files.get(path);
  return spec ? fileEntry(path, spec) : null;
}

/** Rewrites history: drops the newest `dropLast` commits and appends new ones (old head sha disappears). */
export function rewriteHistory(state: RepoState, dropLast: number, commits: CommitSpec[]): void {
  const kept = state.history.slice(0, Math.max(1, state.history.length - dropLast));
  state.history = buildHistory(commits, kept);
}
