import type { Db } from "../../db/types.ts";
import { listAdvisoriesByRepo } from "../../repositories/advisories-read.repository.ts";
import { listBadges } from "../../repositories/badges.repository.ts";
import { listBehaviorChangesByRevision } from "../../repositories/behavior-changes.repository.ts";
import { changeSummaries, listChangesByRevision } from "../../repositories/changes.repository.ts";
import { latestEstimates } from "../../repositories/estimates.repository.ts";
import { getRepoByName, listReposOverview } from "../../repositories/repos.repository.ts";
import { weightMetadata } from "../../repositories/revision-files.repository.ts";
import {
  getRevisionBySha,
  listRevisionsByRepo,
  previousEstimatedRevision,
  previousRevision,
} from "../../repositories/revisions-read.repository.ts";

// Loads what the revision-history pages show; null when the repo or revision is unknown.

export function loadIndex(db: Db) {
  return listReposOverview(db);
}

/** Revisions per history page; the page's charts cover at most CHART_REVISIONS newest revisions. */
export const HISTORY_PAGE_SIZE = 30;
const CHART_REVISIONS = 500;

/**
 * One page of a repo's history, newest first: `before` (a sha) starts the page below that revision, keyset
 * on the revision order, so a page stays the same while new revisions arrive. The first page also carries
 * the charts, advisories and badges. `{ missing }` names what is unknown: the repo, or the `before` revision.
 */
export async function loadRepoHistory(db: Db, name: string, before?: string) {
  const repo = await getRepoByName(db, name);
  if (!repo) return { missing: "repo" as const };
  const from = before === undefined ? null : await getRevisionBySha(db, repo.id, before);
  if (before !== undefined && !from) return { missing: "revision" as const };
  // The first page reads the charts' revisions once and lists the newest of them.
  const rows = await listRevisionsByRepo(db, repo.id, {
    newestFirst: true,
    includeForcePushedAway: true,
    limit: from ? HISTORY_PAGE_SIZE + 1 : Math.max(CHART_REVISIONS, HISTORY_PAGE_SIZE + 1),
    ...(from ? { beforeSeq: from.seq } : {}),
  });
  const revisions = rows.slice(0, HISTORY_PAGE_SIZE);
  const more = rows.length > HISTORY_PAGE_SIZE;
  const oldest = revisions.at(-1);
  const chartRows = from ? [] : rows.slice(0, CHART_REVISIONS);
  // The oldest revision on the page compares with the nearest earlier estimated one, wherever it is.
  const tail = more && oldest ? await previousEstimatedRevision(db, repo.id, oldest.seq) : null;
  const ids = new Set([...revisions, ...chartRows].map((r) => r.id));
  if (tail) ids.add(tail.id);
  const [changes, estimates, advisories, badgeMetrics] = await Promise.all([
    changeSummaries(
      db,
      revisions.map((r) => r.id),
    ),
    latestEstimates(db, [...ids]),
    listAdvisoriesByRepo(db, repo.id),
    listBadges(db, repo.id).then((rows) => rows.map((b) => b.metric).sort()),
  ]);
  return {
    missing: null,
    repo,
    revisions,
    tail,
    next: more && oldest ? oldest.sha : null,
    changes,
    estimates,
    charted: from ? null : { revisions: chartRows, estimates },
    advisories: advisories.reverse(),
    badgeMetrics,
  };
}

export async function loadRevision(db: Db, name: string, sha: string) {
  const repo = await getRepoByName(db, name);
  if (!repo) return null;
  const revision = await getRevisionBySha(db, repo.id, sha);
  if (!revision) return null;
  const [previous, compared] = await Promise.all([
    previousRevision(db, repo.id, revision.seq),
    previousEstimatedRevision(db, repo.id, revision.seq),
  ]);
  const [changes, behavior, estimates] = await Promise.all([
    listChangesByRevision(db, revision.id, "byCategory"),
    listBehaviorChangesByRevision(db, revision.id),
    latestEstimates(db, compared ? [revision.id, compared.id] : [revision.id]),
  ]);
  const weightsChanged = changes.some((c) => c.category === "weights");
  return {
    repoName: repo.name,
    repoStatus: repo.status,
    revision,
    previous,
    changes,
    behavior,
    weightMetadata: weightsChanged ? await loadWeightMetadata(db, revision.id, previous?.id) : null,
    estimate: estimates.get(revision.id),
    comparedWith: compared,
    previousEstimate: compared ? estimates.get(compared.id) : undefined,
  };
}

/** Safetensors header metadata of both sides of a weights change, per shard path. */
async function loadWeightMetadata(db: Db, revisionId: number, previousId: number | undefined) {
  const [before, after] = await Promise.all([
    previousId === undefined ? [] : weightMetadata(db, previousId),
    weightMetadata(db, revisionId),
  ]);
  return { before, after };
}
