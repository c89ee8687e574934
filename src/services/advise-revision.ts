import { compareEstimates, estimateState } from "../core/advise/compare.ts";
import {
  type AdvisoryAction,
  applyDrift,
  type OpenAction,
  planAdvisory,
  type UpdateAction,
} from "../core/advise/plan.ts";
import type { Estimate as AdviseEstimate } from "../core/advise/types.ts";
import { buildBadges } from "../core/badge/build.ts";
import type { Estimate } from "../core/estimator/estimate.ts";
import type { Tx } from "../db/types.ts";
import {
  closeAdvisory,
  getAdvisory,
  listAdvisoriesByRepo,
  listOpenAdvisories,
  openAdvisory,
  updateAdvisory,
} from "../repositories/advisories.repository.ts";
import { upsertBadge } from "../repositories/badges.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import {
  listRevisionsByRepo,
  markRevisionDone,
  type Revision,
} from "../repositories/revisions.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import { advisoryKinds, buildAdvisoryRecord, factsOf } from "./advisory-records.ts";
import { previousEstimate } from "./base-estimate.ts";
import { behaviorAdvisoryChanges } from "./behavior-advice.ts";
import type { PipelineServices } from "./deps.ts";
import { baseChangedEvents } from "./peft-base-events.ts";
import { revisionChangedEvent } from "./revision-event.ts";
import { type OutboxEvent, recordEvent } from "./webhooks/outbox.ts";

type AdviseOutcome = { opened: string[]; closed: string[]; eventIds: string[]; deliverTo: number[] };

/**
 * Compares a revision's estimate with the previous one (same estimator version, so only upstream
 * changes count), opens or closes advisories as planned by the core, refreshes the repo's badges,
 * records webhook events and marks the revision done: all in one transaction, so a crash leaves the
 * revision pending. A revision without an estimate (no config.json) only gets marked done.
 */
export async function adviseRevision(
  s: PipelineServices,
  repo: Repo,
  revision: Revision,
  estimate: Estimate | null,
): Promise<AdviseOutcome> {
  const before = estimate ? await previousEstimate(s, revision) : null;
  const behavior = await behaviorAdvisoryChanges(s, revision);
  const estimateChanges =
    before && estimate
      ? compareEstimates(before.estimate as AdviseEstimate, estimate as AdviseEstimate).changes
      : [];
  const changes = [...estimateChanges, ...behavior.changes];
  const parent = before?.revision.sha ?? null;
  const changed = await revisionChangedEvent(s, repo, revision, parent, estimateChanges);
  const now = s.now();
  return withTransaction(s.db, async (tx) => {
    const outcome: AdviseOutcome = { opened: [], closed: [], eventIds: [], deliverTo: [] };
    if (estimate) {
      // The advisories open just before this revision: introduced earlier, not fixed earlier. So that
      // reprocessing an old revision plans exactly what the first run planned.
      const seqs = new Map((await listRevisionsByRepo(tx, repo.id)).map((r) => [r.sha, r.seq]));
      const seq = (sha: string | null) =>
        sha === null ? Number.POSITIVE_INFINITY : (seqs.get(sha) ?? Number.POSITIVE_INFINITY);
      const open = (await listAdvisoriesByRepo(tx, repo.id))
        .filter((a) => seq(a.introducedSha) < revision.seq && seq(a.fixedSha) >= revision.seq)
        .map((a) => ({ id: a.id, introduced: a.introducedSha, baseline: factsOf(a.record).baseline }));
      const state = { ...estimateState(estimate as AdviseEstimate), ...behavior.state };
      const { actions } = planAdvisory({ open, changes, revision: revision.sha, parent, state });
      for (const action of actions) await apply(tx, repo, action, now, outcome);
      const openCount = (await listOpenAdvisories(tx, repo.id)).length;
      for (const [metric, json] of Object.entries(badgesFor(estimate, openCount))) {
        await upsertBadge(tx, repo.id, metric, json, now);
      }
    }
    const processed = {
      repo: repo.name,
      sha: revision.sha,
      parent,
      params_total: estimate?.params.total ?? null,
    };
    await emit(tx, outcome, {
      type: "revision.processed",
      repo,
      subject: `${repo.name}@${revision.sha}`,
      data: processed,
    });
    if (changed) await emit(tx, outcome, changed);
    // A PEFT adapter's subscribers hear of its base's changes too.
    for (const e of await baseChangedEvents(tx, s, repo, revision, changed, outcome))
      await emit(tx, outcome, e);
    await markRevisionDone(tx, revision.id, now);
    return outcome;
  });
}

