import { z } from "zod";
import type { Db } from "../../db/types.ts";
import { recentAdvisories } from "../../repositories/advisories-feed.repository.ts";
import { recentBehaviorChanges } from "../../repositories/behavior-changes.repository.ts";
import { recentChanges } from "../../repositories/changes.repository.ts";

/** What the index page can filter its recent list by: a file category, behaviour changes, advisories. */
export const RECENT_KINDS = [
  "all",
  "config",
  "generation_config",
  "tokenizer",
  "chat_template",
  "weights",
  "behavior",
  "advisory",
] as const;
export const RecentKind = z.enum(RECENT_KINDS);
export type RecentKind = z.infer<typeof RecentKind>;

const LIMIT = 50;

/** The newest changes, behaviour changes and advisories across all watched repos, for one kind. */
export async function loadRecent(db: Db, kind: RecentKind) {
  const fileCategory = kind === "all" || kind === "behavior" || kind === "advisory" ? undefined : kind;
  const [changes, behavior, advisories] = await Promise.all([
    kind === "all" || fileCategory ? recentChanges(db, LIMIT, fileCategory) : [],
    kind === "all" || kind === "behavior" ? recentBehaviorChanges(db, LIMIT) : [],
    kind === "all" || kind === "advisory" ? recentAdvisories(db, LIMIT) : [],
  ]);
  return { kind, changes, behavior, advisories };
}
export type RecentData = Awaited<ReturnType<typeof loadRecent>>;
