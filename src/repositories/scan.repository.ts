import { and, eq, inArray, like } from "drizzle-orm";
import { repos, revisions } from "../db/schema/index.ts";
import type { Executor } from "../db/types.ts";

// Reads for `hubwatch scan`: what the store knows about the repos a codebase references.

/** The head each watched repo was last seen at, by name; repos not watched are absent. */
export async function headsByRepoName(ex: Executor, names: string[]): Promise<Map<string, string | null>> {
  if (names.length === 0) return new Map();
  const rows = await ex
    .select({ name: repos.name, head: repos.lastSeenSha })
    .from(repos)
    .where(inArray(repos.name, names));
  return new Map(rows.map((r) => [r.name, r.head]));
}

/** Full shas of a repo's recorded revisions that start with `prefix` (lower-case hex). */
export async function shasWithPrefix(ex: Executor, name: string, prefix: string): Promise<string[]> {
  const rows = await ex
    .select({ sha: revisions.sha })
    .from(revisions)
    .innerJoin(repos, eq(repos.id, revisions.repoId))
    .where(and(eq(repos.name, name), like(revisions.sha, `${prefix.toLowerCase()}%`)));
  return rows.map((r) => r.sha);
}
