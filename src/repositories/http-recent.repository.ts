import { and, desc, eq, sql } from "drizzle-orm";
import type { ChangeCategory } from "../db/schema/changes.ts";
import { advisories, behaviorChanges, changes, repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// What changed recently across every watched repo, for the index page: newest first, bounded.

const revisionTime = sql`coalesce(${revisions.committedAt}, ${revisions.processedAt})`;

/** The newest file changes (optionally of one category), with their repo and revision. */
export async function recentChanges(db: Executor, limit: number, category?: ChangeCategory) {
  return db
    .select({
      repo: repos.name,
      sha: revisions.sha,
      title: revisions.title,
      at: revisions.committedAt,
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

/** The newest behaviour changes (prompt, EOS, ...), with their repo and revision. */
export async function recentBehaviorChanges(db: Executor, limit: number) {
  return db
    .select({
      repo: repos.name,
      sha: revisions.sha,
      title: revisions.title,
      at: revisions.committedAt,
      kind: behaviorChanges.kind,
      summary: behaviorChanges.summary,
    })
    .from(behaviorChanges)
    .innerJoin(revisions, eq(revisions.id, behaviorChanges.revisionId))
    .innerJoin(repos, eq(repos.id, revisions.repoId))
    .orderBy(desc(revisionTime), desc(revisions.id))
    .limit(limit);
}

/** The most recently modified advisories, with their repo; `status` says whether still open. */
export async function recentAdvisories(db: Executor, limit: number, status?: "open" | "closed") {
  return db
    .select({
      id: advisories.id,
      repo: repos.name,
      status: advisories.status,
      published: advisories.published,
      modified: advisories.modified,
      introducedSha: advisories.introducedSha,
      fixedSha: advisories.fixedSha,
      summary: sql<string>`${advisories.record}->>'summary'`,
    })
    .from(advisories)
    .innerJoin(repos, eq(repos.id, advisories.repoId))
    .where(status ? and(eq(advisories.status, status)) : undefined)
    .orderBy(desc(advisories.modified), desc(advisories.id))
    .limit(limit);
}