async function apply(
  tx: Tx,
  repo: Repo,
  action: AdvisoryAction,
  now: Date,
  out: AdviseOutcome,
): Promise<void> {
  if (action.type === "open") {
    const { advisory, created } = await openAdvisory(tx, {
      repoId: repo.id,
      introducedSha: action.introduced,
      published: now,
      modified: now,
      record: (id) => recordFor(id, repo.name, action, null, now, now),
    });
    if (!created) return;
    out.opened.push(advisory.id);
    await emit(tx, out, {
      type: "advisory.opened",
      repo,
      subject: `${repo.name}@${advisory.introducedSha}`,
      data: { id: advisory.id, repo: repo.name, record: advisory.record },
      kinds: advisoryKinds(advisory.record),
    });
    return;
  }
  if (action.type === "update") return update(tx, repo, action, now, out);
  const existing = await getAdvisory(tx, action.id);
  if (!existing || existing.status === "closed") return;
  const facts = factsOf(existing.record);
  const open: OpenAction = {
    type: "open",
    introduced: existing.introducedSha,
    parent: facts.parent,
    changes: facts.changes,
    baseline: facts.baseline,
  };
  const record = recordFor(existing.id, repo.name, open, action.fixed, existing.published, now);
  await closeAdvisory(tx, existing.id, { fixedSha: action.fixed, modified: now, record });
  out.closed.push(existing.id);
  const subject = `${repo.name}@${existing.introducedSha} fixed@${action.fixed}`;
  const data = { id: existing.id, repo: repo.name, record };
  await emit(tx, out, { type: "advisory.closed", repo, subject, data, kinds: advisoryKinds(record) });
}

/** Drift: the open advisory's record shows the new values, a new `modified`, and an advisory.updated event. */
async function update(
  tx: Tx,
  repo: Repo,
  action: UpdateAction,
  now: Date,
  out: AdviseOutcome,
): Promise<void> {
  const existing = await getAdvisory(tx, action.id);
  if (!existing || existing.status === "closed") return;
  const facts = factsOf(existing.record);
  const changes = applyDrift(facts.changes, action.changes);
  if (JSON.stringify(changes) === JSON.stringify(facts.changes)) return; // reprocessed: nothing new
  const open: OpenAction = {
    type: "open",
    introduced: existing.introducedSha,
    parent: facts.parent,
    changes,
    baseline: facts.baseline,
  };
  const record = recordFor(existing.id, repo.name, open, null, existing.published, now);
  await updateAdvisory(tx, existing.id, { modified: now, record });
  await emit(tx, out, {
    type: "advisory.updated",
    repo,
    subject: `${repo.name}@${existing.introducedSha} drift@${action.revision}`,
    data: { id: existing.id, repo: repo.name, reason: "drift", revision: action.revision, record },
    kinds: advisoryKinds(record),
  });
}

function recordFor(
  id: string,
  repo: string,
  a: OpenAction,
  fixed: string | null,
  published: Date,
  modified: Date,
) {
  return buildAdvisoryRecord({
    id,
    repo,
    introduced: a.introduced,
    parent: a.parent,
    fixed,
    changes: a.changes,
    baseline: a.baseline,
    published,
    modified,
  });
}

function badgesFor(estimate: Estimate, openAdvisories: number) {
  return buildBadges({
    params_total: estimate.params.total,
    params_active: estimate.params.active ?? null,
    fit: estimate.fit,
    tied_embedding_stored_twice: estimate.checkpoint?.tied_embedding_stored_twice ?? null,
    open_advisories: openAdvisories,
  });
}

/**
 * Records an event and its deliveries in the advise transaction (the outbox). Event ids hash the type
 * and a subject made of upstream facts (repo, shas), never of our numbering.
 */
async function emit(tx: Tx, out: AdviseOutcome, event: OutboxEvent): Promise<void> {
  const recorded = await recordEvent(tx, event);
  if (recorded.created) out.eventIds.push(recorded.eventId);
  out.deliverTo.push(...recorded.subscriptionIds);
}
