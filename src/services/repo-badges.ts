import { buildBadges } from "../core/badge/build.ts";
import type { Tx } from "../db/types.ts";
import { listOpenAdvisories } from "../repositories/advisories.repository.ts";
import { upsertBadge } from "../repositories/badges.repository.ts";

/**
 * Rewrites a repo's "advisories" badge from its open advisories, for changes made outside advising
 * a revision (whose transaction rewrites every badge). Unchanged JSON keeps its etag.
 */
export async function refreshAdvisoriesBadge(tx: Tx, repoId: number, now: Date): Promise<void> {
  const open = (await listOpenAdvisories(tx, repoId)).length;
  const { advisories } = buildBadges({ open_advisories: open });
  if (advisories) await upsertBadge(tx, repoId, "advisories", advisories, now);
}
