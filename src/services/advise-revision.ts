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
  type AdvisoryRow,
  advisoriesOpenBefore,
  closeAdvisory,
  openAdvisory,
  updateAdvisory,
} from "../repositories/advisories.repository.ts";
import { upsertBadges } from "../repositories/badges.repository.ts";
import { listRevisionChanges } from "../repositories/changes.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import { markRevisionDone, type Revision } from "../repositories/revisions.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import { advisoryKinds, buildAdvisoryRecord, factsOf } from "./advisory-records.ts";
import { previousEstimate } from "./base-estimate.ts";
import { behaviorAdvisoryChanges } from "./behavior-advice.ts";
import type { PipelineServices } from "./deps.ts";
import { baseChangedEvents } from "./peft-base-events.ts";
import { revisionChangedEvent } from "./revision-event.ts";
import { type OutboxEvent, recordEvents } from "./webhooks/outbox.ts";

type AdviseOutcome = { opened: string[]; closed: string[]; eventIds: string[]; deliverTo: number[] };

/**
 * Compares a revision's estimate with the previous one (same estimator version, so only upstream
 * changes count), opens or closes advisories as planned by the core, refreshes the repo's badges,
 * records webhook events and marks the revision done: all in one transaction, so a crash leaves the
 * revision pending. A revision without an estimate (no config.json) only gets its events and is marked
 * done. A handful of statements whatever the repo's history: two reads before the transaction, then
 * the advisories open before it (with the open count), one statement per advisory opened, closed or
 * updated, all badges in one, the events with their deliveries in two, and the revision's status.
 */
export async function adviseRevision(
  s: PipelineServices,
  repo: Repo,
  revision: Revision,
  estimate: Estimate | null,
): Promise<AdviseOutcome> {
  const [before, recorded] = await Promise.all([
    estimate ? previousEstimate(s, revision) : null,
    listRevisionChanges(s.db, revision.id, repo.name),
  ]);
  const behavior = behaviorAdvisoryChanges(s, recorded.behavior);
  const estimateChanges =
    before && estimate
      ? compareEstimates(before.estimate as AdviseEstimate, estimate as AdviseEstimate).changes
      : [];
  const changes = [...estimateChanges, ...behavior.changes];
  const parent = before?.sha ?? null;
  const changed = revisionChangedEvent(s, repo, revision, parent, recorded, estimateChanges);
  const now = s.now();
  return withTransaction(s.db, async (tx) => {
    const outcome: AdviseOutcome = { opened: [], closed: [], eventIds: [], deliverTo: [] };
    const events: OutboxEvent[] = [];
    if (estimate) {
      // The advisories open just before this revision: introduced earlier, not fixed earlier. So that
      // reprocessing an old revision plans exactly what the first run planned.
      const { open, openNow } = await advisoriesOpenBefore(tx, repo.id, revision.seq);
      const byId = new Map(open.map((a) => [a.id, a]));
      const plannable = open.map((a) => ({
        id: a.id,
        introduced: a.introducedSha,
        baseline: factsOf(a.record).baseline,
      }));
      const state = { ...estimateState(estimate as AdviseEstimate), ...behavior.state };
      const { actions } = planAdvisory({ open: plannable, changes, revision: revision.sha, parent, state });
      for (const action of actions) {
        const event = await apply(tx, repo, action, byId, now, outcome);
        if (event) events.push(event);
      }
      // Only this transaction's actions changed the open count since it was read.
      const openCount = openNow + outcome.opened.length - outcome.closed.length;
      await upsertBadges(tx, repo.id, badgesFor(estimate, openCount), now);
    }
    const processed = {
      repo: repo.name,
      sha: revision.sha,
      parent,
      params_total: estimate?.params.total ?? null,
    };
    const subject = `${repo.name}@${revision.sha}`;
    events.push({ type: "revision.processed", repo, subject, data: processed });
    if (changed) events.push(changed);
    // A PEFT adapter's subscribers hear of its base's changes too.
    events.push(...baseChangedEvents(s, recorded.adapters, repo, revision, changed, outcome));
    for (const r of await recordEvents(tx, events)) {
      outcome.eventIds.push(r.eventId);
      outcome.deliverTo.push(...r.subscriptionIds);
    }
    await markRevisionDone(tx, revision.id, now);
    return outcome;
  });
}

/** Applies one planned action; returns the event it makes (none when it changed nothing). */
async function apply(
  tx: Tx,
  repo: Repo,
  action: AdvisoryAction,
  open: Map<string, AdvisoryRow>,
  now: Date,
  out: AdviseOutcome,
): Promise<OutboxEvent | null> {
  if (action.type === "open") {
    const { advisory, created } = await openAdvisory(tx, {
      repoId: repo.id,
      introducedSha: action.introduced,
      published: now,
      modified: now,
      record: (id) => recordFor(id, repo.name, action, null, now, now),
    });
    if (!created) return null;
    out.opened.push(advisory.id);
    return {
      type: "advisory.opened",
      repo,
      subject: `${repo.name}@${advisory.introducedSha}`,
      data: { id: advisory.id, repo: repo.name, record: advisory.record },
      kinds: advisoryKinds(advisory.record),
    };
  }
  const existing = open.get(action.id);
  if (!existing || existing.status === "closed") return null;
  if (action.type === "update") return update(tx, repo, action, existing, now);
  const facts = factsOf(existing.record);
  const reopened: OpenAction = {
    type: "open",
    introduced: existing.introducedSha,
    parent: facts.parent,
    changes: facts.changes,
    baseline: facts.baseline,
  };
  const record = recordFor(existing.id, repo.name, reopened, action.fixed, existing.published, now);
  await closeAdvisory(tx, existing.id, { fixedSha: action.fixed, modified: now, record });
  out.closed.push(existing.id);
  const subject = `${repo.name}@${existing.introducedSha} fixed@${action.fixed}`;
  const data = { id: existing.id, repo: repo.name, record };
  return { type: "advisory.closed", repo, subject, data, kinds: advisoryKinds(record) };
}

/** Drift: the open advisory's record shows the new values, a new `modified`, and an advisory.updated event. */
async function update(
  tx: Tx,
  repo: Repo,
  action: UpdateAction,
  existing: AdvisoryRow,
  now: Date,
): Promise<OutboxEvent | null> {
  const facts = factsOf(existing.record);
  const changes = applyDrift(facts.changes, action.changes);
  if (JSON.stringify(changes) === JSON.stringify(facts.changes)) return null; // reprocessed: nothing new
  const open: OpenAction = {
    type: "open",
    introduced: existing.introducedSha,
    parent: facts.parent,
    changes,
    baseline: facts.baseline,
  };
  const record = recordFor(existing.id, repo.name, open, null, existing.published, now);
  await updateAdvisory(tx, existing.id, { modified: now, record });
  return {
    type: "advisory.updated",
    repo,
    subject: `${repo.name}@${existing.introducedSha} drift@${action.revision}`,
    data: { id: existing.id, repo: repo.name, reason: "drift", revision: action.revision, record },
    kinds: advisoryKinds(record),
  };
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
