import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { BehaviorChange } from "../core/diff/behavior.ts";
import type { ChangeDetail } from "../core/diff/change-detail.ts";
import type { ChangeCategory } from "../db/schema/changes.ts";
import { changes, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";
import { adapterLinksOf, type LinkedAdapter } from "./adapter-bases.repository.ts";
import { queryRows } from "./raw.ts";
import { revisionRefColumns, revisionTime } from "./revisions-read.repository.ts";
import { atomically } from "./transaction.ts";

export type Change = typeof changes.$inferSelect;
export type NewChange = Omit<Change, "id" | "revisionId" | "detail" | "promptChanged"> & {
  detail?: ChangeDetail | null;
  promptChanged?: boolean | null;
};

/** Upserts changes of a revision on (revisionId, path, category); returns the stored rows. */
export async function upsertChanges(ex: Executor, revisionId: number, list: NewChange[]): Promise<Change[]> {
  if (list.length === 0) return [];
  const rows = list.map((c) => ({
    revisionId,
    path: c.path,
    kind: c.kind,
    category: c.category,
    summary: c.summary,
    detail: c.detail ?? null,
    promptChanged: c.promptChanged ?? null,
  }));
  return ex
    .insert(changes)
    .values(rows)
    .onConflictDoUpdate({
      target: [changes.revisionId, changes.path, changes.category],
      set: {
        kind: sql`excluded.kind`,
        summary: sql`excluded.summary`,
        detail: sql`excluded.detail`,
        promptChanged: sql`excluded.prompt_changed`,
      },
    })
    .returning();
}

/** Makes the revision's changes exactly `list` (reprocessing may find fewer): others are deleted. */
export function replaceChanges(ex: Executor, revisionId: number, list: NewChange[]): Promise<Change[]> {
  return atomically(ex, async (tx) => {
    const keys = list.map((c) => sql`(${c.category}, ${c.path})`);
    await tx
      .delete(changes)
      .where(
        and(
          eq(changes.revisionId, revisionId),
          keys.length > 0
            ? sql`(${changes.category}, ${changes.path}) not in (${sql.join(keys, sql`, `)})`
            : undefined,
        ),
      );
    return upsertChanges(tx, revisionId, list);
  });
}

/**
 * Changes of a revision, ordered by path then category, or (`byCategory`) by category then path as the
 * revision page shows them.
 */
export function listChangesByRevision(
  ex: Executor,
  revisionId: number,
  order: "byPath" | "byCategory" = "byPath",
): Promise<Change[]> {
  return ex
    .select()
    .from(changes)
    .where(eq(changes.revisionId, revisionId))
    .orderBy(
      ...(order === "byPath"
        ? [asc(changes.path), asc(changes.category)]
        : [asc(changes.category), asc(changes.path)]),
    );
}

/** Change summaries (no detail) for many revisions, for the timeline. */
export async function changeSummaries(db: Executor, revisionIds: number[]) {
  if (revisionIds.length === 0) return [];
  return db
    .select({
      revisionId: changes.revisionId,
      path: changes.path,
      kind: changes.kind,
      category: changes.category,
      summary: changes.summary,
      promptChanged: changes.promptChanged,
    })
    .from(changes)
    .where(inArray(changes.revisionId, revisionIds))
    .orderBy(asc(changes.category), asc(changes.path));
}

/** The newest file changes (optionally of one category), with their repo and revision. */
export async function recentChanges(db: Executor, limit: number, category?: ChangeCategory) {
  return db
    .select({
      ...revisionRefColumns,
      path: changes.path,
      category: changes.category,
      summary: changes.summary,
      promptChanged: changes.promptChanged,
    })
    .from(changes)
    .innerJoin(revisions, eq(revisions.id, changes.revisionId))
    .innerJoin(repos, eq(repos.id, revisions.repoId))
    .where(category ? eq(changes.category, category) : undefined)
    .orderBy(desc(revisionTime), desc(revisions.id), changes.path)
    .limit(limit);
}

type FileChangeSummary = Pick<Change, "path" | "category" | "kind" | "summary">;

type Row =
  | (FileChangeSummary & { source: "file" })
  | (Pick<BehaviorChange, "kind" | "summary" | "detail"> & { source: "behavior" })
  | { source: "adapter"; path: string; summary: string; detail: { id: number; committed_at: string | null } };

/**
 * What a processed revision announces, in one query: its file changes (ordered by path then category, as
 * listChangesByRevision), its behaviour changes (ordered by kind), and the PEFT adapter repos that name
 * its repo as their base (by name, case-insensitively, as the Hub compares names), who hear of it too.
 */
export async function listRevisionChanges(
  ex: Executor,
  revisionId: number,
  repoName: string,
): Promise<{ files: FileChangeSummary[]; behavior: BehaviorChange[]; adapters: LinkedAdapter[] }> {
  const rows = await queryRows<Row>(
    ex,
    sql`select 'file' as source, path, category, kind, summary, null::jsonb as detail
      from changes where revision_id = ${revisionId}
      union all
      select 'behavior', null, null, kind, summary, detail
      from behavior_changes where revision_id = ${revisionId}
      union all
      select 'adapter', l.name, null, null, l.sha, jsonb_build_object('id', l.id, 'committed_at', l.committed_at)
      from (${adapterLinksOf(repoName)}) l
      order by source, path, category, kind`,
  );
  const out = {
    files: [] as FileChangeSummary[],
    behavior: [] as BehaviorChange[],
    adapters: [] as LinkedAdapter[],
  };
  for (const row of rows) {
    if (row.source === "file")
      out.files.push({ path: row.path, category: row.category, kind: row.kind, summary: row.summary });
    else if (row.source === "behavior")
      out.behavior.push({ kind: row.kind, summary: row.summary, detail: row.detail });
    else out.adapters.push(linkedAdapter(row));
  }
  return out;
}

function linkedAdapter(row: Extract<Row, { source: "adapter" }>): LinkedAdapter {
  const at = row.detail.committed_at;
  return {
    repo: { id: row.detail.id, name: row.path },
    sha: row.summary,
    committedAt: at === null ? null : new Date(at),
  };
}
