import type { Db } from "../../db/types.ts";
import { changeSummaries } from "../../repositories/changes.repository.ts";
import { latestEstimates } from "../../repositories/estimates.repository.ts";
import { getRepoByName, listRepos } from "../../repositories/repos.repository.ts";
import { listRevisionsByRepo } from "../../repositories/revisions-read.repository.ts";
import { adapterBasesByRepo } from "../adapter-base-offer.ts";

// The JSON twin of the history pages (GET /api/repos, GET /api/repos/OWNER/NAME/revisions), for scripts.

export async function reposJson(db: Db) {
  const repos = await listRepos(db);
  const bases = await adapterBasesByRepo({ db });
  return {
    repos: repos.map((r) => ({
      name: r.name,
      status: r.status,
      head: r.lastSeenSha,
      last_polled_at: r.lastPolledAt?.toISOString() ?? null,
      // A PEFT adapter's base ({repo, watched}), once a revision naming it was processed.
      base: bases.get(r.id) ?? null,
    })),
  };
}

export const MAX_PAGE = 100;

/** A cursor names the last revision of the previous page by its seq; opaque to clients. */
function encodeCursor(seq: number): string {
  return Buffer.from(`seq:${seq}`).toString("base64url");
}

export function decodeCursor(cursor: string): number | null {
  const m = /^seq:(\d{1,12})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m ? Number(m[1]) : null;
}

/**
 * One page of a repo's revisions, newest first, each with its file changes (`prompt_changed`: true,
 * false, or null when no template or unknown) and newest estimate; `next_cursor` null on the last page.
 * Keyset pagination on the revision order (seq), so pages stay stable while new revisions arrive.
 * Null when the repo is not watched.
 */
export async function revisionsJson(db: Db, name: string, opts: { limit: number; beforeSeq?: number }) {
  const repo = await getRepoByName(db, name);
  if (!repo) return null;
  const rows = await listRevisionsByRepo(db, repo.id, {
    newestFirst: true,
    limit: opts.limit + 1,
    ...(opts.beforeSeq === undefined ? {} : { beforeSeq: opts.beforeSeq }),
  });
  const page = rows.slice(0, opts.limit);
  const ids = page.map((r) => r.id);
  const [changes, estimates] = await Promise.all([changeSummaries(db, ids), latestEstimates(db, ids)]);
  const revisions = page.map((r) => {
    const e = estimates.get(r.id);
    return {
      sha: r.sha,
      title: r.title,
      date: r.committedAt?.toISOString() ?? null,
      status: r.status,
      changes: changes
        .filter((c) => c.revisionId === r.id)
        .map((c) => ({
          category: c.category,
          path: c.path,
          kind: c.kind,
          summary: c.summary,
          prompt_changed: c.promptChanged ?? null,
        })),
      estimate: e
        ? { estimator_version: e.estimatorVersion, error: e.error, ...(e.result as object | null) }
        : null,
    };
  });
  const last = page.at(-1);
  return { revisions, next_cursor: rows.length > opts.limit && last ? encodeCursor(last.seq) : null };
}
