import type { Db } from "../../db/types.ts";
import { listBehaviorChangesByRevision } from "../../repositories/behavior-changes.repository.ts";
import {
  changeSummaries,
  changesWithDetail,
  findRevision,
  latestEstimates,
  listReposOverview,
  listRevisions,
  previousEstimatedRevision,
  previousRevision,
  weightMetadata,
} from "../../repositories/http-pages.repository.ts";
import {
  findRepoByName,
  listAdvisoriesForRepo,
  listBadgeMetrics,
} from "../../repositories/http-read.repository.ts";

// Loads what the revision-history pages show; null when the repo or revision is unknown.

export function loadIndex(db: Db) {
  return listReposOverview(db);
}

export async function loadRepoHistory(db: Db, name: string) {
  const repo = await findRepoByName(db, name);
  if (!repo) return null;
  const revisions = await listRevisions(db, repo.id);
  const ids = revisions.map((r) => r.id);
  const [changes, estimates, advisories, badgeMetrics] = await Promise.all([
    changeSummaries(db, ids),
    latestEstimates(db, ids),
    listAdvisoriesForRepo(db, repo.id),
    listBadgeMetrics(db, repo.id),
  ]);
  return { repo, revisions, changes, estimates, advisories: advisories.reverse(), badgeMetrics };
}

export async function loadRevision(db: Db, name: string, sha: string) {
  const repo = await findRepoByName(db, name);
  if (!repo) return null;
  const revision = await findRevision(db, repo.id, sha);
  if (!revision) return null;
  const [previous, compared] = await Promise.all([
    previousRevision(db, repo.id, revision.seq),
    previousEstimatedRevision(db, repo.id, revision.seq),
  ]);
  const [changes, behavior, estimates] = await Promise.all([
    changesWithDetail(db, revision.id),
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
