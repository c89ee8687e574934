import { buildBadges } from "../core/badge/build.ts";
import type { Tx } from "../db/types.ts";
import { countOpenAdvisories } from "../repositories/advisories-read.repository.ts";
import { upsertBadges } from "../repositories/badges.repository.ts";

/**
 * Rewrites a repo's "advisories" badge from its open advisories, for changes made outside advising
 * a revision (whose transaction rewrites every badge). Unchanged JSON keeps its etag.
 */
export async function refreshAdvisoriesBadge(tx: Tx, repoId: number, now: Date): Promise<void> {
  const { advisories } = buildBadges({ open_advisories: await countOpenAdvisories(tx, repoId) });
  if (advisories) await upsertBadges(tx, repoId, { advisories }, now);
}
