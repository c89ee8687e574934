import type { WebhookEventType } from "../../db/schema/index.ts";
import { repoNameById } from "../../repositories/http-read.repository.ts";
import { insertDelivery } from "../../repositories/webhook-deliveries.repository.ts";
import {
  getEvent,
  insertEvent,
  listSubscriptions,
  makeEventId,
} from "../../repositories/webhooks.repository.ts";
import { DELIVER_JOB, deliverJobId, type WebhookDeps } from "./types.ts";

export type EmitInput = {
  type: WebhookEventType;
  repoId: number | null;
  /** What makes this event unique (e.g. advisory id + modified, revision sha): re-emitting is a no-op. */
  subject: string;
  data: Record<string, unknown>;
  now?: Date;
};

/** A subscription's repo filter: null = every repo, "owner/*" = an owner's repos, else an exact name. */
export function repoFilterMatches(filter: string | null, repoName: string | null): boolean {
  if (!filter || filter === "*") return true;
  if (!repoName) return false;
  if (filter.endsWith("/*")) return repoName.startsWith(filter.slice(0, -1));
  return filter === repoName;
}

/** Records an event (idempotent by its id) and fans it out. */
export async function emitWebhookEvent(deps: WebhookDeps, input: EmitInput) {
  // Deterministic, and the Standard Webhooks `webhook-id` (constant across retries).
  const id = makeEventId(input.type, input.subject);
  const payload = { type: input.type, timestamp: (input.now ?? new Date()).toISOString(), data: input.data };
  await insertEvent(deps.db, { id, type: input.type, repoId: input.repoId, payload });
  return fanOutEvent(deps, id);
}

/**
 * Creates a delivery per enabled subscription whose events and repo filter match, and queues the
 * first attempt of each. A delivery that already exists is left alone, so running this twice is safe.
 */
export async function fanOutEvent(deps: WebhookDeps, eventId: string) {
  const event = await getEvent(deps.db, eventId);
  if (!event) return { eventId, queued: 0 };
  const repoName = event.repoId === null ? null : await repoNameById(deps.db, event.repoId);
  let queued = 0;
  for (const sub of await listSubscriptions(deps.db)) {
    if (!sub.enabled || !sub.events.includes(event.type) || !repoFilterMatches(sub.repoFilter, repoName))
      continue;
    if (!(await insertDelivery(deps.db, sub.id, eventId))) continue;
    await deps.enqueue(
      DELIVER_JOB,
      { subscriptionId: sub.id, eventId },
      { jobId: deliverJobId(sub.id, eventId, 1) },
    );
    queued++;
  }
  return { eventId, queued };
}
