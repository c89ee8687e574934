import { compareEstimates, estimateState } from "../core/advise/compare.ts";
import type { Estimate as AdviseEstimate } from "../core/advise/types.ts";
import { buildBadges } from "../core/badge/build.ts";
import type { Estimate } from "../core/estimator/estimate.ts";
import { upsertBadges } from "../repositories/badges.repository.ts";
import { listRevisionChanges } from "../repositories/changes.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import { markRevisionDone, type Revision } from "../repositories/revisions.repository.ts";
import { withTransaction } from "../repositories/transaction.ts";
import { adviseAdvisories } from "./advisory-actions.ts";
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
 * done. A handful of statements whatever the repo's history: two reads before the transaction (the
 * previous comparable estimate, the revision's recorded changes), then the advisories open before it
 * with the open count, two statements per advisory opened (its id, its row) and one per advisory
 * closed or updated, all badges in one, the events with their deliveries in two, and the revision's
 * status (docs/BENCHMARKS.md, "Statements per revision").
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
      const state = { ...estimateState(estimate as AdviseEstimate), ...behavior.state };
      const openCount = await adviseAdvisories(
        tx,
        repo,
        revision,
        { changes, parent, state },
        now,
        outcome,
        events,
      );
      await upsertBadges(tx, repo.id, badgesFor(estimate, openCount), now);
    }
    const processed = {
      repo: repo.name,
      sha: revision.sha,
      parent,
      params_total: estimate?.params.total ?? null,
    };
    events.push({
      type: "revision.processed",
      repo,
      subject: `${repo.name}@${revision.sha}`,
      data: processed,
    });
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

function badgesFor(estimate: Estimate, openAdvisories: number) {
  return buildBadges({
    params_total: estimate.params.total,
    params_active: estimate.params.active ?? null,
    fit: estimate.fit,
    tied_embedding_stored_twice: estimate.checkpoint?.tied_embedding_stored_twice ?? null,
    open_advisories: openAdvisories,
  });
}
