import {
  type AdvisoryAction,
  applyDrift,
  type OpenAction,
  planAdvisory,
  type UpdateAction,
} from "../core/advise/plan.ts";
import type { Tx } from "../db/types.ts";
import { closeAdvisory, openAdvisory, updateAdvisory } from "../repositories/advisories.repository.ts";
import { type AdvisoryRow, advisoriesOpenBefore } from "../repositories/advisories-read.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import type { Revision } from "../repositories/revisions.repository.ts";
import { advisoryKinds, buildAdvisoryRecord, factsOf } from "./advisory-records.ts";
import type { OutboxEvent } from "./webhooks/outbox.ts";

/** The advisories an advise opened and closed. */
type Applied = { opened: string[]; closed: string[] };

/**
 * Plans and applies what the revision does to the repo's advisories, adding their events to `events`;
 * returns how many are open afterwards. The plan starts from the advisories open just before this
 * revision (introduced earlier, not fixed earlier), so reprocessing an old revision plans exactly what
 * the first run planned.
 */
export async function adviseAdvisories(
  tx: Tx,
  repo: Repo,
  revision: Revision,
  plan: Pick<Parameters<typeof planAdvisory>[0], "changes" | "parent" | "state">,
  now: Date,
  outcome: Applied,
  events: OutboxEvent[],
): Promise<number> {
  const { open, openNow } = await advisoriesOpenBefore(tx, repo.id, revision.seq);
  const byId = new Map(open.map((a) => [a.id, a]));
  const planned = open.map((a) => ({
    id: a.id,
    introduced: a.introducedSha,
    baseline: factsOf(a.record).baseline,
  }));
  const { actions } = planAdvisory({ ...plan, open: planned, revision: revision.sha });
  for (const action of actions) {
    const event = await apply(tx, repo, action, byId, now, outcome);
    if (event) events.push(event);
  }
  // Only this transaction's actions changed the open count since it was read.
  return openNow + outcome.opened.length - outcome.closed.length;
}

/** Applies one planned action; returns the event it makes (none when it changed nothing). */
async function apply(
  tx: Tx,
  repo: Repo,
  action: AdvisoryAction,
  open: Map<string, AdvisoryRow>,
  now: Date,
  out: Applied,
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
