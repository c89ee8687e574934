import { isWithdrawn, withdrawOsvRecord } from "../core/osv/withdraw.ts";
import type { Tx } from "../db/types.ts";
import { type Advisory, updateAdvisory } from "../repositories/advisories.repository.ts";
import { listAdvisoriesByRepo } from "../repositories/advisories-read.repository.ts";
import type { Repo } from "../repositories/repos.repository.ts";
import { advisoryKinds, buildAdvisoryRecord, factsOf } from "./advisory-records.ts";
import { baseAdvisoryEvents } from "./peft-base-events.ts";
import { refreshAdvisoriesBadge } from "./repo-badges.ts";
import { recordEvent } from "./webhooks/outbox.ts";

const FORCE_PUSH_WITHDRAWN_REASON = "introducing revision force-pushed away";

export type ForcePushSettlement = {
  withdrawn: string[];
  reopened: string[];
  eventIds: string[];
  /** Subscriptions given deliveries in this transaction. */
  deliverTo: number[];
};

/**
 * What a force-push that removed `goneShas` does to the repo's advisories, in the transaction that
 * flags those revisions: one introduced by a gone revision is withdrawn (OSV `withdrawn`, status
 * closed); a closed one whose fixing revision is gone is reopened (the fix is no longer upstream, so
 * the change is live again; a later revision restoring the baseline closes it as usual). Each gets
 * an `advisory.updated` event; the advisories badge is refreshed. A repeat changes nothing.
 */
export async function settleForcePushedAdvisories(
  tx: Tx,
  repo: Repo,
  goneShas: string[],
  now: Date,
): Promise<ForcePushSettlement> {
  const out: ForcePushSettlement = { withdrawn: [], reopened: [], eventIds: [], deliverTo: [] };
  if (goneShas.length === 0) return out;
  const gone = new Set(goneShas);
  for (const a of await listAdvisoriesByRepo(tx, repo.id)) {
    if (isWithdrawn(a.record)) continue;
    if (gone.has(a.introducedSha)) {
      const record = withdrawOsvRecord(a.record, now, FORCE_PUSH_WITHDRAWN_REASON);
      await updateAdvisory(tx, a.id, { status: "closed", modified: now, record });
      out.withdrawn.push(a.id);
      await emitUpdated(tx, repo, a, record, `withdrawn`, out);
    } else if (a.status === "closed" && a.fixedSha && gone.has(a.fixedSha)) {
      const record = reopenedRecord(repo, a, now);
      await updateAdvisory(tx, a.id, { status: "open", fixedSha: null, modified: now, record });
      out.reopened.push(a.id);
      await emitUpdated(tx, repo, a, record, `reopened fixed@${a.fixedSha}`, out);
    }
  }
  if (out.withdrawn.length + out.reopened.length > 0) await refreshAdvisoriesBadge(tx, repo.id, now);
  return out;
}

function reopenedRecord(repo: Repo, a: Advisory, now: Date): Record<string, unknown> {
  const facts = factsOf(a.record);
  return buildAdvisoryRecord({
    id: a.id,
    repo: repo.name,
    introduced: a.introducedSha,
    parent: facts.parent,
    fixed: null,
    changes: facts.changes,
    baseline: facts.baseline,
    published: a.published,
    modified: now,
  });
}

/** The event id hashes upstream facts only (repo, shas), as for the other advisory events. */
async function emitUpdated(
  tx: Tx,
  repo: Repo,
  a: Advisory,
  record: Record<string, unknown>,
  what: string,
  out: ForcePushSettlement,
): Promise<void> {
  const recorded = await recordEvent(tx, {
    type: "advisory.updated",
    repo,
    subject: `${repo.name}@${a.introducedSha} ${what}`,
    data: { id: a.id, repo: repo.name, reason: what.split(" ")[0], record },
    kinds: advisoryKinds(record),
  });
  if (recorded.created) out.eventIds.push(recorded.eventId);
  out.deliverTo.push(...recorded.subscriptionIds);
  // A PEFT adapter's subscribers hear of its base's advisory too.
  for (const e of await baseAdvisoryEvents(tx, repo, a, what)) {
    const r = await recordEvent(tx, e);
    if (r.created) out.eventIds.push(r.eventId);
    out.deliverTo.push(...r.subscriptionIds);
  }
}
